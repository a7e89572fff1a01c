"""grep: lines matching a Python regular expression, as `path:line: text`.

Walks regular files only (links are never followed, special files never opened during a walk);
a file with a NUL byte or invalid UTF-8 is passed over whole. A path naming one file searches that
file, whatever it is. The pattern is compiled as it is: a pattern that does not compile is an
error of the call like any other.
"""

import fnmatch
import os
import re
import stat
from collections.abc import Iterator
from typing import Any

from . import limits
from .envelope import Envelope, Refused, done
from .walk import printable, walk
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string", "description": "Python regular expression."},
        "path": {"type": "string", "description": "Folder or file to search (default: all)."},
        "include": {"type": "string", "description": "Glob a file name must match, like *.py."},
    },
    "required": ["pattern"],
    "additionalProperties": False,
}
DESCRIPTION = "Searches the text files of the workspace for lines matching a regular expression."
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
LINE_CHARS = 500  # a matching line is shown up to this many characters


def grep(ws: Workspace, args: dict[str, Any]) -> Envelope:
    expression = re.compile(args["pattern"])
    place = ws.jail.locate(args.get("path", "."))
    if place.broken:
        raise place.broken
    info = ws.jail.lstat(place)
    if info is None:
        raise Refused("NOT_FOUND", f"Nothing exists at {place.shown}.")
    include = args.get("include")
    shown: list[str] = []
    size = 0
    left_out = 0
    for line in _matches(ws, place.parts, stat.S_ISDIR(info.st_mode), expression, include):
        if size + len(line) + 1 > limits.MAX_OUTPUT_CHARS:
            left_out += 1
            continue
        shown.append(line)
        size += len(line) + 1
    if not shown and not left_out:
        return done("No line matches.")
    if left_out:
        shown.append(f"[... {left_out} more matching lines left out here ...]")
    return done("\n".join(shown))


def _matches(ws: Workspace, parts: tuple[str, ...], is_folder: bool, expression: re.Pattern[str],
             include: str | None) -> Iterator[str]:
    if not is_folder:
        folder = ws.jail.folder(parts[:-1])
        try:
            if include is None or fnmatch.fnmatchcase(parts[-1], include):
                yield from _search(folder, parts[-1], "/".join(parts), expression)
        finally:
            os.close(folder)
        return
    prefix = "/".join(parts) + "/" if parts else ""
    folder = ws.jail.folder(parts)
    try:
        for entry in walk(folder):
            if entry.kind != "file":
                continue
            if include is not None and not fnmatch.fnmatchcase(entry.name, include):
                continue
            yield from _search(entry.folder_fd, entry.name, prefix + entry.relative, expression)
    finally:
        os.close(folder)


def _search(folder: int, name: str, shown: str, expression: re.Pattern[str]) -> Iterator[str]:
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=folder)
    except OSError:
        return  # vanished, or a link put in its place: nothing to search
    with os.fdopen(fd, "rb") as stream:
        data = stream.read(limits.GREP_FILE_BYTES + 1)
    if len(data) > limits.GREP_FILE_BYTES or b"\x00" in data:
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    label = printable(shown)
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()  # the empty piece after the last newline is not a line
    for number, line in enumerate(lines, start=1):
        line = line.removesuffix("\r")
        if expression.search(line):
            if len(line) > LINE_CHARS:
                line = line[:LINE_CHARS] + " [...]"
            yield f"{label}:{number}: {line}"
