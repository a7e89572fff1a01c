"""The calls of a replayed check, for `agentconf replay` to lead with: each request as it was sent,
the implementation's answer and what changed on the disk (the root and the canaries around it),
one JSON line per call in the file that AGENTCONF_REPLAY_CALLS names. `replay` alone sets it:
reading the sandbox around every call costs what one check can afford and a thousand cannot.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

CALLS_VARIABLE = "AGENTCONF_REPLAY_CALLS"
MOST_FILES = 200  # a tree this big is summed up, not compared file by file
SHOWN_BYTES = 120


def recorder(adapter: Any, root: Path) -> Any:
    """`adapter` itself, or one that records its calls when a replay asked for them."""
    out = os.environ.get(CALLS_VARIABLE)
    return RecordingAdapter(adapter, root, Path(out)) if out else adapter


class RecordingAdapter:
    """An adapter that writes down every call it passes on; anything else goes to the adapter."""

    def __init__(self, inner: Any, root: Path, out: Path) -> None:
        self._inner, self._root, self._out = inner, root, out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return self.call_many([(name, arguments)], one=True)[0]

    def call_many(self, calls: list[tuple[str, Any]], one: bool = False) -> list[dict[str, Any]]:
        before = tree(self._root)
        try:
            answers = ([self._inner.call_tool(*calls[0])] if one
                       else self._inner.call_many(calls))
        except BaseException as error:
            self._write(calls, [f"no answer: {type(error).__name__}: {error}"] * len(calls),
                        before)
            raise
        self._write(calls, answers, before)
        return answers

    def _write(self, calls: list[tuple[str, Any]], answers: list[Any],
               before: dict[str, bytes]) -> None:
        changes = disk_changes(before, tree(self._root))
        with self._out.open("a", encoding="utf-8") as out:
            for (name, arguments), answer in zip(calls, answers, strict=True):
                record = {"tool": name, "arguments": arguments, "answer": answer,
                          "disk": changes}
                text = json.dumps(record, ensure_ascii=False, default=repr)
                out.write(text.replace(str(self._root), "<ROOT>") + "\n")


def tree(root: Path) -> dict[str, bytes]:
    """Every file of the sandbox around the root (its `tmp/` aside), by its path from the root,
    and its bytes (a link: where it points), up to MOST_FILES: a change outside the root shows
    as `../outside/...`."""
    found: dict[str, bytes] = {}
    sandbox = root.parent
    for folder, folders, files in os.walk(sandbox):
        if Path(folder) == sandbox:
            folders[:] = [name for name in folders if name != "tmp"]
        links = [name for name in folders if os.path.islink(os.path.join(folder, name))]
        for name in sorted(files) + links:
            path = Path(folder, name)
            found[os.path.relpath(path, root)] = _content(path)
            if len(found) >= MOST_FILES:
                return found
    return found


def _content(path: Path) -> bytes:
    try:
        if path.is_symlink():
            return b"-> " + os.fsencode(os.readlink(path))
        return path.read_bytes()[:65536] if path.is_file() else b"(not a regular file)"
    except OSError as error:
        return f"(unreadable: {error.strerror})".encode()


def disk_changes(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """What a call did under the root, a line per path, in the words of a diff's summary."""
    lines = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None:
            lines.append(f"created {path}: {_shown(new)}")
        elif new is None:
            lines.append(f"removed {path}")
        else:
            lines.append(f"changed {path}: {_shown(old)} -> {_shown(new)}")
    return lines


def _shown(content: bytes | None) -> str:
    text = repr(content or b"")
    return text if len(text) <= SHOWN_BYTES else text[:SHOWN_BYTES] + "…"
