"""Each profile key for a real shape, on a small program of that shape (shape_programs.py):
without the key the check's verdict on the program is wrong, with it right."""

import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from clause_events import outcomes, run
from shape_programs import write_mcp_shapes, write_shapes
from test_profile_answers_and_arguments import open_client

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.profile.model import ProfileError, parse_profile
from agentconf.harness.profile.tool_mapping import ResultShape
from agentconf.harness.session.answers import read_answer
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.harness.target.spec import parse_spec
from agentconf.harness.verdicts.errors import ImplementationFailure, NotApplicable

Opened = tuple[Client, SandboxWorkspace]
Start = Callable[..., Opened]
# Appended to the mapping, whose last table is [tools.bash]: bare keys land there.
ARGV = 'argv = ["sh", "-c", "{command}"]\n'


@pytest.fixture
def shapes(tmp_path: Path) -> Iterator[Start]:
    opened: list[Client] = []
    counter = itertools.count()

    def start(*flags: str, extra: str = "", mcp: str | None = None) -> Opened:
        folder = tmp_path / f"run{next(counter)}"
        folder.mkdir()
        profile = write_mcp_shapes(folder, mcp, extra) if mcp else write_shapes(
            folder, *flags, extra=extra)
        client, ws = open_client(folder, parse_spec(str(profile)))
        opened.append(client)
        return client, ws

    yield start
    for client in opened:
        client.close()


def echoes(result: Result) -> bool:
    """SHELL-01's verdict on `echo hello`: success, and the output shown."""
    return result.success and "hello" in result.data


def refused(result: Result, code: str) -> bool:
    """A refusal check's verdict: a failure with the contract's code."""
    return not result.success and result.error == code


# ---- the shell ---------------------------------------------------------------------------------

def test_argv_sends_the_command_inside_the_shell_array(shapes: Start) -> None:
    client, _ = shapes("argv")
    assert not echoes(client.call("bash", command="echo hello"))
    client, _ = shapes("argv", extra=ARGV)
    result = client.call("bash", command="echo hello")
    assert echoes(result), result.evidence()
    assert result.request.sent == {"argv": ["sh", "-c", "echo hello"]}



def test_a_list_for_an_argv_shell_command_is_its_own_type_not_an_ill_typed_one(
        shapes: Start) -> None:
    """agno's run_shell_command takes `args: List[str]`: VALIDATE-02's "a list for command" is
    that tool's own type there, so the check cannot say whether it validates (it ran the list)."""
    client, _ = shapes("argv", extra=ARGV)
    with pytest.raises(NotApplicable, match=r"argv"):
        client.call("bash", command=["echo", "x"])

def test_a_program_outside_the_allow_list_makes_the_check_not_applicable(shapes: Start) -> None:
    client, _ = shapes("allow=echo,ls")
    assert not client.call("bash", command="sleep 0").success  # a false SHELL failure
    client, _ = shapes("allow=echo,ls", extra='allowed_programs = ["echo", "ls"]\n')
    with pytest.raises(NotApplicable, match=r"'sleep'.*\[tools.bash\].allowed_programs"):
        client.call("bash", command="echo a; sleep 0")
    assert echoes(client.call("bash", command="echo hello"))


def test_a_root_placeholder_in_defaults_is_the_session_root(shapes: Start) -> None:
    client, _ = shapes("workdir")
    assert not echoes(client.call("bash", command="echo hello"))
    client, ws = shapes("workdir", extra='defaults = { workdir = "{root}" }\n')
    result = client.call("bash", command="echo hello")
    assert echoes(result), result.evidence()
    assert result.request.sent["workdir"] == str(ws.root)


def test_a_timeout_in_seconds_for_an_integer_or_null_parameter_is_a_whole_number(
        shapes: Start) -> None:
    """SHELL-04 sends 500 ms; 0.5 s to `anyOf: [{integer}, {null}]` was refused as not whole."""
    client, _ = shapes("timeout-any", extra='args = { timeout_ms = "timeout" }\n'
                                              'units = { timeout_ms = "s" }\n')
    result = client.call("bash", command="echo hello", timeout_ms=500)
    assert echoes(result), result.evidence()
    assert result.request.sent["timeout"] == 1


