"""Atomic replace: write a temp file beside the target, fsync, rename over it
(@clarvis/agent-tools).

A reader sees the old file or the new one, never half of either; a failure leaves the target as
it was and removes the temp file. The target's permission bits are kept, so an executable stays
executable; a new file gets the usual 0o666 less the umask, as `open()` would give it.
"""

import contextlib
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path


def _read_umask() -> int:
    # os.umask can only be read by setting it; doing it once, at import, keeps threads out of it.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()


def atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replaces `path` with `data`; `mode` defaults to the existing file's, else 0o666 & ~umask."""
    temp = _stage(path, data, mode)
    try:
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
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


@dataclass(frozen=True, slots=True)
class Change:
    """One file of a multi-file change: its new bytes, or None to remove it."""

    path: Path
    data: bytes | None


def replace_all(changes: list[Change]) -> None:
    """Applies every change or none (@clarvis/agent-tools' apply_patch: stage, then commit or
    roll back together).

    Staging writes each new content to a temp file beside its target (creating missing parent
    folders) and keeps the old content of each target under a hard link: nothing a reader sees
    has changed yet. Committing renames each temp file over its target, which a reader sees as
    one atomic replace per file, and moves removed files aside. Any failure puts back every
    target already committed, then removes the temp files, the kept links and the folders that
    staging created.
    """
    staged: list[tuple[Change, Path | None, Path | None]] = []  # change, temp, kept old content
    made_folders: list[Path] = []
    committed: list[tuple[Change, Path | None]] = []
    try:
        for change in changes:
            made_folders += _make_parents(change.path.parent) if change.data is not None else []
            temp = _stage(change.path, change.data) if change.data is not None else None
            staged.append((change, temp, _keep(change.path)))
        for change, temp, kept in staged:
            if temp is not None:
                os.replace(temp, change.path)
            else:
                os.unlink(change.path)
            committed.append((change, kept))
    except BaseException:
        for change, kept in reversed(committed):
            _put_back(change.path, kept)
        for _, temp, kept in staged:
            for leftover in (temp, kept):
                if leftover is not None:
                    leftover.unlink(missing_ok=True)
        for folder in reversed(made_folders):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    for _, _, kept in staged:
        if kept is not None:
            kept.unlink(missing_ok=True)
    for folder in {change.path.parent for change in changes}:
        _fsync_folder(folder)


def _make_parents(folder: Path) -> list[Path]:
    """Creates `folder` and its missing parents; the ones created, outermost first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for created in reversed(missing):
        created.mkdir()
    return list(reversed(missing))


def _stage(path: Path, data: bytes, mode: int | None = None) -> Path:
    """`data` in a synced temp file beside `path`, with `path`'s mode (else 0o666 & ~umask)."""
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
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return Path(temp_name)


def _keep(path: Path) -> Path | None:
    """A hard link to the target's current content, or None when there is no target."""
    if not os.path.lexists(path):
        return None
    kept = path.parent / f".{path.name}.{secrets.token_hex(6)}.old"
    os.link(path, kept, follow_symlinks=False)  # fails rather than replace an existing name
    return kept


def _put_back(path: Path, kept: Path | None) -> None:
    with contextlib.suppress(OSError):
        if kept is not None:
            os.replace(kept, path)
        else:
            path.unlink()
