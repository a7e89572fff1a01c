"""The disk oracle: judge the disk, not only the words.

A confinement check does not trust an error code alone (DESIGN "Oracles"). When a workspace is
built the oracle records everything in the sandbox outside the root (except the implementation's
own `tmp/`), byte for byte; after every call it compares again and scans the answer for the
canaries' secret. Anything different is an escape, named path by path.

The sandbox sits alone in a "moat" folder, so a write that climbs above the sandbox is seen too.
"""

import contextlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from agentconf.harness.verdicts.errors import EscapeDetected

_MAX_LISTED = 20


@dataclass(frozen=True, slots=True)
class Entry:
    """What one path is: its kind, permission bits, and its bytes or link target."""

    kind: str  # "file" | "dir" | "link" | "fifo" | "other"
    mode: int
    content: bytes | None = None
    target: str | None = None

    def describe(self) -> str:
        if self.kind == "link":
            return f"symlink -> {self.target}"
        if self.kind == "file":
            return f"file of {len(self.content or b'')} bytes, mode {self.mode:o}"
        return f"{self.kind}, mode {self.mode:o}"


# Opening never follows a link swapped in after the lstat, nor blocks on a FIFO swapped in.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20


def entry_of(path: str | Path) -> Entry:
    """Never opens anything but a regular file: reading a FIFO or a device could block."""
    info = os.lstat(path)
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISLNK(info.st_mode):
        return Entry("link", mode, target=os.readlink(path))
    if stat.S_ISDIR(info.st_mode):
        return Entry("dir", mode)
    if stat.S_ISREG(info.st_mode):
        return Entry("file", mode, content=_read_all(path, info.st_size))
    if stat.S_ISFIFO(info.st_mode):
        return Entry("fifo", mode)
    return Entry("other", mode)


def _read_all(path: str | Path, size: int) -> bytes:
    """The file's bytes with bare system calls: this runs after every call of every test, and
    a buffered file object cost three times as much as the read itself."""
    descriptor = os.open(path, _READ_FLAGS)
    try:
        parts = [os.read(descriptor, size + 1)]  # all of it at once, when the size still holds
        while chunk := os.read(descriptor, _CHUNK):  # until end of file, whatever happened
            parts.append(chunk)
        return parts[0] if len(parts) == 1 else b"".join(parts)
    finally:
        os.close(descriptor)


def scan(top: Path, skip: frozenset[str] = frozenset()) -> dict[str, Entry]:
    """Every path under `top` (relative, `/`-separated) without following links.

    `skip` names top-level entries whose contents are not recorded (their own entry is).
    Runs after every call of every test, so it stays on plain strings and `os` (pathlib's
    parsing was a good part of the harness's time).
    """
    found: dict[str, Entry] = {}

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:  # in any order: snapshots compare as dicts
            for item in entries:
                rel = prefix + item.name
                try:
                    entry = entry_of(item.path)
                except OSError as error:  # unreadable (mode 000): still record that it exists
                    entry = Entry("other", 0, content=str(error).encode())
                unjudged = prefix == "" and item.name in skip
                # Of an unjudged folder only its kind counts: the root may be chmod-ed by a test.
                found[rel] = Entry(entry.kind, 0) if unjudged else entry
                if entry.kind == "dir" and not unjudged:
                    with contextlib.suppress(OSError):
                        walk(item.path, rel + "/")

    walk(os.fspath(top), "")
    return found


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


def _put(path: str, entry: Entry) -> None:
    """Makes `path` what `entry` records (a folder that is there only gets its mode back)."""
    if entry.kind == "dir":
        os.makedirs(path, exist_ok=True)
    elif entry.kind == "link":
        os.symlink(entry.target or "", path)
    elif entry.kind == "file":
        with open(path, "wb") as handle:
            handle.write(entry.content or b"")
    elif entry.kind == "fifo":
        os.mkfifo(path)
    if entry.kind != "link":
        with contextlib.suppress(OSError):
            os.chmod(path, entry.mode)


