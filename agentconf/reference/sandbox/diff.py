"""Unified diffs of a file change, for the envelope's `diff` and the one-line summary (dskcode)."""

import difflib
from dataclasses import dataclass

NO_NEWLINE = "\\ No newline at end of file\n"


@dataclass(frozen=True, slots=True)
class DiffStats:
    added: int
    removed: int


def _lines(text: str) -> list[str]:
    """Lines split on "\\n" only, each keeping its ending; `str.splitlines` would also split on
    form feeds and Unicode separators, which are not line breaks in a source file."""
    lines = text.split("\n")
    last = lines.pop()
    with_ends = [line + "\n" for line in lines]
    return [*with_ends, last] if last else with_ends


def unified_diff(old: str, new: str, path: str, *, context: int = 3) -> str:
    """A `diff -u` style diff from `a/<path>` to `b/<path>`; empty when nothing changed."""
    pieces: list[str] = []
    for line in difflib.unified_diff(
        _lines(old), _lines(new), f"a/{path}", f"b/{path}", n=context
    ):
        pieces.append(line if line.endswith("\n") else line + "\n" + NO_NEWLINE)
    return "".join(pieces)


def diff_stats(diff: str) -> DiffStats:
    added = removed = 0
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return DiffStats(added, removed)
