"""bash{command, timeout_ms?}: run a shell command in the root, bounded while it streams.

- `/bin/bash -c COMMAND` in a new session, so the command and everything it starts form one
  process group that can be signalled at once (dskcode: a timeout that kills only the shell
  leaves `npm install`'s grandchildren running).
- cwd is the root; stdin is /dev/null, so `read` or a bare `cat` gets end of input at once.
- stdout and stderr stream into `StreamBound`s: memory stays bounded while a command prints
  100 MB, and the head and tail survive (@clarvis/agent-tools bounds output itself; DECLARATION
  says so to dispatch).
- On timeout: SIGTERM to the group, SIGKILL after KILL_GRACE_S (dskcode's two-stage kill; the
  seed waits 5 s). Half a second is ample for a SIGTERM handler that tidies up (removes a lock
  or a temp file); a command that needs longer is ignoring the signal, and the agent waiting on
  it gets nothing from the wait. Answer TIMEOUT with the partial output.
- When the shell exits, background children may still hold the pipes. They get DRAIN_GRACE_S to
  finish writing, then the whole group is killed (SHELL-10): **no process started by a call
  outlives it**. A command that must keep running has to leave the group (`setsid`) on purpose.
- A non-zero exit is a failure, NONZERO_EXIT, with the exit code, stdout and stderr in `data` and
  the code in `exit_code` (Claude Code shows both streams on failure); stderr is shown on success
  too, and a command with no output says so (Claude Code's "(no output)").
"""

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..declare import Arguments, Declaration
from ..results import fail, ok
from ..sandbox.bounding import StreamBound, pump

if TYPE_CHECKING:
    from ..context import ToolContext

SHELL = "/bin/bash"
MAX_TIMEOUT_MS = 600_000
KILL_GRACE_S = 0.5
DRAIN_GRACE_S = 0.5
POLL_S = 0.02
NO_OUTPUT = "(no output)"


class BashArgs(Arguments):
    command: str = Field(min_length=1, description="The command line, run by /bin/bash -c.")
    timeout_ms: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TIMEOUT_MS,
        description="Milliseconds before the command and all it started are stopped.",
    )


@dataclass
class Run:
    stdout: StreamBound
    stderr: StreamBound
    returncode: int | None  # None when the call timed out
    timed_out: bool


async def handler(args: BashArgs, ctx: "ToolContext") -> Envelope:
    timeout_ms = args.timeout_ms or ctx.limits.shell_timeout_ms
    limit = ctx.limits.max_output_chars
    run = await run_command(args.command, ctx.root, timeout_ms / 1000, limit)
    return answer(run, timeout_ms, limit)


async def run_command(command: str, cwd: Path, timeout_s: float, capacity: int) -> Run:
    """Runs `command` in its own process group; nothing of the group is left when this returns."""
    spawn = asyncio.ensure_future(asyncio.create_subprocess_exec(
        SHELL,
        "-c",
        command,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    ))
    try:
        process = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        # Cancelled while the pipes were being set up, the command may already run (on a loaded
        # machine it can start children first): asyncio would kill the shell alone, so its
        # group goes here (CANCEL-01).
        with contextlib.suppress(Exception):
            _signal_group((await spawn).pid, signal.SIGKILL)
        raise
    group = process.pid  # the session leader's pid is the group id
    assert process.stdout is not None and process.stderr is not None
    stdout, stderr = StreamBound(capacity), StreamBound(capacity)
    pumps = asyncio.gather(pump(process.stdout, stdout), pump(process.stderr, stderr))
    pumps.add_done_callback(_retrieve)
    timed_out = False
    try:
        if await _exited_within(process, timeout_s):
            # The shell is done; its background children get a moment to finish writing.
            await _settle(pumps, DRAIN_GRACE_S)
        else:
            timed_out = True
            await _stop_group(group)
        _signal_group(group, signal.SIGKILL)
        # With the group dead the pipes close; only a process that left the group keeps them.
        await _settle(pumps, DRAIN_GRACE_S)
    finally:
        _signal_group(group, signal.SIGKILL)  # also when the call itself is cancelled
        pumps.cancel()
        # Not process.wait(): it waits for the pipes too, which an escaped process may hold.
        await _exited_within(process, KILL_GRACE_S)
    return Run(stdout, stderr, None if timed_out else process.returncode, timed_out)


def _retrieve(pumps: "asyncio.Future[tuple[None, None]]") -> None:
    # Pumps cut off by the finally below end in CancelledError; reading it keeps asyncio quiet.
    if not pumps.cancelled():
        pumps.exception()


async def _exited_within(process: asyncio.subprocess.Process, timeout_s: float) -> bool:
    # Process.wait() also waits for the pipes to close, which background children can hold open
    # for ever; returncode is set as soon as the shell itself exits.
    deadline = asyncio.get_running_loop().time() + timeout_s
    while process.returncode is None:
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            return False
        await asyncio.sleep(min(POLL_S, remaining))
    return True


