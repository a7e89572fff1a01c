"""The apply_patch format (Codex's, which @clarvis/agent-tools' apply_patch also takes): parsing,
and applying one file's hunks to its text. Pure text logic; the tool does paths and the disk.

    *** Begin Patch
    *** Add File: docs/new.md
    +first line
    *** Update File: src/app.py
    *** Move to: src/main.py          (optional)
    @@ def main():                    (optional: a line the hunk comes after)
     context line
    -removed line
    +added line
    *** End of File                   (optional: the hunk ends at the end of the file)
    *** Delete File: old.txt
    *** End Patch

A hunk's lines (context and removed, in order) must occur in the file; without an `@@` line they
must occur exactly once after the previous hunk (else the model adds context), after an `@@` line
the first occurrence below that line is meant. Matching is exact and on the file's LF view, so a
CRLF file matches LF hunk lines and keeps its own endings (eol.py); an empty line inside a hunk is
an empty context line, since models drop the lone space.
"""

from dataclasses import dataclass, field

from . import eol

BEGIN, END = "*** Begin Patch", "*** End Patch"
ADD, DELETE, UPDATE = "*** Add File: ", "*** Delete File: ", "*** Update File: "
MOVE = "*** Move to: "
END_OF_FILE = "*** End of File"


class PatchSyntaxError(ValueError):
    """The patch is not in the format; the message names the line and what was expected."""


class HunkError(ValueError):
    """A hunk does not apply: `code` is TEXT_NOT_FOUND or TEXT_MULTIPLE_MATCHES."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Hunk:
    anchor: str | None  # the `@@` line's text, when it names one
    old: tuple[str, ...]  # context and removed lines, in order
    new: tuple[str, ...]  # context and added lines, in order
    at_end: bool  # `*** End of File`: the old lines end the file


@dataclass(frozen=True, slots=True)
class FileOp:
    action: str  # "add", "delete" or "update"
    path: str
    move_to: str | None = None
    lines: tuple[str, ...] = ()  # an added file's lines
    hunks: tuple[Hunk, ...] = field(default=())


def parse(text: str) -> list[FileOp]:
    lines = eol.to_lf(text).strip("\n").split("\n")
    lines = [line.rstrip("\r") for line in lines]
    if not lines or lines[0].strip() != BEGIN:
        raise PatchSyntaxError(f"line 1: a patch starts with `{BEGIN}`")
    if lines[-1].strip() != END:
        raise PatchSyntaxError(f"line {len(lines)}: a patch ends with `{END}`")
    body = lines[1:-1]
    ops: list[FileOp] = []
    index = 0
    while index < len(body):
        op, index = _file_op(body, index)
        ops.append(op)
    if not ops:
        raise PatchSyntaxError("the patch changes no file: add an Add, Update or Delete section")
    return ops


def _header(line: str, prefix: str, number: int) -> str:
    path = line[len(prefix):].strip()
    if not path:
        raise PatchSyntaxError(f"line {number}: `{prefix.strip()}` names no path")
    return path


def _file_op(body: list[str], index: int) -> tuple[FileOp, int]:
    line, number = body[index], index + 2  # +1 for Begin Patch, +1 for counting from 1
    if line.startswith(ADD):
        path = _header(line, ADD, number)
        added = []
        index += 1
        while index < len(body) and not body[index].startswith("*** "):
            if not body[index].startswith("+"):
                raise PatchSyntaxError(
                    f"line {index + 2}: every line of an added file starts with `+`"
                )
            added.append(body[index][1:])
            index += 1
        return FileOp("add", path, lines=tuple(added)), index
    if line.startswith(DELETE):
        return FileOp("delete", _header(line, DELETE, number)), index + 1
    if line.startswith(UPDATE):
        path = _header(line, UPDATE, number)
        index += 1
        move_to = None
        if index < len(body) and body[index].startswith(MOVE):
            move_to = _header(body[index], MOVE, index + 2)
            index += 1
        hunks: list[Hunk] = []
        while index < len(body) and not _starts_file(body[index]):
            hunk, index = _hunk(body, index)
            hunks.append(hunk)
        if not hunks and move_to is None:
            raise PatchSyntaxError(f"line {number}: `Update File: {path}` has no hunk")
        return FileOp("update", path, move_to=move_to, hunks=tuple(hunks)), index
    raise PatchSyntaxError(
        f"line {number}: expected `{ADD.strip()}`, `{UPDATE.strip()}` or `{DELETE.strip()}`, "
        f"got {line[:40]!r}"
    )


def _starts_file(line: str) -> bool:
    return line.startswith((ADD, DELETE, UPDATE))


def _hunk(body: list[str], index: int) -> tuple[Hunk, int]:
    anchor = None
    if body[index].startswith("@@"):
        anchor = body[index][2:].strip() or None
        index += 1
    old: list[str] = []
    new: list[str] = []
    at_end = False
    while index < len(body) and not body[index].startswith("@@") and not _starts_file(body[index]):
        line = body[index]
        if line == END_OF_FILE:
            at_end = True
            index += 1
            break
        marker, rest = (line[:1], line[1:]) if line else (" ", "")
        if marker == " ":
            old.append(rest)
            new.append(rest)
        elif marker == "-":
            old.append(rest)
        elif marker == "+":
            new.append(rest)
        else:
            raise PatchSyntaxError(
                f"line {index + 2}: a hunk line starts with ` `, `-` or `+`, got {line[:40]!r}"
            )
        index += 1
    if old == new:
        raise PatchSyntaxError(f"line {index + 1}: a hunk that changes nothing")
    return Hunk(anchor, tuple(old), tuple(new), at_end), index


def added_text(op: FileOp) -> str:
    """An added file's content: its lines, each ended by LF."""
    return "".join(line + "\n" for line in op.lines)


