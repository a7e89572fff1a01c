"""The reference bash tool, with real subprocesses in a real temp dir (dskcode two-stage kill,
Claude Code shell output, @clarvis/agent-tools self-bounded output)."""

import asyncio
import os
import re
import signal
import subprocess
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from agentconf.contract import DEFAULT_LIMITS, Envelope, Limits, Workspace
from agentconf.reference.context import ToolContext
from agentconf.reference.registry import ToolRegistry
from agentconf.reference.sandbox import process_group
from agentconf.reference.sandbox.paths import real_root
from agentconf.reference.session import Session
from agentconf.reference.tools import bash
from agentconf.reference.tools.bash import MAX_TIMEOUT_MS, BashArgs, share

MARKER = re.compile(r"\[\.\.\. truncated (\d+) chars \.\.\.\]")
# Hang guard only: no assertion is made about how long a call takes.
HANG_GUARD_S = 60


def make_context(root: Path, limits: Limits = DEFAULT_LIMITS, **config: Any) -> ToolContext:
    real = real_root(root)
    return ToolContext(
        workspace=Workspace(root, limits=limits),
        root=real,
        write_roots=(real,),
        limits=limits,
        session=Session(),
        catalogue=ToolRegistry([bash.DECLARATION]),
        **config,
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    return root


@pytest.fixture
def started_pids() -> Iterator[list[int]]:
    """Pids a test's commands report; any survivor is killed so a failing test leaks nothing."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)


def run(root: Path, command: str, timeout_ms: int | None = None, **limits: int) -> Envelope:
    context = make_context(root, DEFAULT_LIMITS.with_overrides(limits))
    call = bash.handler(BashArgs(command=command, timeout_ms=timeout_ms), context)
    return asyncio.run(asyncio.wait_for(call, HANG_GUARD_S))


def gone(pid: int) -> bool:
    """True when `pid` no longer runs (absent, or a zombie waiting for a reaper)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def eventually_gone(pid: int) -> bool:
    # SIGKILL is delivered asynchronously; give the kernel a moment to tear the process down.
    for _ in range(250):
        if gone(pid):
            return True
        time.sleep(0.02)
    return False


def pids_in(text: str) -> list[int]:
    return [int(token) for token in re.findall(r"^PID (\d+)$", text, flags=re.MULTILINE)]


def test_a_command_that_exits_zero_succeeds_with_its_stdout(root: Path) -> None:
    result = run(root, "echo hello; echo world")
    assert result.success
    assert result.error is None
    assert result.data == "hello\nworld\n"
    assert result.exit_code == 0


def test_a_non_zero_exit_is_a_failure_showing_code_stdout_and_stderr(root: Path) -> None:
    result = run(root, "echo partial result; echo it broke >&2; exit 3")
    assert not result.success
    assert result.error == "NONZERO_EXIT"
    assert result.exit_code == 3
    assert "exit code 3" in result.data
    assert "partial result" in result.data
    assert "it broke" in result.data
    assert result.data.index("partial result") < result.data.index("it broke")


def test_a_failure_with_no_output_says_each_stream_was_empty(root: Path) -> None:
    result = run(root, "exit 1")
    assert result.error == "NONZERO_EXIT"
    assert result.data.count("(empty)") == 2


def test_stderr_of_a_successful_command_is_shown(root: Path) -> None:
    result = run(root, "echo out; echo a warning >&2")
    assert result.success
    assert result.data.startswith("out\n")
    assert "a warning" in result.data
    assert "stderr" in result.data


def test_a_command_with_no_output_says_so(root: Path) -> None:
    result = run(root, "true")
    assert result.success
    assert result.data == "(no output)"


def test_commands_run_in_the_root(root: Path) -> None:
    (root / "marker.txt").write_text("here")
    result = run(root, "pwd -P; cat marker.txt")
    assert result.data == f"{os.path.realpath(root)}\nhere"


def test_a_command_reading_stdin_gets_end_of_input_at_once(root: Path) -> None:
    result = run(root, 'cat; read -r line; echo "read status $?"', timeout_ms=20_000)
    assert result.success, result.data
    assert result.data == "read status 1\n"


def test_a_command_killed_by_a_signal_is_a_failure_with_the_shell_exit_code(root: Path) -> None:
    result = run(root, "kill -KILL $$")
    assert result.error == "NONZERO_EXIT"
    assert result.exit_code == 128 + signal.SIGKILL
    assert "SIGKILL" in result.data


def test_timeout_kills_the_grandchild_and_answers_timeout_with_partial_output(
    root: Path, started_pids: list[int]
) -> None:
    command = "bash -c 'sleep 300 & echo PID $!; wait' & echo before timeout; wait"
    result = run(root, command, timeout_ms=1000)
    started_pids.extend(pids_in(result.data))
    assert result.error == "TIMEOUT"
    assert result.exit_code is None
    assert "before timeout" in result.data
    assert len(started_pids) == 1, result.data
    assert eventually_gone(started_pids[0])


def test_a_command_ignoring_sigterm_is_killed_anyway(root: Path, started_pids: list[int]) -> None:
    command = "trap '' TERM; echo PID $$; sleep 300 & echo PID $!; wait; wait; echo survived"
    result = run(root, command, timeout_ms=500)
    started_pids.extend(pids_in(result.data))
    assert result.error == "TIMEOUT"
    assert "survived" not in result.data
    assert len(started_pids) == 2, result.data
    assert all(eventually_gone(pid) for pid in started_pids)


def test_a_background_child_holding_the_pipes_neither_hangs_the_call_nor_outlives_it(
    root: Path, started_pids: list[int]
) -> None:
    result = run(root, "sleep 300 & echo PID $!; echo shell done", timeout_ms=MAX_TIMEOUT_MS)
    started_pids.extend(pids_in(result.data))
    assert result.success, result.data
    assert "shell done" in result.data
    assert len(started_pids) == 1
    assert eventually_gone(started_pids[0])


def test_a_group_left_with_only_zombies_is_done_and_a_running_member_keeps_it_alive() -> None:
    # What an orphaned background child is until a slow init reaps it: here our own child,
    # left unreaped on purpose. The kill grace waits on this answer.
    zombie = subprocess.Popen(["true"], start_new_session=True)
    running = subprocess.Popen(["sleep", "300"], start_new_session=True)
    try:
        for _ in range(HANG_GUARD_S * 50):
            with open(f"/proc/{zombie.pid}/stat", "rb") as stat:
                if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    break
            time.sleep(0.02)
        os.killpg(zombie.pid, 0)  # the system still counts the zombie as the group's member
        assert process_group._group_alive(zombie.pid) is False
        assert process_group._group_alive(running.pid) is True
    finally:
        running.kill()
        running.wait()
        zombie.wait()
    assert process_group._group_alive(zombie.pid) is False  # reaped: no member at all


def test_a_cancelled_call_leaves_no_process_behind(root: Path, started_pids: list[int]) -> None:
    pid_file = root / "pid"

    async def cancel_while_running() -> None:
        context = make_context(root)
        command = "echo $$ > pid.tmp && mv pid.tmp pid; sleep 300"
        task = asyncio.create_task(bash.handler(BashArgs(command=command), context))
        for _ in range(HANG_GUARD_S * 50):
            if pid_file.exists():
                break
            await asyncio.sleep(0.02)
        started_pids.append(int(pid_file.read_text()))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_while_running())
    assert eventually_gone(started_pids[0])


