"""list_files: every entry below a folder, one per line, named from the workspace root.

Folders end in `/`; a symbolic link is shown as `name (link)` and never entered. `pattern` is a
shell glob matched against the name (or, when it holds a `/`, against the path below the folder).
"""

import fnmatch
import os
import stat
from typing import Any

from . import limits
from .envelope import Envelope, Refused, done
from .walk import printable, walk
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Folder to list (default: the workspace)."},
        "pattern": {"type": "string", "description": "Glob the names must match, like *.py."},
    },
    "additionalProperties": False,
}
DESCRIPTION = "Lists the files and folders below a folder of the workspace, recursively."


def list_files(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args.get("path", "."))
    if place.broken:
        raise place.broken
    info = ws.jail.lstat(place)
    if info is None:
        raise Refused("NOT_FOUND", f"There is no folder at {place.shown}.")
    if not stat.S_ISDIR(info.st_mode):
        raise Refused("NOT_A_DIRECTORY", f"{place.shown} is a file, not a folder.")
    pattern = args.get("pattern")
    prefix = "" if not place.parts else place.shown + "/"
    lines: list[str] = []
    size = 0
    left_out = 0
    folder = ws.jail.folder(place.parts)
    try:
        for entry in walk(folder):
            if pattern is not None and not _matches(pattern, entry.relative, entry.name):
                continue
            line = printable(prefix + entry.relative) + _suffix(entry.kind)
            if size + len(line) + 1 > limits.MAX_OUTPUT_CHARS:
                left_out += 1
                continue
            lines.append(line)
            size += len(line) + 1
    finally:
        os.close(folder)
    if not lines and not left_out:
        if pattern is not None:
            return done(f"Nothing below {place.shown} matches {pattern!r}.")
        return done(f"The folder {place.shown} is empty.")
    if left_out:
        lines.append(f"[... {left_out} more entries left out here ...]")
    return done("\n".join(lines))


def _matches(pattern: str, relative: str, name: str) -> bool:
    return fnmatch.fnmatchcase(relative if "/" in pattern else name, pattern)


def _suffix(kind: str) -> str:
    return {"folder": "/", "link": " (link)", "other": " (special file)"}.get(kind, "")