def test_a_non_zero_return_code_is_a_failure_with_not_equals(shapes: Start) -> None:
    client, _ = shapes("rc")
    assert client.call("bash", command="exit 3").success  # SHELL-02 would pass a failure
    client, _ = shapes("rc", extra='result = { text = "output", exit_code = "return_code", '
                                     'failure = { path = "return_code", not_equals = 0 } }\n')
    failed = client.call("bash", command="echo out; exit 3")
    assert (failed.success, failed.exit_code) == (False, 3), failed.evidence()
    assert "out" in failed.data
    assert echoes(client.call("bash", command="echo hello"))


def test_a_failure_by_a_non_zero_exit_code_is_nonzero_exit(shapes: Start) -> None:
    # codex-shell-tool-mcp answers {"exit_code": N, "output": ...}: a failure its profile marks by
    # exit_code != 0 had no code at all, so RESULT-02 and SHELL-02 failed on the kit's reading.
    client, _ = shapes("rc", extra='result = { exit_code = "return_code", '
                                     'failure = { path = "return_code", not_equals = 0 } }\n')
    failed = client.call("bash", command="echo out; exit 3")
    assert (failed.success, failed.error) == (False, "NONZERO_EXIT"), failed.evidence()
    assert client.call("bash", command="true").error is None


def test_a_number_among_the_text_places_keeps_its_name(shapes: Start) -> None:
    # codex-shell-tool-mcp's text is its output and exit status: "exit 3" read as the bare "3"
    # said nothing in words (RESULT-03), where the model reads {"exit_code": 3, "output": ""}.
    client, _ = shapes("rc", extra='result = { text = ["output", "return_code"], '
                                     'exit_code = "return_code", '
                                     'failure = { path = "return_code", not_equals = 0 } }\n')
    failed = client.call("bash", command="echo out; exit 3")
    assert failed.data == "out\n\nreturn_code: 3", failed.evidence()


# ---- setup requests ----------------------------------------------------------------------------

SETUP = '\n[[setup.requests]]\nmethod = "sandbox/configure"\nparams = { root = "{root}" }\n'


def test_a_setup_request_is_sent_before_the_first_call_over_cmd(shapes: Start) -> None:
    client, ws = shapes("needs-sandbox")
    ws.write("a.txt", "alpha\n")
    result = client.call("read_file", path="a.txt")
    assert not result.success and "sandbox was required" in result.data  # every check fails
    client, ws = shapes("needs-sandbox", extra=SETUP)
    ws.write("a.txt", "alpha\n")
    assert client.call("read_file", path="a.txt").success


def test_a_setup_request_is_sent_before_the_first_call_over_mcp(shapes: Start) -> None:
    client, ws = shapes(mcp="sandbox")
    ws.write("a.txt", "alpha\n")
    assert "sandbox was required" in client.call("read_file", path="a.txt").data
    client, ws = shapes(mcp="sandbox", extra=SETUP)
    ws.write("a.txt", "alpha\n")
    result = client.call("read_file", path="a.txt")
    assert result.success and "alpha" in result.data, result.evidence()


def test_a_refused_setup_request_stops_the_start_naming_it(shapes: Start) -> None:
    wrong = SETUP.replace("{root}", "/nowhere")
    with pytest.raises(ImplementationFailure, match=r"sandbox/configure.*setup.requests"):
        shapes("needs-sandbox", extra=wrong)
    with pytest.raises(ImplementationFailure, match=r"sandbox/configure.*setup.requests"):
        shapes(mcp="sandbox", extra=wrong)


def test_setup_requests_for_a_python_implementation_are_refused_plainly() -> None:
    with pytest.raises(ProfileError, match=r"setup.requests.*cmd: or mcp:"):
        parse_profile({"implementation": {"spec": "python:mod:make"},
                       "setup": {"requests": [{"method": "sandbox/configure"}]}})


# ---- failures and codes ------------------------------------------------------------------------

STATUS = '\n[tools.edit_file.result]\nfailure = { path = "status", equals = ["not_found", ' \
         '"count_mismatch"] }\n'


def test_failure_equals_any_of_a_list(shapes: Start) -> None:
    client, ws = shapes("status")
    ws.write("a.txt", "alpha alpha\n")
    assert client.call("edit_file", path="a.txt", old_text="omega", new_text="x").success
    client, ws = shapes("status", extra=STATUS)
    ws.write("a.txt", "alpha alpha\n")
    for old in ("omega", "alpha"):
        result = client.call("edit_file", path="a.txt", old_text=old, new_text="x")
        assert not result.success, result.evidence()
    assert client.call("edit_file", path="a.txt", old_text="alpha alpha", new_text="x").success


