"""SHELL: exit codes, both streams, the root as cwd, timeouts that kill the whole process tree,
a default timeout for a command given none (dskcode: process group, two-stage kill, 30 s; Claude
Code: failure output, "(no output)"; @clarvis/agent-tools: bounded output).

Time bounds here only detect hangs; they are generous on purpose (the machine may be busy).
"""

import math
import time
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
    started_pid,
    wait_gone,
)

from agentconf.harness.verdicts.errors import not_applicable


@pytest.mark.clause("SHELL-01")
@pytest.mark.parametrize("command", ["echo hello-agentconf", "printf 'hello-agentconf'",
                                     "echo hello-agentconf | cat", "true; echo hello-agentconf"])
def test_a_command_that_exits_zero_succeeds_with_its_stdout(ws, client, command: str) -> None:
    result = client.call("bash", command=command)
    assert result.success, result.evidence()
    assert result.error is None, result.evidence()
    assert "hello-agentconf" in result.data, result.evidence()


@pytest.mark.clause("SHELL-02")
@pytest.mark.parametrize("code", [1, 2, 42, 255])
def test_a_non_zero_exit_is_a_failure_showing_code_stdout_and_stderr(ws, client, code) -> None:
    # `(exit N)`, not `exit N`: a shell kept across calls (OpenHands' tmux terminal) ends its
    # session on a top-level exit, and its answer is then about the reset, not the exit code.
    command = f"echo out-text; echo err-text >&2; (exit {code})"
    result = client.call("bash", command=command)
    refused(result, "NONZERO_EXIT")
    # The whole answer, as the model reads it (an exit code beside the output the profile reads
    # as its text), without the command it may quote back.
    shown = result.shown.replace(command, " ")
    assert shows_number(shown, code), result.evidence()
    assert "out-text" in shown and "err-text" in shown, result.evidence()


@pytest.mark.clause("SHELL-02")
def test_a_missing_command_is_a_non_zero_exit_with_its_message(ws, client) -> None:
    result = client.call("bash", command="agentconf-no-such-command-xyz")
    refused(result, "NONZERO_EXIT")
    assert shows_number(result.shown, 127), result.evidence()
    assert "agentconf-no-such-command-xyz" in result.data, result.evidence()


@pytest.mark.clause("SHELL-03")
@pytest.mark.parametrize("command", ["echo warn-text >&2; echo ok-text",
                                     "echo ok-text; echo warn-text 1>&2"])
def test_stderr_of_a_successful_command_is_shown(ws, client, command: str) -> None:
    result = client.call("bash", command=command)
    assert result.success, result.evidence()
    assert "warn-text" in result.data and "ok-text" in result.data, result.evidence()


@pytest.mark.waits
@pytest.mark.clause("SHELL-04")
def test_a_timeout_kills_the_grandchildren_too(ws, client) -> None:
    result = answered(lambda: client.call("bash", command=GRANDCHILD_LINE, timeout_ms=1000),
                      "bash")
    grandchild_stopped(ws, result)


@pytest.mark.waits
@pytest.mark.clause("SHELL-04")
def test_a_timeout_answers_timeout_with_the_output_so_far(ws, client) -> None:
    result = answered(
        lambda: client.call("bash", command="echo before-timeout; sleep 60", timeout_ms=500),
        "bash",
    )
    refused(result, "TIMEOUT")


@pytest.mark.clause("SHELL-05")
@pytest.mark.parametrize("command", ["true", ":", "printf ''", "echo hidden > /dev/null"])
def test_a_command_with_no_output_says_so(ws, client, command: str) -> None:
    result = client.call("bash", command=command)
    assert result.success, result.evidence()
    # The whole answer, as its golden cases read it (`data_nonempty`): a JSON answer whose
    # stdout is empty still says something (`{"message": "Command executed", "stdout": ""}`).
    assert result.shown.strip(), result.evidence()


@pytest.mark.clause("SHELL-06")
def test_commands_run_in_the_workspace_root(ws, client) -> None:
    result = client.call("bash", command="pwd -P")
    assert result.success, result.evidence()
    assert str(ws.root.resolve()) in result.data, result.evidence()


