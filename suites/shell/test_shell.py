"""SHELL: exit codes, both streams, the root as cwd, timeouts that kill the whole process tree,
a default timeout for a command given none (dskcode: process group, two-stage kill, 30 s; Claude
Code: failure output, "(no output)"; @clarvis/agent-tools: bounded output).

Time bounds here only detect hangs; they are generous on purpose (the machine may be busy).
"""

import math
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from _checks import refused, shows_number

from agentconf.harness.target.processes import alive
from agentconf.harness.verdicts.errors import ImplementationFailure, not_applicable

# Seconds a test waits for a killed process to disappear: long enough for a loaded machine.
GONE_WITHIN_S = 15.0
# Seconds a check watches the disk for a process that should be gone but appends every 0.1 s.
SURVIVOR_WATCH_S = 0.5


def _answered(call: Callable[[], Any], what: str) -> Any:
    """A hang (ended by the client's call timeout) is the failure these clauses are about."""
    try:
        return call()
    except ImplementationFailure as failure:
        pytest.fail(f"{what} did not answer: {failure}")


def _wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + GONE_WITHIN_S
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


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
    result = client.call(
        "bash", command=f"echo out-text; echo err-text >&2; (exit {code})"
    )
    refused(result, "NONZERO_EXIT")
    assert shows_number(result.data, code), result.evidence()
    assert "out-text" in result.data and "err-text" in result.data, result.evidence()


@pytest.mark.clause("SHELL-02")
def test_a_missing_command_is_a_non_zero_exit_with_its_message(ws, client) -> None:
    result = client.call("bash", command="agentconf-no-such-command-xyz")
    refused(result, "NONZERO_EXIT")
    assert shows_number(result.data, 127), result.evidence()
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
    # The grandchild records its pid, then appends a line to a log every 0.1 s; if nothing kills
    # it, it ends by itself after 4 s (3 s past the timeout), saying so in the log, so that a
    # tool that kills nothing fails here in seconds. `sh -c` and `$$`, not `$BASHPID`: the tool's
    # shell may be dash (`sh -c`), and the check must mean the same there.
    command = ("sh -c 'echo $$ > grandchild.pid; i=0; while [ $i -lt 40 ]; do echo >> alive.log;"
               " sleep 0.1; i=$((i+1)); done; echo outlived >> alive.log' & sleep 60")
    result = _answered(lambda: client.call("bash", command=command, timeout_ms=1000), "bash")
    pid = _started(ws, "grandchild.pid", result)
    assert _wait_gone(pid), f"grandchild {pid} still runs after the timeout"
    # Judged on the disk too, not only by a pid, which another pid namespace could show as gone:
    # a survivor appends about five lines while this watches.
    logged = ws.read_bytes("alive.log") if ws.exists("alive.log") else b""
    time.sleep(SURVIVOR_WATCH_S)
    now = ws.read_bytes("alive.log") if ws.exists("alive.log") else b""
    assert b"outlived" not in now, "the grandchild lived on 3 s after the timeout, to its end"
    assert now == logged, f"the grandchild still writes after the timeout ({len(now)} bytes)"
    refused(result, "TIMEOUT")  # the kill first, then what the answer says of it


@pytest.mark.waits
@pytest.mark.clause("SHELL-04")
def test_a_timeout_answers_timeout_with_the_output_so_far(ws, client) -> None:
    result = _answered(
        lambda: client.call("bash", command="echo before-timeout; sleep 60", timeout_ms=500),
        "bash",
    )
    refused(result, "TIMEOUT")


@pytest.mark.clause("SHELL-05")
@pytest.mark.parametrize("command", ["true", ":", "printf ''", "echo hidden > /dev/null"])
def test_a_command_with_no_output_says_so(ws, client, command: str) -> None:
    result = client.call("bash", command=command)
    assert result.success, result.evidence()
    assert result.data.strip(), result.evidence()


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
    result = _answered(lambda: client.call("bash", command=command, timeout_ms=1000), "bash")
    refused(result, "TIMEOUT")
    pid = _started(ws, "shell.pid", result)
    assert _wait_gone(pid), f"the shell {pid} ignoring SIGTERM still runs"