def test_a_plain_text_success_that_matches_is_a_failure(shapes: Start) -> None:
    too_long = '\n[tools.read_file.result]\nfailure = { matches = "\\\\AThe answer is too long" }' \
               '\n\n[[error_patterns]]\ncode = "FILE_TOO_LARGE"\npattern = "too long"\n'
    client, ws = shapes("too-long=5")
    ws.write("big.txt", "line\n" * 10)
    assert client.call("read_file", path="big.txt").success  # READ-05 would fail
    client, ws = shapes("too-long=5", extra=too_long)
    ws.write("big.txt", "line\n" * 10)
    assert refused(client.call("read_file", path="big.txt"), "FILE_TOO_LARGE")
    ws.write("small.txt", "line\n")
    assert client.call("read_file", path="small.txt").success


def test_a_code_spelled_as_a_text_prefix_is_read_through_a_named_group(shapes: Start) -> None:
    prefix = "\n[[error_patterns]]\npattern = '\\A(?P<code>[A-Z][A-Z_]+):'\n\n" \
             '[error_codes]\nACCESS_DENIED = "OUTSIDE_ROOT"\n'
    client, _ = shapes()
    assert client.call("read_file", path="missing.txt").error is None
    client, _ = shapes(extra=prefix)
    assert refused(client.call("read_file", path="missing.txt"), "NOT_FOUND")
    assert refused(client.call("read_file", path="../outside.txt"), "OUTSIDE_ROOT")
    # A prefix that is no code (`UNKNOWN_TOOL:`, unmapped) leaves the text to later patterns.
    client, _ = shapes(extra=prefix + '\n[[error_patterns]]\ncode = "TOOL_NOT_FOUND"\n'
                                      "pattern = 'UNKNOWN_TOOL'\n")
    assert refused(client.call_raw("nonexistent", {}), "TOOL_NOT_FOUND")


def test_a_code_in_structured_content_is_read_at_its_locator(shapes: Start) -> None:
    where = 'result = { error = "structuredContent.failures[0].error.code" }\n\n' \
            '[error_codes]\nno_such_file = "NOT_FOUND"\n'
    client, _ = shapes(mcp="structured")
    assert client.call("read_file", path="missing.txt").error is None
    client, _ = shapes(mcp="structured", extra=where)
    assert refused(client.call("read_file", path="missing.txt"), "NOT_FOUND")


def test_the_sdk_wrapping_of_text_blocks_does_not_hide_the_failure_marker(shapes: Start) -> None:
    """docs/profiles.md's mcp-text-editor example, on the shape a Python MCP SDK gives its
    answers: structuredContent {"result": [<the text blocks>]} around {"result": "error"}."""
    marker = '\n[tools.read_file.result]\nfailure = { path = "result", equals = "error" }\n'
    client, ws = shapes(mcp="sdk-wrapped", extra=marker)
    result = client.call("read_file", path="missing.txt")
    assert not result.success, result.evidence()
    ws.write("a.txt", "alpha\n")
    assert client.call("read_file", path="a.txt").success


# ---- grep lines and read limits, judged by the suites themselves -------------------------------

VERDICT_CLAUSES = "GREP-01,READ-05"
PREFIXED_CODES = "\n[[error_patterns]]\npattern = '\\A(?P<code>[A-Z][A-Z_]+):'\n"
READ_LIMITS = "\n[tools.read_file.limits]\nmax_read_bytes = 100000\nmax_read_lines = 1000\n"


def verdicts(folder: Path, keys: bool) -> dict[str, set[str]]:
    folder.mkdir()
    profile = write_shapes(folder, "grep0", "max-lines=1000", "max-bytes=100000",
                           grep="line_base = 0" if keys else "",
                           extra=PREFIXED_CODES + (READ_LIMITS if keys else ""))
    found = run(folder, profile, VERDICT_CLAUSES)
    return {clause: outcomes(events) for clause, events in found.items()}


def test_grep_line_base_and_a_second_read_limit_turn_false_failures_into_passes(
        tmp_path: Path) -> None:
    without = verdicts(tmp_path / "without", keys=False)
    assert "fail" in without["GREP-01"] and "fail" in without["READ-05"], without
    with_keys = verdicts(tmp_path / "with", keys=True)
    assert with_keys["GREP-01"] == {"pass"} and with_keys["READ-05"] == {"pass"}, with_keys