def apply_hunks(original: str, hunks: tuple[Hunk, ...], shown: str) -> str:
    """`original` with every hunk applied in order; text outside the changed lines is kept
    byte for byte, and new lines take the file's dominant ending. Raises HunkError."""
    bom = "\ufeff" if original.startswith("\ufeff") else ""
    original = original[len(bom):]  # a BOM is not part of the first line a hunk names
    view = eol.LfView(original)
    ending = eol.detect(original)
    lines = view.text.split("\n")  # the last item is what follows the final newline ("" if any)
    starts = _line_starts(lines)
    cursor = 0  # the first line a later hunk may match
    edits: list[tuple[int, int, str]] = []
    for number, hunk in enumerate(hunks, start=1):
        first = _locate(lines, hunk, cursor, f"hunk {number} of `{shown}`")
        last = first + len(hunk.old)  # exclusive
        if hunk.old and last < len(lines):  # the block's last line ends with a newline
            start, end = starts[first], starts[last]
            replacement = "".join(line + ending for line in hunk.new)
        elif hunk.old:  # the block ends the file, with no final newline: neither gets one
            start, end = starts[first], len(view.text)
            replacement = ending.join(hunk.new)
            if not hunk.new and start > 0:
                start -= 1  # removing the last line removes the newline before it too
        elif first < len(lines):  # new lines go before line `first`
            start = end = starts[first]
            replacement = "".join(line + ending for line in hunk.new)
        else:  # new lines go after an unterminated last line, which they end
            start = end = len(view.text)
            replacement = ending + ending.join(hunk.new)
        edits.append((start, end, replacement))
        cursor = last
    return bom + view.splice_each(edits)


def _line_starts(lines: list[str]) -> list[int]:
    starts, position = [], 0
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    return starts


def _locate(lines: list[str], hunk: Hunk, cursor: int, what: str) -> int:
    """The index of the line where the hunk's old lines begin (where new lines go, if none)."""
    content = lines if lines[-1] != "" else lines[:-1]  # real lines; "" after a final newline
    if hunk.anchor is not None:
        anchored = next(
            (i for i in range(cursor, len(content)) if content[i].strip() == hunk.anchor.strip()),
            None,
        )
        if anchored is None:
            raise HunkError(
                "TEXT_NOT_FOUND",
                f"{what}: the `@@ {hunk.anchor}` line does not occur. Read the file again and "
                "copy the line exactly.",
            )
        cursor = anchored + 1
    if not hunk.old:
        if hunk.at_end:
            return len(content)
        if hunk.anchor is None:
            raise HunkError(
                "TEXT_NOT_FOUND",
                f"{what} adds lines without context: give context lines or an `@@` line "
                "saying where they go.",
            )
        return cursor
    size = len(hunk.old)
    found = [
        i for i in range(cursor, len(content) - size + 1)
        if tuple(content[i:i + size]) == hunk.old
    ]
    if hunk.at_end:
        found = [i for i in found if i + size == len(content)]
    if not found:
        raise HunkError(
            "TEXT_NOT_FOUND",
            f"{what}: its context and removed lines do not occur in the file"
            f"{' at its end' if hunk.at_end else ''}. Read the file again and copy them "
            "exactly, indentation included.",
        )
    if len(found) > 1 and hunk.anchor is None:
        raise HunkError(
            "TEXT_MULTIPLE_MATCHES",
            f"{what}: its lines occur {len(found)} times. Add context lines, or an `@@` line "
            "naming a line above the change.",
        )
    return found[0]