@pytest.mark.clause("SHELL-06")
def test_relative_paths_in_commands_mean_what_they_mean_to_the_file_tools(ws, client) -> None:
    ws.write("sub/marker.txt", "found-by-relative-path\n")
    result = client.call("bash", command="cat sub/marker.txt && touch made-by-bash.txt")
    assert result.success, result.evidence()
    assert "found-by-relative-path" in result.data, result.evidence()
    assert ws.exists("made-by-bash.txt")


@pytest.mark.waits
@pytest.mark.clause("SHELL-07")
def test_a_command_that_ignores_sigterm_is_still_killed(ws, client) -> None:
    command = "trap '' TERM; echo $$ > shell.pid; while true; do sleep 0.2; done"
    result = answered(lambda: client.call("bash", command=command, timeout_ms=1000), "bash")
    refused(result, "TIMEOUT")
    pid = started_pid(ws, "shell.pid", result)
    assert wait_gone(pid), f"the shell {pid} ignoring SIGTERM still runs"


@pytest.mark.waits
@pytest.mark.clause("SHELL-07")
def test_a_grandchild_that_ignores_sigterm_is_still_killed(ws, client) -> None:
    # `sh -c` and `$$` (not bash's $BASHPID): the grandchild's own pid under any POSIX shell.
    command = ("sh -c 'trap \"\" TERM; echo $$ > stubborn.pid; while true; do sleep 0.2; done' & "
               "sleep 60")
    result = answered(lambda: client.call("bash", command=command, timeout_ms=1000), "bash")
    refused(result, "TIMEOUT")
    pid = started_pid(ws, "stubborn.pid", result)
    assert wait_gone(pid), f"the grandchild {pid} ignoring SIGTERM still runs"


@pytest.mark.clause("SHELL-08")
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_far_more_output_than_the_limit_is_bounded_with_the_tail_kept(ws, client, stream) -> None:
    size = 40 * client.limits_for("bash").max_output_chars
    can_produce(lambda command: client.call("bash", command=command), size)
    redirect = "" if stream == "stdout" else " 1>&2"
    command = f"{{ {FLOOD.format(size=size)}; echo; echo TAIL-END; }}{redirect}"
    result = client.call("bash", command=command)
    limits = client.limits_for("bash")
    # Both streams may each be bounded: allow two bounded streams and their markers.
    assert len(result.data) <= 2 * (limits.max_output_chars + limits.marker_budget_chars), (
        f"{len(result.data)} characters"
    )
    assert "TAIL-END" in result.data, result.data[-300:]


@pytest.mark.clause("SHELL-09")
@pytest.mark.parametrize("command", ["cat", "read line; echo got:$line", "head -n 1"])
def test_a_command_reading_stdin_gets_end_of_input_at_once(ws, client, command: str) -> None:
    arguments: dict[str, Any] = {"command": command}
    if client.has("shell_timeout"):
        arguments["timeout_ms"] = 5_000  # a hang shows as TIMEOUT, not as a stuck client
    result = answered(lambda: client.call("bash", **arguments), command)
    assert result.error != "TIMEOUT", result.evidence()


@pytest.mark.waits  # a tool may wait a grace period on the pipe the background process holds
@pytest.mark.clause("SHELL-10")
@pytest.mark.parametrize(
    # The shell computes what it prints (`started-42`), so an answer that only quotes the
    # command back (a refusal read as a success) never shows it.
    "command", ["sleep 60 & echo started-$((40+2))",
                "(sleep 60; echo late) & echo started-$((40+2))"]
)
def test_a_background_process_keeping_the_output_open_does_not_hold_the_call(
    ws, client, command
) -> None:
    arguments: dict[str, Any] = {"command": command}
    if client.has("shell_timeout"):
        arguments["timeout_ms"] = 8_000  # waiting on the pipe shows as TIMEOUT, not a stuck client
    result = answered(lambda: client.call("bash", **arguments), command)
    assert result.success, result.evidence()
    assert "started-42" in result.data, result.evidence()