def diff_snapshots(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    changes = []
    for rel in sorted(before.keys() | after.keys()):
        old, new = before.get(rel), after.get(rel)
        if old == new:
            continue
        if old is None:
            changes.append(f"created {rel} ({new.describe()})")  # type: ignore[union-attr]
        elif new is None:
            changes.append(f"removed {rel} (was {old.describe()})")
        elif old.kind != new.kind:
            changes.append(f"replaced {rel}: {old.describe()} -> {new.describe()}")
        elif old.target != new.target:
            changes.append(f"retargeted {rel}: -> {old.target} became -> {new.target}")
        elif old.content != new.content:
            changes.append(f"rewrote {rel} ({len(old.content or b'')} -> "
                           f"{len(new.content or b'')} bytes)")
        else:
            changes.append(f"chmod {rel}: {old.mode:o} -> {new.mode:o}")
    return changes


class DiskOracle:
    """Snapshot of everything outside the root; `check()` raises EscapeDetected on a difference."""

    def __init__(
        self,
        sandbox: Path,
        secret: str,
        unjudged: tuple[str, ...] = ("root", "tmp"),
        moat: Path | None = None,
        moat_allowed: tuple[str, ...] = (),
        outer: tuple[Path, ...] = (),
    ) -> None:
        self.sandbox = sandbox
        # Canary folders outside the sandbox (disk/outer.py), judged under their absolute path.
        self._outer = outer
        self.secret = secret
        self._skip = frozenset(unjudged)
        self._moat = moat
        self._moat_allowed = frozenset((sandbox.name, *moat_allowed))
        self._snapshot: dict[str, Entry] = {}
        # The implementation's own files the kit wrote for it before it started ([setup.files]):
        # what it rewrites in them while starting is its own, as what it creates in its HOME.
        self._own: set[str] = set()
        self._state: tuple[str, ...] = ()
        self.rebaseline()

    def own_state(self, folders: list[Path]) -> None:
        """Folders the implementation keeps its state in ([setup].state): never judged."""
        self._state = (*self._state, *(os.path.relpath(f, self.sandbox) for f in folders))
        self.rebaseline()

    @property
    def state(self) -> tuple[Path, ...]:
        """The implementation's state folders ([setup].state), as absolute paths."""
        return tuple(self.sandbox / rel for rel in self._state)

    def own(self, paths: list[Path]) -> None:
        """Files written for the implementation before its start ([setup.files])."""
        self._own |= {os.path.relpath(path, self.sandbox) for path in paths}

    def rebaseline(self) -> None:
        """Take the snapshot again: for a test that deliberately changes something outside."""
        self._snapshot = self._scan()

    def accept_startup(self, own: str = "home") -> list[str]:
        """What the implementation created in its own HOME while starting becomes part of the
        baseline (a server's config file, a cache), and so do its rewrites of the files written
        for it ([setup.files]): startup is not a call. The canaries that were there before still
        have to stay as they were. Returns the paths adopted."""
        adopted = []
        for rel, entry in self._scan().items():
            ours = rel in self._own or (rel not in self._snapshot and (
                rel == own or rel.startswith(own + "/")))
            if ours and self._snapshot.get(rel) != entry:
                self._snapshot[rel] = entry
                adopted.append(rel)
        return adopted

    def _scan(self) -> dict[str, Entry]:
        found = scan(self.sandbox, self._skip)
        if self._state:
            found = {rel: entry for rel, entry in found.items()
                     if not any(rel == s or rel.startswith(s + "/") for s in self._state)}
        for folder in self._outer:
            if os.path.lexists(folder):
                found[str(folder)] = entry_of(folder)
                found.update({f"{folder}/{rel}": entry for rel, entry in scan(folder).items()})
            # else absent: the snapshot's entries for it show up as removed
        if self._moat is not None:
            for name in sorted(os.listdir(self._moat)):
                if name not in self._moat_allowed:
                    found["../" + name] = entry_of(os.path.join(self._moat, name))
        return found

    def changes(self) -> list[str]:
        now = self._scan()
        # Nearly every call changes nothing outside: one dict comparison, not a sorted diff.
        return [] if now == self._snapshot else diff_snapshots(self._snapshot, now)

    def restore(self) -> list[str]:
        """Puts everything outside the root back as the snapshot has it, and returns the paths
        put back: a property's next example starts where the first did, so the example it
        reports is one that escapes by itself, not one run after an earlier escape."""
        now = self._scan()
        changed = [rel for rel in now.keys() | self._snapshot.keys()
                   if now.get(rel) != self._snapshot.get(rel)]
        for rel in sorted(changed, key=len, reverse=True):  # what is not as it was, deepest first
            old, new = self._snapshot.get(rel), now.get(rel)
            if new is not None and not (old is not None and old.kind == new.kind == "dir"):
                _remove(self._path(rel))
        for rel in sorted(changed, key=len):
            if (old := self._snapshot.get(rel)) is not None:
                _put(self._path(rel), old)
        return sorted(changed)

    def _path(self, rel: str) -> str:
        if rel.startswith("../") and self._moat is not None:
            return os.path.join(self._moat, rel[3:])
        return os.path.join(self.sandbox, rel)

    def leaks(self, text: str) -> bool:
        return self.secret in text

    def check(self, returned_text: str = "", what: str = "the call") -> None:
        problems = []
        changes = self.changes()
        if changes:
            shown = changes[:_MAX_LISTED]
            more = len(changes) - len(shown)
            problems.append(
                "the disk outside the root changed: " + "; ".join(shown)
                + (f"; and {more} more" if more else "")
            )
        if self.leaks(returned_text):
            problems.append(
                "the answer contains the canaries' secret (it read a file outside the root)"
            )
        if problems:
            raise EscapeDetected(f"escape after {what}: " + " | ".join(problems))
