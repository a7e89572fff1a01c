"""read_file: a file's text as it is (no line numbers), whole or a window of lines.

A whole read is refused above MAX_READ_BYTES; a window streams the file and keeps only its lines,
so its cost is the window. The text is judged on what is returned: NUL bytes or invalid UTF-8 in
it make the answer BINARY_FILE. The file is opened as it is: a FIFO waits for a writer.
"""

import codecs
import os
import stat
from typing import Any

from . import limits
from .clip import clip
from .envelope import Envelope, Refused, bad_argument, done
from .jail import Place
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
DESCRIPTION = (
    "Returns the text of a UTF-8 file in the workspace, or only lines start_line..end_line. "
    f"Files over {limits.MAX_READ_BYTES} bytes can only be read by lines."
)
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
PIECE = 1 << 16


def read_file(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args["path"])
    start, end = args.get("start_line"), args.get("end_line")
    if start is not None and end is not None and end < start:
        raise bad_argument("end_line", f"integer >= {start}", f"number {end}",
                           "The window ends before it starts.")
    if place.broken:
        raise place.broken
    info = ws.jail.lstat(place)
    if info is None:
        raise Refused("NOT_FOUND", f"There is no file at {place.shown}.")
    if stat.S_ISDIR(info.st_mode):
        raise Refused("IS_DIRECTORY", f"{place.shown} is a folder, not a file.")
    folder = ws.jail.folder(place.parts[:-1])
    try:
        fd = os.open(place.name, READ_FLAGS, dir_fd=folder)
    except OSError as error:
        raise Refused("IO_ERROR", f"{place.shown} could not be opened: "
                      f"{os.strerror(error.errno or 0)}.") from None
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb") as stream:
        opened = os.fstat(stream.fileno())
        if start is None and end is None:
            text = _whole(stream, opened, place)
        else:
            text = _window(stream, place, start or 1, end)
    ws.ledger.saw(place.parts, opened)
    return done(clip(text, limits.MAX_OUTPUT_CHARS))


def _whole(stream: Any, opened: os.stat_result, place: Place) -> str:
    too_large = Refused(
        "FILE_TOO_LARGE",
        f"{place.shown} has {opened.st_size} bytes, more than the {limits.MAX_READ_BYTES} "
        "returned whole; a window of lines (start_line, end_line) is returned at any size.",
    )
    if opened.st_size > limits.MAX_READ_BYTES:
        raise too_large
    data = stream.read(limits.MAX_READ_BYTES + 1)
    if len(data) > limits.MAX_READ_BYTES:
        raise too_large
    if not data:
        return f"({place.shown} is an empty file: 0 bytes.)"
    return _as_text(data, place, cut=False)


def _window(stream: Any, place: Place, start: int, end: int | None) -> str:
    kept = bytearray()
    cut = False
    number = 1  # the line the next piece belongs to
    ended_line = True
    while end is None or number <= end:
        piece = stream.readline(PIECE)
        if not piece:
            break
        ended_line = piece.endswith(b"\n")
        if number >= start:
            room = limits.MAX_READ_BYTES - len(kept)
            cut = cut or len(piece) > room
            kept += piece[: max(room, 0)]
        if ended_line:
            number += 1
    if not kept and number <= start:
        lines = number - 1 if ended_line else number
        return f"(No lines: {place.shown} has {lines} line(s), and the window starts at {start}.)"
    return _as_text(bytes(kept), place, cut=cut)


def _as_text(data: bytes, place: Place, cut: bool) -> str:
    binary = Refused("BINARY_FILE", f"{place.shown} holds binary data (not UTF-8 text); "
                     "none of it is returned.")
    if b"\x00" in data:
        raise binary
    try:
        if cut:  # the last character may have been cut in two; drop it rather than fail
            return codecs.getincrementaldecoder("utf-8")("strict").decode(data, final=False)
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise binary from None
