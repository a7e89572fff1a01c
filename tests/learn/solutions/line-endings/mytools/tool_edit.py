"""edit_file: replaces old_text with new_text in a file's bytes.

The splice works on bytes, so nothing outside the replaced span changes: not the BOM, not other
lines' endings, not the final newline. Lines that new_text adds take CRLF when the file's first
line ends in CRLF.
"""

import os
from typing import Any

from .envelope import Envelope, Refused, bad_argument, done
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File to change, relative to the workspace."},
        "old_text": {"type": "string", "description": "Exact text to find."},
        "new_text": {"type": "string", "description": "Text to put in its place."},
        "replace_all": {"type": "boolean", "description": "Replace every occurrence."},
    },
    "required": ["path", "old_text", "new_text"],
    "additionalProperties": False,
}
DESCRIPTION = "Replaces a piece of text in a file."
WRITE_FLAGS = os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC


def edit_file(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args["path"])
    old, new = _encoded(args, "old_text"), _encoded(args, "new_text")
    if place.broken:
        raise place.broken
    if ws.jail.lstat(place) is None:
        raise Refused("NOT_FOUND", f"There is no file at {place.shown}.")
    folder = ws.jail.folder(place.parts[:-1])
    try:
        with os.fdopen(os.open(place.name, os.O_RDONLY | os.O_CLOEXEC, dir_fd=folder),
                       "rb") as stream:
            original = stream.read()
        if old not in original:
            raise Refused("TEXT_NOT_FOUND", f"old_text does not occur in {place.shown}.")
        changed = original.replace(old, _in_file_line_endings(original, new), 1)
        with os.fdopen(os.open(place.name, WRITE_FLAGS, dir_fd=folder), "wb") as stream:
            stream.write(changed)
    finally:
        os.close(folder)
    return done(f"Edited {place.shown}.")


def _encoded(args: dict[str, Any], field: str) -> bytes:
    try:
        return str(args[field]).encode("utf-8")
    except UnicodeEncodeError:
        raise bad_argument(field, "valid Unicode text", "text with a lone surrogate",
                           "The text is not valid Unicode.") from None


def _in_file_line_endings(original: bytes, new: bytes) -> bytes:
    first = original.find(b"\n")
    if first > 0 and original[first - 1:first] == b"\r" and b"\n" in new:
        return new.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return new