async def _settle(pumps: "asyncio.Future[tuple[None, None]]", timeout_s: float) -> None:
    """Waits up to `timeout_s` for the pipes to reach end of input, without cancelling the pumps."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(pumps), timeout_s)


async def _stop_group(group: int) -> None:
    """SIGTERM for a clean exit, SIGKILL for whatever is still there after the grace period."""
    _signal_group(group, signal.SIGTERM)
    deadline = asyncio.get_running_loop().time() + KILL_GRACE_S
    while _group_alive(group) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(POLL_S)
    _signal_group(group, signal.SIGKILL)


def _signal_group(group: int, signum: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group is already empty
        os.killpg(group, signum)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    # A killed background child is handed to init, and stays a zombie member of the group until
    # init reaps it: about once a second on some VMs, never under a container's plain PID 1. A
    # zombie runs nothing and holds no pipe, so a group of zombies is done; without this every
    # timed-out command with a background child waited the whole kill grace.
    return _member_running(group)


def _member_running(group: int) -> bool:
    """False when /proc shows members of `group` and every one a zombie; True otherwise (no
    /proc, or none of them visible: that errs on the side of waiting)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return True
    seen = False
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
                state, _ppid, pgrp = stat.read().rsplit(b")", 1)[1].split()[:3]
        except (OSError, ValueError):  # gone meanwhile, or not readable
            continue
        if int(pgrp) == group:
            if state != b"Z":
                return True
            seen = True
    return not seen


# ---------------------------------------------------------------- the answer


def answer(run: Run, timeout_ms: int, limit: int) -> Envelope:
    if run.timed_out:
        head = (
            f"Command timed out after {timeout_ms} ms and was stopped with everything it started "
            "(SIGTERM, then SIGKILL). Run a shorter command, or give a larger timeout_ms. "
            "Partial output follows."
        )
        return fail("TIMEOUT", _sections(head, run, limit, "partial "))
    code = run.returncode
    assert code is not None
    if code == 0:
        return ok(_success_text(run, limit), exit_code=0)
    if code < 0:  # killed by a signal: report it the way a shell would ($? = 128 + n)
        code = 128 - code
        head = f"Command was killed by signal {signal.Signals(code - 128).name} (exit code {code})."
    else:
        head = f"Command failed with exit code {code}."
    return fail("NONZERO_EXIT", _sections(head, run, limit, ""), exit_code=code)


def _success_text(run: Run, limit: int) -> str:
    if not run.stderr.total_chars:
        return run.stdout.render(limit) if run.stdout.total_chars else NO_OUTPUT
    label = "--- stderr ---\n"
    out_budget, err_budget = share(
        limit - len(label), run.stdout.total_chars, run.stderr.total_chars
    )
    stdout = run.stdout.render(out_budget)
    separator = "" if not stdout or stdout.endswith("\n") else "\n"
    return stdout + separator + label + run.stderr.render(err_budget)


def _sections(head: str, run: Run, limit: int, qualifier: str) -> str:
    out_label = f"\n--- {qualifier}stdout ---\n"
    err_label = f"\n--- {qualifier}stderr ---\n"
    budget = max(0, limit - len(head) - len(out_label) - len(err_label))
    out_budget, err_budget = share(budget, run.stdout.total_chars, run.stderr.total_chars)
    stdout = run.stdout.render(out_budget) if run.stdout.total_chars else "(empty)"
    stderr = run.stderr.render(err_budget) if run.stderr.total_chars else "(empty)"
    return head + out_label + stdout.rstrip("\n") + err_label + stderr.rstrip("\n")


def share(budget: int, first: int, second: int) -> tuple[int, int]:
    """Splits `budget` characters between two outputs: each its size or half, spare goes over."""
    budget = max(0, budget)
    if first + second <= budget:
        return first, second
    half = budget // 2
    if first <= half:
        return first, budget - first
    if second <= budget - half:
        return budget - second, second
    return half, budget - half


DECLARATION = Declaration(
    name="bash",
    description=(
        "Run a command with /bin/bash -c in the workspace root, stdin empty. Answers stdout, then "
        "stderr if any. A non-zero exit fails with NONZERO_EXIT and shows the exit code and both "
        "streams. timeout_ms (default 30000) stops the command and every process it started; "
        "nothing it starts keeps running after the call. Long output keeps its head and tail."
    ),
    kind=ToolKind.OTHER,
    handler=handler,
    args_model=BashArgs,
    bounds_own_output=True,
    destructive=True,
    idempotent=False,
    # A command may reach the network and other processes, beyond the workspace.
    open_world=True,
)
