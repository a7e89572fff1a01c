"""write_file: creates or replaces a file with exactly the given text; missing folders are made.

The content's bytes are stored as they are: CR, LF and BOM included.
"""

import os
from typing import Any

from .envelope import Envelope, done
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
DESCRIPTION = "Creates or replaces a file in the workspace with this text."
WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC


def write_file(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args["path"])
    content = args["content"]
    folder = ws.jail.folder(place.parts[:-1], make=True)
    try:
        fd = os.open(place.name, WRITE_FLAGS, 0o666, dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "wb") as stream:
        stream.write(content.encode("utf-8"))
    return done(f"Wrote {len(content)} characters to {place.shown}.")
