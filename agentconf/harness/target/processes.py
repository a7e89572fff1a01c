"""Whether a process the implementation started is still alive, for checks that it was stopped."""

import os
import time


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
