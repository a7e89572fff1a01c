"""What the shell probes draft (init_from/probe_shell.py): the text the checks read is what the
model reads."""

from agentconf.init_from.findings import Findings
from agentconf.init_from.probe_shell import _exit_in_json


def test_the_exit_status_joins_the_output_places_and_drops_none_of_them() -> None:
    found = Findings()
    found.keys["bash"] = {"result": {"text": ["stdout", "stderr"]}}
    assert _exit_in_json(found, '{"stdout": "", "stderr": "", "exit_code": 3}')
    assert found.keys["bash"]["result"]["text"] == ["stdout", "stderr", "exit_code"]
