"""What the shell probes draft (init_from/probe_shell.py): the text the checks read is what the
model reads."""

from agentconf.harness.profile.tool_mapping import ResultShape
from agentconf.harness.session.answers import read_answer
from agentconf.init_from.findings import Findings
from agentconf.init_from.probe_shell import _exit_in_json


def test_the_exit_status_joins_the_output_places_and_drops_none_of_them() -> None:
    found = Findings()
    found.keys["bash"] = {"result": {"text": ["stdout", "stderr"]}}
    assert _exit_in_json(found, '{"stdout": "", "stderr": "", "exit_code": 3}')
    assert found.keys["bash"]["result"]["text"] == ["stdout", "stderr", "exit_code"]


def test_an_exit_status_in_a_python_literal_is_read_as_in_json() -> None:
    """A Python server answering `str(result)` (shell-mcp-server 0.1.0): `exit 3` answered
    `{'stdout': '', 'exit_code': 3}`, JSON in all but its quotes. Unread, every command that
    exits non-zero was drafted "a departure" and the shell's failures went unrecognised; read,
    the draft and the checks see its status as they see a JSON one."""
    found = Findings()
    answer = "{'stdout': 'a\\n', 'stderr': '', 'exit_code': 3, 'shell': 'bash', 'cwd': '/r'}"
    assert _exit_in_json(found, answer)
    shape = found.keys["bash"]["result"]
    assert shape["failure"] == {"path": "exit_code", "not_equals": 0}
    reading = read_answer(ResultShape(**shape), answer, None)
    assert reading.failed and reading.exit_code == 3 and reading.text == "a\n\nexit_code: 3"
    assert not read_answer(ResultShape(**shape), answer.replace(": 3", ": 0"), None).failed
    # Text that only looks like one is none: read as the text it is.
    assert not _exit_in_json(Findings(), "{exit_code: 3} is what it said")