@pytest.mark.waits
@pytest.mark.clause("SHELL-07")
def test_a_grandchild_that_ignores_sigterm_is_still_killed(ws, client) -> None:
    # `sh -c` and `$$` (not bash's $BASHPID): the grandchild's own pid under any POSIX shell.
    command = ("sh -c 'trap \"\" TERM; echo $$ > stubborn.pid; while true; do sleep 0.2; done' & "
               "sleep 60")
    result = _answered(lambda: client.call("bash", command=command, timeout_ms=1000), "bash")
    refused(result, "TIMEOUT")
    pid = _started(ws, "stubborn.pid", result)
    assert _wait_gone(pid), f"the grandchild {pid} ignoring SIGTERM still runs"


@pytest.mark.clause("SHELL-08")
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_far_more_output_than_the_limit_is_bounded_with_the_tail_kept(ws, client, stream) -> None:
    size = 40 * client.limits_for("bash").max_output_chars
    _can_produce(client, size)
    redirect = "" if stream == "stdout" else " 1>&2"
    command = f"{{ {_FLOOD.format(size=size)}; echo; echo TAIL-END; }}{redirect}"
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
    result = _answered(lambda: client.call("bash", **arguments), command)
    assert result.error != "TIMEOUT", result.evidence()


@pytest.mark.waits  # a tool may wait a grace period on the pipe the background process holds
@pytest.mark.clause("SHELL-10")
@pytest.mark.parametrize(
    "command", ["sleep 60 & echo started", "(sleep 60; echo late) & echo started"]
)
def test_a_background_process_keeping_the_output_open_does_not_hold_the_call(
    ws, client, command
) -> None:
    arguments: dict[str, Any] = {"command": command}
    if client.has("shell_timeout"):
        arguments["timeout_ms"] = 8_000  # waiting on the pipe shows as TIMEOUT, not a stuck client
    result = _answered(lambda: client.call("bash", **arguments), command)
    assert result.success, result.evidence()
    assert "started" in result.data, result.evidence()


@pytest.mark.clause("SHELL-11")
@pytest.mark.parametrize(("signal_name", "number"), [("KILL", 9), ("TERM", 15), ("HUP", 1)])
def test_a_command_killed_by_a_signal_is_a_failure_naming_it(
    ws, client, signal_name: str, number: int
) -> None:
    command = f"echo before-signal; kill -{signal_name} $$"
    result = _answered(lambda: client.call("bash", command=command), "bash")
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
    _can_produce(client, size)

    def flood(start: str, end: str) -> str:
        return f"{{ echo {start}; {_FLOOD.format(size=size)}; echo; echo {end}; }}"

    command = (f"{flood('OUT-START', 'OUT-END')}; {flood('ERR-START', 'ERR-END')} 1>&2; "
               f"(exit {exit_code})")  # a kept shell's session survives it (SHELL-02)
    result = _answered(lambda: client.call("bash", command=command), "bash")
    assert result.success is (exit_code == 0), result.evidence()
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
        result = _answered(lambda: client.call("bash", command=command), "a command given no "
                           f"timeout, {bound_s:g} s after it started (declared default "
                           f"{default_s:g} s)")
    finally:
        client.adapter.set_call_timeout(previous)
    took = time.monotonic() - started
    assert took <= bound_s, f"answered after {took:.1f} s, past the default {default_s:g} s"
    refused(result, "TIMEOUT")


# A stream of `size` characters, as the bounding checks flood a shell with.
_FLOOD = "head -c {size} /dev/zero | tr '\\0' 'x'"


def _can_produce(client: Any, size: int) -> None:
    """The check's own scenario, confirmed before it may pass or fail: the shell can make the
    flood it will be judged on (an emulated shell may have no /dev/zero, or cap its programs).
    A flood that cannot be made is n/a, never a pass that tested nothing."""
    counted = client.call("bash", command=f"{_FLOOD.format(size=size)} | wc -c")
    made = [int(number) for number in re.findall(r"\d+", counted.data)]
    if not counted.success or size not in made:
        not_applicable(f"the shell did not make the {size} characters this check floods it "
                       f"with (`... | wc -c` answered {counted.data.strip()[:100]!r})")


def _started(ws: Any, pidfile: str, result: Any) -> int:
    """The pid the check's command wrote as it started; n/a when it never ran (no `sh`, a
    refused program): what the check would judge did not happen."""
    if not ws.exists(pidfile):
        not_applicable(f"the command that starts the process to judge never ran (no {pidfile}):"
                       f" {result.data.strip()[:120]!r}")
    return int(ws.read_bytes(pidfile).decode().strip())
