"""What the shell probes draft (init_from/probe_shell.py): the text the checks read is what the
model reads."""

import json

from agentconf.harness.profile.tool_mapping import ResultShape
from agentconf.harness.session.answers import read_answer
from agentconf.harness.session.result import Request, Result
from agentconf.init_from.findings import Findings
from agentconf.init_from.probe_shell import _exit_in_json, _failure_of_commands, _shown


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


def test_a_cut_output_in_json_is_measured_as_the_text_the_model_reads() -> None:
    """A shell answering `{"text": "1\\n2..."}`: its own bound was once measured on the JSON,
    one line whose escapes are no output, and drafted as max_output_chars = -1."""
    found = Findings()
    found.keys["bash"] = {"result": {"text": "text"}}
    output = "1\n2\n3\n[output cut: 10 more lines]"
    assert _shown(found, json.dumps({"text": output})) == output
    found.keys["bash"] = {"result": {"text": ["stdout", "stderr"]}}
    assert _shown(found, json.dumps({"stdout": "a", "stderr": "b"})) == "a\nb"
    assert _shown(Findings(), "plain text") == "plain text"


def test_a_gate_that_declines_true_leaves_the_timeout_still_probed() -> None:
    """Its allow-list declines `true` (its exits go unprobed): the shell still ran the first
    probe's `echo`, so TIMEOUT is probed; a disguise whose gate allowed `sleep` but not `true`
    learnt no TIMEOUT and RESULT-02 failed where the reference passed."""
    echoed = Result(success=True, data="agentconf-probe-out", error=None, summary=None,
                    diff=None, issues=None, denial=None, exit_code=0, raw={},
                    request=Request("bash", {}, "bash", {}))
    assert _failure_of_commands(None, Findings(), echoed, ["echo", "sleep", "exit"])  # type: ignore[arg-type]
    assert not _failure_of_commands(None, Findings(), None, ["echo", "sleep", "exit"])  # type: ignore[arg-type]
