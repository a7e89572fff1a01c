"""Canaries outside the sandbox, where real allow-lists point: the system's temporary folders.

Real implementations let through more than their command line says: one server allows HOME,
`/tmp` and `/home` whatever `--allow` names. The sandbox's canaries all live beside the root (on
`/dev/shm` when `agentconf run` finds one), so "reads anything under /tmp" stayed invisible. Each
workspace therefore also gets a canary folder of its own, with a unique name, in each system
temporary folder the kit may create things in without touching anything of the user's: the real
`/tmp` (whatever TMPDIR says: the runner points TMPDIR at a scratch folder, and
`tempfile.gettempdir()` follows it) and `/var/tmp`, when they exist and are writable.

A closed workspace hands its folders back (`release`) and the next workspace of the process
refills them with its own secret, in place: on ext4 a fresh folder per check (mkdir, two files,
rmtree, in each place) cost about 0.7 ms of a check's CPU, overwriting the two files 0.03 ms. A
folder is refilled only when it is exactly as it was made (a folder of mode 700, the two regular
files, one link each, their sizes and modes); anything a check did to it, and it is removed and
made again. The folders are removed when the process exits (atexit: Ctrl-C included), and
`agentconf run` sweeps whatever its killed workers left (`sweep`): their names carry the run's
marker.
"""

import atexit
import contextlib
import os
import re
import shutil
import stat
import tempfile
import threading
from pathlib import Path

from agentconf.harness.target.adapters.base import RUN_VARIABLE

PLACES = ("/tmp", "/var/tmp")
PREFIX = "agentconf-canary-"
_LIVE: set[Path] = set()


def places() -> list[Path]:
    """The system temporary folders present and writable here, as real paths."""
    found = []
    for place in PLACES:
        real = Path(os.path.realpath(place))
        if real.is_dir() and os.access(real, os.W_OK | os.X_OK) and real not in found:
            found.append(real)
    return found


def _prefix(marker: str | None) -> str:
    """A run's folders carry its marker; a process outside a run (`init --from`, a test's own
    workspace) puts its pid in their names, so the next one can tell they are orphans."""
    return f"{PREFIX}{marker or f'{_SOLO}{os.getpid()}'}-"


_SOLO = "solo"


def contents(secret: str) -> dict[str, bytes]:
    return {"secret.txt": f"system tmp secret {secret}\n".encode(),
            "notes.md": f"# notes\n{secret}\n".encode()}


_FREE: list[Path] = []  # released by closed workspaces, refilled by the next one
_TAKING = threading.Lock()
_MODES: dict[Path, dict[str, int]] = {}  # each folder's files' modes as they were made


def make(secret: str) -> tuple[Path, ...]:
    """A canary folder in each place holding `secret`: a released one refilled, else a new one
    (removed at exit at the latest)."""
    if not _LIVE:
        atexit.register(remove_all)
    files = contents(secret)
    made = []
    for place in places():
        folder = _reuse(place, files) or _fresh(place, files)
        if folder is not None:
            made.append(folder)
    return tuple(made)


def _fresh(place: Path, contents: dict[str, bytes]) -> Path | None:
    _sweep_orphans(place)
    try:
        folder = Path(tempfile.mkdtemp(prefix=_prefix(os.environ.get(RUN_VARIABLE)),
                                       dir=place))
    except OSError:
        return None  # a place that refuses is simply not judged
    _LIVE.add(folder)
    for name, data in contents.items():
        (folder / name).write_bytes(data)
    _MODES[folder] = {name: stat.S_IMODE(os.lstat(folder / name).st_mode) for name in contents}
    return folder


def _reuse(place: Path, contents: dict[str, bytes]) -> Path | None:
    prefix = _prefix(os.environ.get(RUN_VARIABLE))  # a run's sweep finds it by its marker
    while True:
        with _TAKING:  # workspaces made in several threads (the public testkit) take one each
            folder = next((f for f in _FREE if f.parent == place and f.name.startswith(prefix)),
                          None)
            if folder is None:
                return None
            _FREE.remove(folder)
        if _refill(folder, contents):
            return folder
        remove((folder,))  # a check changed it: never handed on


def _refill(folder: Path, contents: dict[str, bytes]) -> bool:
    """Overwrites the files in place when the folder is exactly as `_fresh` made it."""
    try:
        info = os.lstat(folder)
        if (not stat.S_ISDIR(info.st_mode) or stat.S_IMODE(info.st_mode) != 0o700
                or sorted(os.listdir(folder)) != sorted(contents)):
            return False
        for name, data in contents.items():
            # No link followed, no FIFO waited on; checked on the open file itself, so nothing
            # swapped in after a look is written through (a hard link would write elsewhere).
            descriptor = os.open(folder / name, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                                 | os.O_CLOEXEC)
            try:
                opened = os.fstat(descriptor)
                if (not stat.S_ISREG(opened.st_mode) or opened.st_nlink != 1
                        or opened.st_size != len(data)
                        or stat.S_IMODE(opened.st_mode) != _MODES.get(folder, {}).get(name)):
                    return False
                if os.pwrite(descriptor, data, 0) != len(data):
                    return False
            finally:
                os.close(descriptor)
    except OSError:
        return False
    return True


def release(folders: tuple[Path, ...]) -> None:
    """A closed workspace's folders, for the next workspace of this process to refill."""
    with _TAKING:
        _FREE.extend(folder for folder in folders if folder in _LIVE and folder not in _FREE)


def remove(folders: tuple[Path, ...]) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
        _LIVE.discard(folder)
        _MODES.pop(folder, None)
        with _TAKING:
            if folder in _FREE:
                _FREE.remove(folder)


def remove_all() -> None:
    remove(tuple(_LIVE))


def sweep(marker: str) -> None:
    """Removes every canary folder a run with this marker left (a worker killed mid-test)."""
    for place in places():
        doomed: list[Path] = []
        with contextlib.suppress(OSError), os.scandir(place) as entries:
            doomed = [Path(e.path) for e in entries
                      if e.name.startswith(_prefix(marker)) and e.is_dir(follow_symlinks=False)]
        for folder in doomed:
            shutil.rmtree(folder, ignore_errors=True)


def _sweep_orphans(place: Path) -> None:
    """Removes the folders a process outside a run left when it was killed before its atexit
    (no marker for a run's sweep to find them by): those whose pid is no longer running."""
    solo = re.compile(re.escape(PREFIX + _SOLO) + r"(\d+)-")
    orphans: list[Path] = []
    with contextlib.suppress(OSError), os.scandir(place) as entries:
        orphans = [Path(e.path) for e in entries if (named := solo.match(e.name))
                   and not _running(int(named.group(1))) and e.is_dir(follow_symlinks=False)]
    for folder in orphans:
        shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: running
        return True
    return True
