"""Whether a process the implementation started is still alive, for checks that it was stopped."""

import os
import signal
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """True while `pid` runs; a zombie is dead for our purpose (it runs and holds nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as status:
            return status.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def wait_gone(pids: list[int], within_s: float) -> list[int]:
    """Waits up to `within_s` (a bound that only catches a survivor) for every pid to end;
    returns the ones still alive."""
    deadline = time.monotonic() + within_s
    while True:
        living = [pid for pid in pids if alive(pid)]
        if not living or time.monotonic() >= deadline:
            return living
        time.sleep(0.05)


def stop_left(pids: list[int], under: Path) -> list[int]:
    """Kills (SIGKILL) each of `pids` still alive whose working folder is under `under`: the
    processes a check's scenario started, which a departing implementation left running (one
    ignoring SIGTERM outlives its timeout for good). The folder test keeps a pid the system has
    since given to another process safe. Returns the pids killed."""
    killed = []
    for pid in pids:
        if not alive(pid):
            continue
        try:
            folder = os.readlink(f"/proc/{pid}/cwd").removesuffix(" (deleted)")
        except OSError:
            continue
        if not Path(folder).is_relative_to(under):
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
        killed.append(pid)
    return killed
