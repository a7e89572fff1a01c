#!/usr/bin/env bash
# The slow, thorough checks the README's test command (and so CI) leaves out, each the full form
# of a rule CI checks in a smaller form: the tests marked `thorough` (a kept server's verdicts
# against a fresh one's over every EOL and EDIT check of a real server and over a slow-starting
# shell server's EDIT and SHELL checks; the learner's finished project in a whole run), every
# check piped over cmd: and mcp: (scripts/parity.sh), and the independent implementation over
# every category. Results go in docs/benchmarks.md, "Thorough checks". Tens of minutes on 2 cores.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export AGENTCONF_FULL_PARITY=1 AGENTCONF_FULL_INDEPENDENT=1
exec .venv/bin/python -m pytest -q -n 3 --durations=10 -m "thorough or not thorough" \
  tests/runner/test_kept_server_departures.py tests/drafting/test_draft_sharing.py \
  tests/learn/test_learner.py tests/runner/test_stdio_parity.py \
  tests/independent/test_plain_conformance.py "$@"
