"""read_file: a text file's lines, numbered like `cat -n`, whole or as a streamed window.

dskcode and Claude Code. A whole read is refused above `max_read_bytes` (FILE_TOO_LARGE) so the
model
windows or greps instead of swallowing a log; a window streams line by line into a head+tail
bound, so reading lines 1000-1100 of a 1 GB file costs those lines, not the file. Opening goes
through `open_regular`, so a FIFO is refused at once instead of blocking for a writer.
"""

import asyncio
import codecs
from collections.abc import Iterator
from typing import BinaryIO

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, invalid_argument, ok
from ..sandbox.binary import SNIFF_BYTES, looks_binary
from ..sandbox.bounding import StreamBound
from ..sandbox.files import human_size, open_regular

BOM = "\ufeff"


class ReadFileArgs(Arguments):
    path: str = Field(description="File to read, relative to the workspace root.")
    start_line: int | None = Field(
        default=None, ge=1, description="First line to return (1-based). Omit to start at line 1."
    )
    end_line: int | None = Field(
        default=None, ge=1, description="Last line to return (inclusive). Omit to read to the end."
    )


async def read_file(args: ReadFileArgs, ctx: ToolContext) -> Envelope:
    if args.start_line and args.end_line and args.end_line < args.start_line:
        message = (
            f"`end_line` ({args.end_line}) must not be before `start_line` ({args.start_line})."
        )
        raise invalid_argument("end_line", f"integer >= {args.start_line}",
                               f"number {args.end_line}", message)
    return await asyncio.to_thread(_read, args, ctx)


def _read(args: ReadFileArgs, ctx: ToolContext) -> Envelope:
    target = ctx.read_target(args.path)
    windowed = args.start_line is not None or args.end_line is not None
    with open_regular(target.real, target.shown) as (file, info):
        if not windowed and info.st_size > ctx.limits.max_read_bytes:
            raise ToolError(
                "FILE_TOO_LARGE",
                f"`{target.shown}` is {human_size(info.st_size)}, more than the "
                f"{human_size(ctx.limits.max_read_bytes)} read_file returns at once. Read a "
                "window with start_line and end_line (say 1 to 200), or search it with grep.",
            )
        try:
            head = file.read(SNIFF_BYTES)
            if looks_binary(head, complete=len(head) < SNIFF_BYTES):
                raise _binary(target.shown)
            file.seek(0)
            text = _numbered(file, args.start_line or 1, args.end_line, target.shown, ctx)
        except ToolError as error:
            if error.code == "BINARY_FILE":
                # Seen as binary is seen: the model knows what is there and may replace it.
                ctx.session.ledger.record(target.real, info)
            raise
    ctx.session.ledger.record(target.real, info)
    return ok(text)


def _numbered(file: BinaryIO, start: int, end: int | None, shown: str, ctx: ToolContext) -> str:
    """Lines start..end numbered `cat -n` style, bounded head+tail while they stream."""
    limit = ctx.limits.max_output_chars
    bound = StreamBound(limit)
    count = 0
    emitted = False
    for count, (raw, skipped) in enumerate(_raw_lines(file, limit), start=1):
        if end is not None and count > end:
            break
        if count >= start:
            bound.feed(f"{count:>6}\t{_decode(raw, skipped, shown, count)}\n".encode())
            emitted = True
    if emitted:
        return bound.render().removesuffix("\n")
    if count == 0:
        return f"`{shown}` is empty (0 bytes)."
    return (
        f"`{shown}` has {count} line{'' if count == 1 else 's'}, so a window starting at line "
        f"{start} is past its end. Read from a line between 1 and {count}."
    )


def _raw_lines(file: BinaryIO, longest: int) -> Iterator[tuple[bytes, int | None]]:
    """Each line's bytes, and for a line longer than `longest` how many bytes were skipped.

    A long line is cut and its rest skipped without being held, so one enormous line cannot
    make a window cost the whole file.
    """
    while raw := file.readline(longest):
        skipped = None
        if len(raw) == longest and not raw.endswith(b"\n"):
            skipped = 0
            while (rest := file.readline(longest)) and not rest.endswith(b"\n"):
                skipped += len(rest)
            skipped += len(rest)
        yield raw, skipped


def _decode(raw: bytes, skipped: int | None, shown: str, line: int) -> str:
    """A line's text without its ending (LF or CRLF); BINARY_FILE if it is not UTF-8."""
    try:
        # A cut may fall inside a character: the decoder then holds the unfinished tail back.
        text = codecs.getincrementaldecoder("utf-8")().decode(raw, final=skipped is None)
    except UnicodeDecodeError:
        raise _binary(shown, line) from None
    if line == 1:
        text = text.removeprefix(BOM)
    if skipped is not None:
        return f"{text} [line cut: {skipped} more bytes]"
    return text.removesuffix("\n").removesuffix("\r")


def _binary(shown: str, line: int | None = None) -> ToolError:
    where = f" (line {line} is not UTF-8)" if line else " (it has NUL bytes or is not UTF-8)"
    return ToolError(
        "BINARY_FILE",
        f"`{shown}` looks binary{where}, so its content is not shown. Use bash with a suitable "
        "tool (file, xxd) if its content matters.",
    )


DECLARATION = Declaration(
    name="read_file",
    description=(
        "Read a text file in the workspace. Lines come numbered like `cat -n`. For a large file, "
        "read a window with start_line and end_line (1-based, inclusive), or use grep."
    ),
    kind=ToolKind.READ,
    handler=read_file,
    args_model=ReadFileArgs,
    bounds_own_output=True,
)
