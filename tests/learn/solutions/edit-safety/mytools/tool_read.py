"""read_file: a file's text, whole or a window of lines; the session remembers the read."""

import os
import stat
from typing import Any

from . import limits
from .clip import clip
from .envelope import Envelope, Refused, done
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File to read, relative to the workspace."},
        "start_line": {"type": "integer", "minimum": 1, "description": "First line (from 1)."},
        "end_line": {"type": "integer", "minimum": 1, "description": "Last line, included."},
    },
    "required": ["path"],
    "additionalProperties": False,
}
DESCRIPTION = "Returns the text of a file in the workspace, or only lines start_line..end_line."


def read_file(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args["path"])
    info = ws.jail.lstat(place)
    if info is None:
        raise Refused("NOT_FOUND", f"There is no file at {place.shown}.")
    if stat.S_ISDIR(info.st_mode):
        raise Refused("IS_DIRECTORY", f"{place.shown} is a folder, not a file.")
    folder = ws.jail.folder(place.parts[:-1])
    try:
        fd = os.open(place.name, os.O_RDONLY | os.O_CLOEXEC, dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb") as stream:
        text = stream.read().decode("utf-8", "replace")
        ws.ledger.saw(place.parts, os.fstat(stream.fileno()))  # edit_file asks for it
    if not text:
        return done(f"({place.shown} is an empty file.)")
    start, end = args.get("start_line"), args.get("end_line")
    if start is not None or end is not None:
        lines = text.splitlines(keepends=True)
        text = "".join(lines[(start or 1) - 1:end])
    return done(clip(text, limits.MAX_OUTPUT_CHARS))
