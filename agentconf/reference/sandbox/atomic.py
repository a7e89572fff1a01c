"""Atomic replace: write a temp file beside the target, fsync, rename over it
(@clarvis/agent-tools).

A reader sees the old file or the new one, never half of either; a failure leaves the target as
it was and removes the temp file. The target's permission bits are kept, so an executable stays
executable; a new file gets the usual 0o666 less the umask, as `open()` would give it.
"""

import os
import tempfile
from pathlib import Path


def _read_umask() -> int:
    # os.umask can only be read by setting it; doing it once, at import, keeps threads out of it.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()


def atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replaces `path` with `data`; `mode` defaults to the existing file's, else 0o666 & ~umask."""
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
    descriptor, temp_name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(descriptor, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fchmod(temp.fileno(), mode)
            os.fsync(temp.fileno())
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Makes the rename itself durable; some file systems cannot, and that is not an error."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
