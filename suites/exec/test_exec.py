"""EXEC: a program run from an argv, no shell between: its arguments reach it as given, shell
syntax is plain text, exit code and both streams, a timeout that kills the whole tree, the root as
cwd, an allow-list, a missing program, bounded output (Claude Code: a command parsed for what it
smuggles; dskcode: process group and two-stage kill; agentkit: permission preflight;
@clarvis/agent-tools: bounded output).

The programs are POSIX ones (printf, echo, sh, cat, touch); an allow-list that refuses one makes
the check n/a, naming it. Time bounds only detect hangs; they are generous on purpose.
"""

import shutil
from typing import Any

import pytest
from _checks import (
    FLOOD,
    GRANDCHILD_LINE,
    answered,
    can_produce,
    grandchild_stopped,
    refused,
    shows_number,
)

from agentconf.contract.modes import ALLOWED_PROGRAMS, MODES
from agentconf.harness.verdicts.errors import not_applicable

# Arguments a shell would split, unquote or expand; exec hands each over whole.
AS_GIVEN = ["a b", "  two  spaces  ", "'single'", '"double"', "*.txt", "~", "~/x", "-n", "",
            "back\\slash", "grüße 🌍 中文", "tab\there"]
# Shell syntax after `echo said`: a shell would run the rest (and create pwned.txt); exec echoes it.
SYNTAX = {
    "semicolon": [";", "touch", "pwned.txt"],
    "and": ["&&", "touch", "pwned.txt"],
    "pipe": ["|", "tee", "pwned.txt"],
    "redirect": [">", "pwned.txt"],
    "substitution": ["$(touch pwned.txt)"],
    "backticks": ["`touch pwned.txt`"],
    "variable": ["$HOME", "${PATH}"],
    "newline": ["x\ntouch pwned.txt"],
}


@pytest.mark.clause("EXEC-01")
@pytest.mark.parametrize("argument", AS_GIVEN, ids=range(len(AS_GIVEN)))
def test_each_argument_reaches_the_program_as_given(ws, client, argument: str) -> None:
    ws.write("glob-a.txt", "")  # a glob that a shell would expand finds something to expand to
    result = client.call("exec", argv=["printf", "<%s>\\n", argument])
    assert result.success, result.evidence()
    assert f"<{argument}>" in result.data, result.evidence()


@pytest.mark.clause("EXEC-01")
def test_several_arguments_stay_apart(ws, client) -> None:
    result = client.call("exec", argv=["printf", "<%s>", "one two", "", "three"])
    assert result.success, result.evidence()
    assert "<one two><><three>" in result.data, result.evidence()


@pytest.mark.clause("EXEC-02")
@pytest.mark.parametrize("tail", SYNTAX.values(), ids=SYNTAX.keys())
def test_shell_syntax_is_plain_text(ws, client, tail: list[str]) -> None:
    result = client.call("exec", argv=["echo", "said", *tail])
    assert not ws.exists("pwned.txt"), f"a shell ran the arguments\n{result.evidence()}"
    assert result.success, result.evidence()
    assert " ".join(["said", *tail]) in result.data, result.evidence()


@pytest.mark.clause("EXEC-03")
@pytest.mark.parametrize(("argv", "shown"), [
    (["echo", "hello-exec"], ["hello-exec"]),
    (["sh", "-c", "echo ok-text; echo warn-text >&2"], ["ok-text", "warn-text"]),
    (["sh", "-c", "echo only-warn-text >&2"], ["only-warn-text"]),
], ids=["stdout", "both", "stderr-only"])
def test_a_program_that_exits_zero_succeeds_with_both_streams(ws, client, argv, shown) -> None:
    result = client.call("exec", argv=argv)
    assert result.success, result.evidence()
    assert result.error is None, result.evidence()
    assert all(text in result.data for text in shown), result.evidence()


@pytest.mark.clause("EXEC-04")
@pytest.mark.parametrize("code", [1, 2, 42, 255])
def test_a_non_zero_exit_is_a_failure_showing_code_stdout_and_stderr(ws, client, code) -> None:
    line = f"echo out-text; echo err-text >&2; exit {code}"
    result = client.call("exec", argv=["sh", "-c", line])
    refused(result, "NONZERO_EXIT")
    assert shows_number(result.data, code), result.evidence()
    assert "out-text" in result.data and "err-text" in result.data, result.evidence()


@pytest.mark.clause("EXEC-04")
def test_false_is_a_failure_with_exit_code_one(ws, client) -> None:
    result = client.call("exec", argv=["false"])
    refused(result, "NONZERO_EXIT")
    assert shows_number(result.data, 1), result.evidence()