def test_a_message_in_the_error_field_is_classified_not_taken_as_the_code(shapes: Start) -> None:
    client, _ = shapes(mcp="error-message")
    assert client.call("read_file", path="missing.txt").error is None  # no code, not a message
    client, _ = shapes(mcp="error-message", extra=(
        '\n[[error_patterns]]\ncode = "NOT_FOUND"\npattern = "not found"\n'))
    result = client.call("read_file", path="missing.txt")
    assert refused(result, "NOT_FOUND"), result.evidence()


@pytest.mark.parametrize("kind", ["cmd", "mcp"])
def test_a_json_rpc_error_answering_a_cancelled_call_is_an_answer_not_a_crash(
        shapes: Start, kind: str) -> None:
    """CANCEL: it escaped as the SDK's exception, a harness-error (mcp:), or as a violation of
    the envelope (cmd:); -32800 is LSP's and JSON-RPC's RequestCancelled."""
    client, _ = shapes("cancel-error") if kind == "cmd" else shapes(mcp="rpc-error")
    result = client.call_cancelled("read_file", lambda: False, path="a.txt")
    assert result is not None and not result.success, result
    assert result.raw["protocol_error"]["code"] == -32800


@pytest.mark.parametrize("kind", ["cmd", "mcp"])
def test_a_server_printing_on_stdout_is_named_once_plainly(
        shapes: Start, caplog: pytest.LogCaptureFixture, tmp_path: Path, kind: str) -> None:
    """Instead of a traceback of the SDK's for every line (42 KB for one chatty server)."""
    client, _ = shapes("noisy") if kind == "cmd" else shapes(mcp="noisy")
    assert client.profile.path is not None
    second, _ = open_client(tmp_path, parse_spec(str(client.profile.path)))  # same server
    try:
        for session in (client, second):
            for _ in range(3):
                assert not session.call("read_file", path="missing.txt").success
    finally:
        second.close()
    named = [r.getMessage() for r in caplog.records if "non-protocol" in r.getMessage()]
    assert len(named) == 1, named
    assert "DEBUG" in named[0] and "stdout must carry protocol messages only; log to stderr" \
        in named[0] and ("shapes.py" in named[0]), named
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


@pytest.mark.parametrize(("text", "structured", "failed"), [
    # FastMCP's wrapping of a returned string: of JSON text (unwrapped), of a plain word (kept).
    ('{"result": "error"}', {"result": '{"result": "error"}'}, True),
    ('{"result": "ok"}', {"result": '{"result": "ok"}'}, False),
    ("error", {"result": "error"}, True),
    # Structured content of the server's own, not a wrapping: read as it is.
    ("done", {"result": "error", "detail": "x"}, True),
])
def test_the_sdk_wrapping_of_a_string_is_seen_through_only_when_the_text_is_json(
        text: str, structured: object, failed: bool) -> None:
    shape = ResultShape.model_validate({"failure": {"path": "result", "equals": "error"}})
    assert read_answer(shape, text, structured).failed is failed


@pytest.mark.parametrize(("item", "message"), [
    # fs-mcp 1.47.3's edit_files: a text not there, then a missing file
    ({"status": "error", "error": True, "message": "Edit 0: No match found for 'match_text'."},
     "Edit 0: No match found for 'match_text'."),
    ({"status": "error", "error": "File not found: x.txt", "path": "x.txt"},
     "File not found: x.txt"),
    # an `error` that is a word of its own is a code, not a message
    ({"error": "FileNotFoundError"}, None),
])
def test_an_items_error_in_words_is_its_message_where_it_has_no_message(
        item: dict[str, object], message: str | None) -> None:
    shape = ResultShape.model_validate({"error": "files[0]",
                                        "failure": {"path": "files[0].error", "present": True}})
    reading = read_answer(shape, json.dumps({"success": False, "files": [item]}), None)
    assert reading.failed and reading.error_message == message, reading


def test_a_place_with_a_wildcard_key_reads_an_answer_keyed_by_the_files_own_path() -> None:
    """mcp-text-editor answers a read as JSON keyed by the file's absolute path: no fixed place
    reached its text, so the peer could not be judged; `*` stands for that one key."""
    shape = ResultShape.model_validate({"text": "/*/ranges/0/content"})
    answer = {"/tmp/ws/root/a.txt": {"ranges": [{"content": "alpha\nbeta\n", "start": 1}]}}
    assert read_answer(shape, json.dumps(answer), None).text == "alpha\nbeta\n"
    assert read_answer(shape, json.dumps({}), None).text is None  # nothing there: no text
