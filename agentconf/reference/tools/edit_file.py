"""edit_file: replace one exact, unique piece of a file's text, touching nothing else.

dskcode: old_text must occur exactly once; none and several are different failures
(TEXT_NOT_FOUND, TEXT_MULTIPLE_MATCHES) because the model's fix differs — re-read, or add context.
Matching is done on the file's LF view and the replacement spliced into the original text, so
CRLF, mixed endings, a BOM and the final-newline state survive outside the replaced span; the new
text's line breaks take the file's dominant ending. Claude Code: straight quotes in old_text match
curly ones in the file (the file's own characters outside the change stay as they are), and an
edit needs a read of the current version (NOT_READ, STALE_READ). new_text goes in literally: no
regex, so `$1` and `\\1` are just characters.
"""

import asyncio
import os

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, invalid_argument, ok
from ..sandbox import eol
from ..sandbox.atomic import atomic_write
from ..sandbox.binary import looks_binary
from ..sandbox.diff import diff_stats, unified_diff
from ..sandbox.files import read_regular
from ..sandbox.paths import os_error

# Edits read the whole file; past this size a shell tool (sed) is the better instrument.
EDIT_MAX_BYTES = 16 * 1024 * 1024

# Curly quotes (and primes) a model types as straight ones. One character for one, so positions in
# the straightened text are positions in the original.
STRAIGHTEN = str.maketrans("\u2018\u2019\u2032\u201c\u201d\u2033", "'''\"\"\"")


class EditFileArgs(Arguments):
    path: str = Field(description="File to edit, relative to the workspace root.")
    old_text: str = Field(
        min_length=1,
        description="Exact text to replace, copied from the file with its indentation. Must occur "
        "once unless replace_all is set; add surrounding lines to make it unique.",
    )
    new_text: str = Field(description="Text to put in its place, inserted literally.")
    replace_all: bool = Field(default=False, description="Replace every occurrence of old_text.")


async def edit_file(args: EditFileArgs, ctx: ToolContext) -> Envelope:
    if eol.to_lf(args.old_text) == eol.to_lf(args.new_text):
        message = "`new_text` is the same as `old_text`, so the edit would change nothing."
        raise invalid_argument("new_text", "text different from old_text",
                               "the same text as old_text",
                               message + " Give the text that should replace it.")
    return await asyncio.to_thread(_edit, args, ctx)


def _edit(args: EditFileArgs, ctx: ToolContext) -> Envelope:
    target = ctx.write_target(args.path)
    shown = target.shown
    if not target.exists:
        raise ToolError(
            "NOT_FOUND",
            f"`{shown}` does not exist. Check the path with list_files, or create the file "
            "with write_file.",
        )
    with ctx.session.locks.hold(target.real):
        data, info = read_regular(target.real, shown, EDIT_MAX_BYTES)
        ctx.session.ledger.require_current(target.real, info, shown)
        if looks_binary(data, complete=True):
            raise ToolError(
                "BINARY_FILE",
                f"`{shown}` looks binary (NUL bytes or not UTF-8), so it cannot be edited as "
                "text. Use bash with a suitable tool if it must change.",
            )
        original = data.decode("utf-8")
        view = eol.LfView(original)
        spans, via_quotes = _find(view.text, eol.to_lf(args.old_text))
        _require_match(spans, args.replace_all, shown)
        new_text = eol.with_eol(args.new_text, eol.detect(original))
        edited = view.splice(spans, new_text)
        try:
            atomic_write(target.real, edited.encode("utf-8"))
            ctx.session.ledger.record(target.real, os.stat(target.real))
        except OSError as error:
            raise os_error(error, shown) from error
    diff = unified_diff(original, edited, shown)
    stats = diff_stats(diff)
    first_line = view.text.count("\n", 0, spans[0][0]) + 1
    where = f"at line {first_line}" if len(spans) == 1 else f"first at line {first_line}"
    count = f"{len(spans)} occurrence{'' if len(spans) == 1 else 's'}"
    quotes = " (matched by reading curly quotes as straight ones)" if via_quotes else ""
    return ok(
        f"Edited `{shown}`: replaced {count} {where}{quotes}.\n\n{diff}",
        summary=f"Edited {shown} (+{stats.added} -{stats.removed})",
        diff=diff,
    )


def _find(text: str, needle: str) -> tuple[list[tuple[int, int]], bool]:
    """Non-overlapping spans of `needle` in `text`; failing exact matches, with quotes straightened.

    Returns the spans and whether straightening was needed.
    """
    spans = _occurrences(text, needle)
    if spans:
        return spans, False
    spans = _occurrences(text.translate(STRAIGHTEN), needle.translate(STRAIGHTEN))
    return spans, bool(spans)


def _occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    spans = []
    start = text.find(needle)
    while start != -1:
        spans.append((start, start + len(needle)))
        start = text.find(needle, start + len(needle))
    return spans


def _require_match(spans: list[tuple[int, int]], replace_all: bool, shown: str) -> None:
    if not spans:
        raise ToolError(
            "TEXT_NOT_FOUND",
            f"old_text does not occur in `{shown}`. Read the file again and copy old_text "
            "exactly, including indentation and spaces.",
        )
    if len(spans) > 1 and not replace_all:
        raise ToolError(
            "TEXT_MULTIPLE_MATCHES",
            f"old_text occurs {len(spans)} times in `{shown}`. Add surrounding lines to old_text "
            "so it occurs once, or set replace_all to replace every occurrence.",
        )


DECLARATION = Declaration(
    name="edit_file",
    description=(
        "Replace an exact piece of text in a file. old_text must match the file (indentation "
        "included) and occur once, unless replace_all is set. Read the file with read_file first. "
        "The answer carries a diff of the change."
    ),
    kind=ToolKind.EDIT,
    handler=edit_file,
    args_model=EditFileArgs,
    destructive=True,
    idempotent=False,
)