def test_a_hundred_megabytes_of_output_stay_bounded_with_head_and_tail(root: Path) -> None:
    limit = 10_000
    command = "echo FIRST; head -c 100000000 /dev/zero | tr '\\0' x; echo; echo LAST"
    tracemalloc.start()
    try:
        result = run(root, command, max_output_chars=limit)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.success
    assert result.data.startswith("FIRST\nxxx")
    assert result.data.endswith("xxx\nLAST\n")
    found = MARKER.search(result.data)
    assert found is not None
    total = len("FIRST\n") + 100_000_000 + len("\nLAST\n")
    assert int(found.group(1)) == total - limit
    assert len(result.data) <= limit + DEFAULT_LIMITS.marker_budget_chars
    assert peak < 20_000_000, peak  # the 100 MB never sat in memory


def test_both_streams_of_a_failure_share_the_bound_and_keep_their_tails(root: Path) -> None:
    limit = 2_000
    command = (
        "for i in $(seq 5000); do echo out$i; echo err$i >&2; done; echo OUT-END; "
        "echo ERR-END >&2; exit 2"
    )
    result = run(root, command, max_output_chars=limit)
    assert result.error == "NONZERO_EXIT"
    assert len(result.data) <= limit + DEFAULT_LIMITS.marker_budget_chars
    assert "out1\n" in result.data and "OUT-END" in result.data
    assert "err1\n" in result.data and "ERR-END" in result.data
    assert len(MARKER.findall(result.data)) == 2


