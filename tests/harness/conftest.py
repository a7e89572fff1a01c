"""The harness tests mirror agentconf/harness/ folder by folder (session/, target/, profile/...);
the programs and toys several of those folders share live here, beside them: harness_toys.py,
shape_programs.py (its programs in shape_toys/), clause_events.py. This file's being here puts
this folder on sys.path (pytest's default import mode, as tests/conftest.py puts tests/ there),
so any subfolder's test imports them by name and a `python:harness_toys:...` spec finds its
module."""