@pytest.mark.clause("SHELL-11")
@pytest.mark.parametrize(("signal_name", "number"), [("KILL", 9), ("TERM", 15), ("HUP", 1)])
def test_a_command_killed_by_a_signal_is_a_failure_naming_it(
    ws, client, signal_name: str, number: int
) -> None:
    command = f"echo before-signal; kill -{signal_name} $$"
    result = answered(lambda: client.call("bash", command=command), "bash")
    # The answer's own words, not its echo of the command (`kill -KILL $$` spells the name).
    said = result.data.replace(command, "")
    named = signal_name in said.upper() or shows_number(said, 128 + number)
    assert named, result.evidence()
    assert "before-signal" in result.data, result.evidence()
    refused(result, "NONZERO_EXIT")


@pytest.mark.clause("SHELL-12")
@pytest.mark.parametrize("exit_code", [0, 3], ids=["success", "failure"])
def test_stdout_and_stderr_both_over_the_limit_share_one_budget(ws, client, exit_code) -> None:
    limits = client.limits_for("bash")
    size = 5 * limits.max_output_chars
    can_produce(lambda command: client.call("bash", command=command), size)

    def flood(start: str, end: str) -> str:
        return f"{{ echo {start}; {FLOOD.format(size=size)}; echo; echo {end}; }}"

    command = (f"{flood('OUT-START', 'OUT-END')}; {flood('ERR-START', 'ERR-END')} 1>&2; "
               f"(exit {exit_code})")  # a kept shell's session survives it (SHELL-02)
    # Whether the failing command is answered as a failure is SHELL-02's: this check judges the
    # budget the two streams share, whatever the envelope says.
    result = answered(lambda: client.call("bash", command=command), "bash")
    bound = limits.max_output_chars + 2 * limits.marker_budget_chars
    assert len(result.data) <= bound, f"{len(result.data)} characters, more than {bound}"
    shown = [mark for mark in ("OUT-START", "OUT-END") if mark in result.data]
    assert shown, f"no stdout is shown: {result.data[:200]!r} … {result.data[-200:]!r}"
    shown = [mark for mark in ("ERR-START", "ERR-END") if mark in result.data]
    assert shown, f"no stderr is shown: {result.data[:200]!r} … {result.data[-200:]!r}"


# How long past its declared default a command given no timeout may run before the call counts as
# unbounded: the kill's own grace (SIGTERM, then SIGKILL) and a busy machine's slack.
DEFAULT_GRACE_S = 10.0
# A declared default longer than this is not waited out: the check would hold a worker for long.
LONGEST_DEFAULT_S = 120.0


@pytest.mark.waits  # the declared default, once: a short one keeps a run fast (the reference's)
@pytest.mark.clause("SHELL-14")
def test_a_command_given_no_timeout_is_stopped_at_the_default(ws, client) -> None:
    default_s = client.limits_for("bash").shell_timeout_ms / 1000
    if default_s > LONGEST_DEFAULT_S:
        not_applicable(f"the declared default timeout, {default_s:g} s, is longer than this "
                       f"check waits ({LONGEST_DEFAULT_S:g} s)")
    bound_s = default_s + DEFAULT_GRACE_S
    command = f"sleep {math.ceil(bound_s) + 60}"  # outlasts the bound, so only a kill ends it
    started = time.monotonic()
    # The run's call timeout may be shorter than the default (its 10 s against the contract's
    # 30 s) or longer: this one call may take the default and its grace, and no longer.
    previous = client.adapter.set_call_timeout(bound_s)
    try:
        result = answered(lambda: client.call("bash", command=command), "a command given no "
                           f"timeout, {bound_s:g} s after it started (declared default "
                           f"{default_s:g} s)")
    finally:
        client.adapter.set_call_timeout(previous)
    took = time.monotonic() - started
    assert took <= bound_s, f"answered after {took:.1f} s, past the default {default_s:g} s"
    refused(result, "TIMEOUT")