def test_cut_multibyte_output_has_no_replacement_characters(root: Path) -> None:
    result = run(root, "for i in $(seq 3000); do printf '€😀é'; done", max_output_chars=101)
    assert result.success
    assert "\ufffd" not in result.data
    assert MARKER.search(result.data)


def test_output_within_the_limit_is_whole_and_unmarked(root: Path) -> None:
    result = run(root, "printf '%0100d' 0", max_output_chars=100)
    assert result.data == "0" * 100


@pytest.mark.parametrize("timeout_ms", [0, -5, MAX_TIMEOUT_MS + 1])
def test_a_timeout_out_of_range_is_invalid(timeout_ms: int) -> None:
    with pytest.raises(ValidationError) as raised:
        BashArgs(command="true", timeout_ms=timeout_ms)
    assert raised.value.errors()[0]["loc"] == ("timeout_ms",)


def test_an_empty_command_or_unknown_field_is_invalid() -> None:
    with pytest.raises(ValidationError):
        BashArgs(command="")
    with pytest.raises(ValidationError):
        BashArgs.model_validate({"command": "true", "cwd": "/"})


def test_the_spec_says_bash_bounds_its_own_output() -> None:
    assert bash.DECLARATION.bounds_own_output
    assert bash.DECLARATION.name == "bash"
    schema = bash.DECLARATION.input_schema
    assert schema["required"] == ["command"]


@pytest.mark.parametrize(
    ("budget", "first", "second", "expected"),
    [
        (100, 30, 40, (30, 40)),  # both fit
        (100, 10, 500, (10, 90)),  # a small first leaves the rest to the second
        (100, 500, 10, (90, 10)),
        (100, 500, 500, (50, 50)),
        (-3, 5, 5, (0, 0)),
    ],
)
def test_two_outputs_share_one_budget(
    budget: int, first: int, second: int, expected: tuple[int, int]
) -> None:
    assert share(budget, first, second) == expected


def test_a_long_failing_output_keeps_its_tail_through_dispatch(root: Path) -> None:
    """The dispatcher bounds a command's failure output by max_output_chars, not the message
    budget: the last lines, where the error usually is, survive."""
    from agentconf.reference import create

    system = create(Workspace(root=root))
    script = "for i in $(seq 1 3000); do echo line-$i; done; echo the-real-error >&2; exit 3"
    answer = asyncio.run(system.call_tool("bash", {"command": script}))
    assert answer["error"] == "NONZERO_EXIT"
    assert "the-real-error" in answer["data"] and "line-3000" in answer["data"]
    assert len(answer["data"]) > DEFAULT_LIMITS.message_budget_chars
