"""Where `agentconf run` puts its sandboxes: a memory-backed folder when the machine has one.

A run builds about a thousand sandboxes (ten folders and eight canary files each), the
implementation under test writes and fsyncs inside them, and every passing one is removed. On a
journalled disk mounted with `discard` each folder removal waits for the device (about 2 ms
here) and each fsync for a flush: a third of a run's wall time went there. On tmpfs the same
work costs microseconds and behaves the same for everything the suites judge (links, FIFOs,
modes, rename, name and path length limits).

The choice is the user's first: TMPDIR set means "put temporary files there" (the robustness
tests rely on it), and PYTEST_DEBUG_TEMPROOT, pytest's own knob for this, is kept as given.
Otherwise /dev/shm is used when it is a writable tmpfs with room to spare; a small one (a
container's 64 MB default) could fill up and turn a pass into a failure, so it is not used.
"""

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

import _pytest.pathlib

# pytest puts its numbered temporary folders (and so our sandboxes) under this.
TEMPROOT_VARIABLE = "PYTEST_DEBUG_TEMPROOT"
MEMORY_FOLDER = "/dev/shm"
MOUNTS = "/proc/mounts"
# Room a run may need: the largest suite fixtures are tens of MB; failures' sandboxes are kept.
MIN_FREE_BYTES = 1024 * 1024 * 1024


def memory_temproot(environ: Mapping[str, str], folder: str = MEMORY_FOLDER,
                    min_free: int = MIN_FREE_BYTES, mounts: str = MOUNTS) -> str | None:
    """The folder to give pytest as its temporary root, or None to leave its default."""
    if environ.get("TMPDIR") or environ.get(TEMPROOT_VARIABLE):
        return None
    if not _is_tmpfs(folder, mounts) or not os.access(folder, os.W_OK | os.X_OK):
        return None
    try:
        usage = os.statvfs(folder)
    except OSError:
        return None
    return folder if usage.f_bavail * usage.f_frsize >= min_free else None


def _is_tmpfs(folder: str, mounts: str) -> bool:
    """From /proc/mounts (Linux); anywhere else there is no such folder to find."""
    try:
        with open(mounts, encoding="utf-8") as table:
            return any(fields[1] == folder and fields[2] == "tmpfs"
                       for fields in (line.split() for line in table) if len(fields) > 2)
    except OSError:
        return False


def tolerate_shared_temproot() -> None:
    """Two runs that share pytest's temporary root (the matrix runs two peers at once) both
    remove its dead `pytest-current` link when they end; the second one's unlink raised
    FileNotFoundError in pytest's own clean-up (pytest 9.2), after the last check but before
    the run_end event, so a run whose every check was done came out red. A link already gone
    is what the clean-up wanted."""
    def cleanup_dead_symlinks(root: Path) -> None:
        for left in root.iterdir():
            if left.is_symlink() and not left.resolve().exists():
                with contextlib.suppress(FileNotFoundError):
                    left.unlink()

    if hasattr(_pytest.pathlib, "cleanup_dead_symlinks"):  # where a later pytest still has it
        _pytest.pathlib.cleanup_dead_symlinks = cleanup_dead_symlinks
