"""A program in its own process group, its output bounded while it streams: what bash and exec
share.

- A new session, so the program and everything it starts form one process group that can be
  signalled at once (dskcode: a timeout that kills only the shell leaves `npm install`'s
  grandchildren running). cwd is the root; stdin is /dev/null, so a program that reads it gets
  end of input at once.
- stdout and stderr stream into `StreamBound`s: memory stays bounded while a program prints
  100 MB, and the head and tail survive (@clarvis/agent-tools).
- On timeout: SIGTERM to the group, SIGKILL after KILL_GRACE_S (dskcode's two-stage kill; the
  seed waits 5 s). Half a second is ample for a SIGTERM handler that tidies up (removes a lock
  or a temp file); a program that needs longer is ignoring the signal, and the agent waiting on
  it gets nothing from the wait.
- When the program exits, background children may still hold the pipes. They get DRAIN_GRACE_S
  to finish writing, then the whole group is killed (SHELL-10): **no process started by a call
  outlives it**. One that must keep running has to leave the group (`setsid`) on purpose.
"""

import asyncio
import contextlib
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .bounding import StreamBound, pump

KILL_GRACE_S = 0.5
DRAIN_GRACE_S = 0.5
POLL_S = 0.02


@dataclass
class Run:
    stdout: StreamBound
    stderr: StreamBound
    returncode: int | None  # None when the call timed out
    timed_out: bool


async def run_process(argv: Sequence[str], cwd: Path, timeout_s: float, capacity: int) -> Run:
    """Runs `argv` in its own process group; nothing of the group is left when this returns.

    A program that cannot be started raises as `create_subprocess_exec` does (FileNotFoundError,
    PermissionError) before anything runs: what that means is the calling tool's to say."""
    spawn = asyncio.ensure_future(asyncio.create_subprocess_exec(
        *argv,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    ))
    try:
        process = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        # Cancelled while the pipes were being set up, the program may already run (on a loaded
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
