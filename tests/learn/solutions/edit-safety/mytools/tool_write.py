"""write_file: creates or replaces a file with exactly the given text; missing folders are made.

Replacing needs no earlier read here (read-before-edit guards edit_file only). The file is
rewritten in place, so it keeps its mode; a write counts as this session having seen the file.
"""

import os
import stat
from typing import Any

from .envelope import Envelope, Refused, bad_argument, done
from .jail import NAME_MAX
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File to write, relative to the workspace."},
        "content": {"type": "string", "description": "The whole new text of the file."},
    },
    "required": ["path", "content"],
    "additionalProperties": False,
}
DESCRIPTION = "Creates or replaces a file in the workspace with exactly this text."
WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


def write_file(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args["path"])
    try:
        data = args["content"].encode("utf-8")
    except UnicodeEncodeError:
        raise bad_argument("content", "valid Unicode text", "text with a lone surrogate",
                           "The content is not valid Unicode text.") from None
    if place.broken:
        raise place.broken
    if not place.parts:
        raise Refused("IS_DIRECTORY", "The workspace root is a folder, not a file.")
    if any(len(os.fsencode(part)) > NAME_MAX for part in place.parts):
        raise Refused("IO_ERROR", f"A name in the path is longer than {NAME_MAX} bytes.")
    existing = ws.jail.lstat(place)
    if (existing is not None and stat.S_ISDIR(existing.st_mode)) or (
        existing is None and place.names_a_folder
    ):
        raise Refused("IS_DIRECTORY", f"{place.shown} names a folder, not a file.")
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise Refused("IO_ERROR", f"{place.shown} is not a regular file.")
    folder = ws.jail.folder(place.parts[:-1], make=True)
    try:
        fd = os.open(place.name, WRITE_FLAGS, 0o666, dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)
        written = os.fstat(stream.fileno())
    ws.ledger.saw(place.parts, written)
    return done(f"Wrote {len(data)} bytes to {place.shown}.")
