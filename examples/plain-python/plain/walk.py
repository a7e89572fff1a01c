"""A sorted walk below an open folder that never enters a symbolic link."""

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from .jail import DIRECTORY_FLAGS

MAX_ENTRIES = 200_000  # a walk stops here, however large the tree


@dataclass(frozen=True, slots=True)
class Entry:
    relative: str  # from the walked folder, `/`-separated
    kind: str  # "file", "folder", "link" or "other"
    folder_fd: int  # valid only while the walk is at this entry
    name: str


def walk(top: int) -> Iterator[Entry]:
    """Every entry below the folder `top` (not closed here), folders before their contents."""
    yield from _below(top, "", [0])


def _below(folder: int, prefix: str, counted: list[int]) -> Iterator[Entry]:
    with os.scandir(folder) as listing:
        entries = sorted(listing, key=lambda entry: entry.name)
    for entry in entries:
        counted[0] += 1
        if counted[0] > MAX_ENTRIES:
            return
        info = entry.stat(follow_symlinks=False)
        relative = prefix + entry.name
        if stat.S_ISLNK(info.st_mode):
            yield Entry(relative, "link", folder, entry.name)
        elif stat.S_ISDIR(info.st_mode):
            yield Entry(relative, "folder", folder, entry.name)
            try:
                inner = os.open(entry.name, DIRECTORY_FLAGS, dir_fd=folder)
            except OSError:
                continue  # vanished or unreadable meanwhile: nothing to show from it
            try:
                yield from _below(inner, relative + "/", counted)
            finally:
                os.close(inner)
        elif stat.S_ISREG(info.st_mode):
            yield Entry(relative, "file", folder, entry.name)
        else:
            yield Entry(relative, "other", folder, entry.name)


def printable(name: str) -> str:
    """A name read from disk as text that can travel in JSON (undecodable bytes escaped)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
