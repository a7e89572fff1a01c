"""Canaries outside the sandbox, where real allow-lists point: the system's temporary folders.

Real implementations let through more than their command line says: one server allows HOME,
`/tmp` and `/home` whatever `--allow` names. The sandbox's canaries all live beside the root (on
`/dev/shm` when `agentconf run` finds one), so "reads anything under /tmp" stayed invisible. Each
workspace therefore also gets a canary folder of its own, with a unique name, in each system
temporary folder the kit may create things in without touching anything of the user's: the real
`/tmp` (whatever TMPDIR says: the runner points TMPDIR at a scratch folder, and
`tempfile.gettempdir()` follows it) and `/var/tmp`, when they exist and are writable.

The folders are removed when the workspace is (`SandboxWorkspace.close_outer`), at the latest
when the process exits (atexit: Ctrl-C included), and `agentconf run` sweeps whatever its
killed workers left (`sweep`): their names carry the run's marker.
"""

import atexit
import contextlib
import os
import shutil
import tempfile
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
    return f"{PREFIX}{marker or 'solo'}-"


def make(secret: str) -> tuple[Path, ...]:
    """A fresh canary folder in each place, holding `secret` (removed at exit at the latest)."""
    if not _LIVE:
        atexit.register(remove_all)
    made = []
    for place in places():
        try:
            folder = Path(tempfile.mkdtemp(prefix=_prefix(os.environ.get(RUN_VARIABLE)),
                                           dir=place))
        except OSError:
            continue  # a place that refuses is simply not judged
        _LIVE.add(folder)
        (folder / "secret.txt").write_text(f"system tmp secret {secret}\n")
        (folder / "notes.md").write_text(f"# notes\n{secret}\n")
        made.append(folder)
    return tuple(made)


def remove(folders: tuple[Path, ...]) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
        _LIVE.discard(folder)


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