@pytest.mark.waits
@pytest.mark.clause("EXEC-05")
def test_a_timeout_kills_the_grandchildren_too(ws, client) -> None:
    result = answered(lambda: client.call("exec", argv=["sh", "-c", GRANDCHILD_LINE],
                                          timeout_ms=1000), "exec")
    grandchild_stopped(ws, result)


@pytest.mark.waits
@pytest.mark.clause("EXEC-05")
def test_a_program_over_its_timeout_answers_timeout(ws, client) -> None:
    result = answered(lambda: client.call("exec", argv=["sleep", "60"], timeout_ms=500), "exec")
    refused(result, "TIMEOUT")


@pytest.mark.clause("EXEC-06")
def test_programs_run_in_the_workspace_root(ws, client) -> None:
    result = client.call("exec", argv=["pwd", "-P"])
    assert result.success, result.evidence()
    assert str(ws.root.resolve()) in result.data, result.evidence()


@pytest.mark.clause("EXEC-06")
@pytest.mark.parametrize("argv", [["cat", "sub/marker.txt"], ["touch", "made-by-exec.txt"]],
                         ids=["read", "write"])
def test_relative_paths_mean_what_they_mean_to_the_file_tools(ws, client, argv) -> None:
    ws.write("sub/marker.txt", "found-by-relative-path\n")
    result = client.call("exec", argv=argv)
    assert result.success, result.evidence()
    if argv[0] == "cat":
        assert "found-by-relative-path" in result.data, result.evidence()
    else:
        assert ws.exists("made-by-exec.txt"), result.evidence()


def _allow_listed(client: Any, open_mode: Any) -> tuple[Any, tuple[str, ...]]:
    """The session to judge and its allow-list: the usual one where the profile declares
    [tools.exec].allowed_programs, else one started in the contract's mode allowed_programs."""
    declared = getattr(client.profile.tool("exec"), "allowed_programs", None)
    if declared:
        client.checks_programs = False  # the check calls a refused program on purpose
        client.policy_refusal_not_judged = False
        return client, tuple(declared)
    return open_mode(ALLOWED_PROGRAMS), MODES[ALLOWED_PROGRAMS].programs


@pytest.mark.clause("EXEC-07")
@pytest.mark.parametrize("spelling", ["name", "path"])
def test_a_program_outside_the_allow_list_is_refused_before_it_runs(
    ws, client, open_mode, spelling: str
) -> None:
    session, allowed = _allow_listed(client, open_mode)
    program = next((name for name in ("touch", "mkdir") if name not in allowed), None)
    path = shutil.which(program) if program else None
    if program is None or path is None:
        not_applicable(f"the allow-list ({', '.join(allowed)}) names touch and mkdir, or this "
                       "machine has neither: no refused program leaves a trace to judge")
    result = session.call("exec", argv=[program if spelling == "name" else path, "refused-ran"])
    assert not ws.exists("refused-ran"), f"{program} ran\n{result.evidence()}"
    refused(result, "PERMISSION_DENIED")


@pytest.mark.clause("EXEC-07")
def test_a_program_on_the_allow_list_runs(ws, client, open_mode) -> None:
    session, allowed = _allow_listed(client, open_mode)
    if "echo" not in allowed and "printf" not in allowed:
        not_applicable(f"the allow-list ({', '.join(allowed)}) names neither echo nor printf")
    program = "echo" if "echo" in allowed else "printf"
    result = session.call("exec", argv=[program, "allowed-ran"])
    assert result.success, result.evidence()
    assert "allowed-ran" in result.data, result.evidence()


@pytest.mark.clause("EXEC-08")
@pytest.mark.parametrize("program", ["agentconf-no-such-program-xyz", "./no-such-script.sh"])
def test_a_program_that_does_not_exist_is_not_found(ws, client, program: str) -> None:
    result = client.call("exec", argv=[program, "arg"])
    refused(result, "NOT_FOUND")
    assert program.removeprefix("./") in result.data, result.evidence()


@pytest.mark.clause("EXEC-09")
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_far_more_output_than_the_limit_keeps_head_and_tail(ws, client, stream: str) -> None:
    limits = client.limits_for("exec")
    size = 40 * limits.max_output_chars
    can_produce(lambda line: client.call("exec", argv=["sh", "-c", line]), size)
    redirect = "" if stream == "stdout" else " 1>&2"
    line = f"{{ echo HEAD-START; {FLOOD.format(size=size)}; echo; echo TAIL-END; }}{redirect}"
    result = client.call("exec", argv=["sh", "-c", line])
    # Both streams may each be bounded: allow two bounded streams and their markers.
    bound = 2 * (limits.max_output_chars + limits.marker_budget_chars)
    assert len(result.data) <= bound, f"{len(result.data)} characters, more than {bound}"
    assert "HEAD-START" in result.data, result.data[:300]
    assert "TAIL-END" in result.data, result.data[-300:]
