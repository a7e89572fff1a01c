"""edit_file: replaces one exact occurrence of old_text (or all of them) in a file's bytes.

The order of checks: the file must exist, then this session must have read (or written) it, then
it must be a file, then it must be unchanged since. The splice works on bytes, so nothing outside
the replaced span changes: not the BOM, not other lines' endings, not bytes that are not UTF-8.
Lines that new_text adds take CRLF when the file's first line ends in CRLF. old_text is matched
exactly: no quote or line-ending folding.
"""

import os
import stat
from typing import Any

from . import limits
from .envelope import Envelope, Refused, bad_argument, done
from .ledger import identity
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File to change, relative to the workspace."},
        "old_text": {"type": "string", "description": "Exact text to find; must be unique."},
        "new_text": {"type": "string", "description": "Text to put in its place."},
        "replace_all": {"type": "boolean", "description": "Replace every occurrence."},
    },
    "required": ["path", "old_text", "new_text"],
    "additionalProperties": False,
}
DESCRIPTION = "Replaces an exact, unique piece of text in a file read earlier in this session."
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
WRITE_FLAGS = os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


def edit_file(ws: Workspace, args: dict[str, Any]) -> Envelope:
    place = ws.jail.locate(args["path"])
    old, new = _encoded(args, "old_text"), _encoded(args, "new_text")
    if not old:
        raise bad_argument("old_text", "non-empty text", "empty string",
                           "Empty text occurs everywhere, so it names no place.")
    if place.broken:
        raise place.broken
    info = ws.jail.lstat(place)
    if info is None:
        raise Refused("NOT_FOUND", f"There is no file at {place.shown}.")
    if ws.ledger.seen_as(place.parts) is None:
        raise Refused("NOT_READ", f"{place.shown} has not been read in this session, so it "
                      "is not changed.")
    if stat.S_ISDIR(info.st_mode):
        raise Refused("IS_DIRECTORY", f"{place.shown} is a folder, not a file.")
    seen = ws.ledger.seen_as(place.parts)
    folder = ws.jail.folder(place.parts[:-1])
    try:
        return _splice(ws, folder, place.parts, place.shown, seen, old, new,
                       bool(args.get("replace_all", False)))
    finally:
        os.close(folder)


def _splice(ws: Workspace, folder: int, key: tuple[str, ...], shown: str, seen: Any,
            old: bytes, new: bytes, every: bool) -> Envelope:
    name = key[-1]
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=folder)
    except OSError as error:
        raise Refused("IO_ERROR", f"{shown} could not be opened: "
                      f"{os.strerror(error.errno or 0)}.") from None
    with os.fdopen(fd, "rb") as stream:
        now = os.fstat(stream.fileno())
        if identity(now) != seen:
            raise Refused("STALE_READ", f"{shown} changed on disk after this session last saw "
                          "it; it was left as it is.")
        if now.st_size > limits.EDIT_FILE_BYTES:
            raise Refused("FILE_TOO_LARGE", f"{shown} is over {limits.EDIT_FILE_BYTES} bytes.")
        original = stream.read()
    found = original.count(old)
    if found == 0:
        raise Refused("TEXT_NOT_FOUND", f"old_text does not occur in {shown}; nothing changed.")
    if found > 1 and not every:
        raise Refused("TEXT_MULTIPLE_MATCHES", f"old_text occurs {found} times in {shown}, not "
                      "once; nothing changed.")
    new = _in_file_line_endings(original, new)
    if new == old:
        return done(f"old_text and new_text are the same; {shown} is untouched.")
    changed = original.replace(old, new, -1 if every else 1)
    with os.fdopen(os.open(name, WRITE_FLAGS, dir_fd=folder), "wb") as stream:
        stream.write(changed)
        written = os.fstat(stream.fileno())
    ws.ledger.saw(key, written)
    count = found if every else 1
    return done(f"Replaced {count} occurrence(s) in {shown}.")


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
