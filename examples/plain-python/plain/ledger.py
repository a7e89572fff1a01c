"""What this session has seen of each file, and one lock per file for the writers.

A file counts as seen after a successful read (a whole read or a window) or after this session
wrote it. What is remembered is the file's identity on disk (inode, size, modification time in
nanoseconds): a write by anyone else makes a new one, since writes here replace the file.
"""

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

Identity = tuple[int, int, int]
Key = tuple[str, ...]


def identity(info: os.stat_result) -> Identity:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


class Ledger:
    def __init__(self) -> None:
        self._seen: dict[Key, Identity] = {}
        self._locks: dict[Key, threading.Lock] = {}
        self._guard = threading.Lock()

    def saw(self, key: Key, info: os.stat_result) -> None:
        with self._guard:
            self._seen[key] = identity(info)

    def seen_as(self, key: Key) -> Identity | None:
        with self._guard:
            return self._seen.get(key)

    @contextmanager
    def writing(self, key: Key) -> Iterator[None]:
        """Writers of one file take turns; writers of different files do not wait."""
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            yield
