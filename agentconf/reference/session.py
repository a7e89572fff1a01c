"""What one session remembers: which files it read (and as what), and who is writing where.

Claude Code (its `readFileTimestamps`): an edit must start from a version of the file the
model has seen. `ReadLedger` records each read file's mtime_ns and size; an edit or overwrite of a
file missing from the ledger is NOT_READ, of a file whose stamp moved is STALE_READ. The session's
own writes record the new stamp, so a model can edit the same file twice in a row.

@clarvis/agent-tools: writes to one path are serialised by an in-process lock (`PathLocks`). The
locks are
`threading` locks, taken in the worker thread that does the file work, so they hold whether the
calls come from one event loop or from several threads.
"""

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .results import ToolError


@dataclass(frozen=True, slots=True)
class ReadStamp:
    mtime_ns: int
    size: int

    @classmethod
    def of(cls, info: os.stat_result) -> "ReadStamp":
        return cls(info.st_mtime_ns, info.st_size)


class ReadLedger:
    """Real path -> the stamp of the version this session last read or wrote."""

    def __init__(self) -> None:
        self._stamps: dict[Path, ReadStamp] = {}
        self._guard = threading.Lock()

    def record(self, path: Path, info: os.stat_result) -> None:
        with self._guard:
            self._stamps[path] = ReadStamp.of(info)

    def require_current(self, path: Path, info: os.stat_result, shown: str) -> None:
        """Raises NOT_READ or STALE_READ unless `info` is the version this session knows."""
        with self._guard:
            known = self._stamps.get(path)
        if known is None:
            raise ToolError(
                "NOT_READ",
                f"`{shown}` has not been read in this session. Call read_file on it first, then "
                "repeat this call.",
            )
        if known != ReadStamp.of(info):
            raise ToolError(
                "STALE_READ",
                f"`{shown}` changed on disk since this session last read it. Read it again to see "
                "its current content, then redo the change.",
            )


class PathLocks:
    """One lock per real path; a write holds its path's lock from check to rename."""

    def __init__(self) -> None:
        self._locks: dict[Path, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def hold(self, path: Path) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(path, threading.Lock())
        with lock:
            yield


@dataclass
class Session:
    """The state of one ReferenceToolSystem instance; nothing here outlives it."""

    ledger: ReadLedger = field(default_factory=ReadLedger)
    locks: PathLocks = field(default_factory=PathLocks)
    # Deferred tools that tool_search has revealed: they are listed and callable from then on.
    revealed: set[str] = field(default_factory=set)
