"""write_file: create a file, or replace one this session has read, with exactly the given text.

The content's characters are stored as UTF-8 and nothing else: no line-ending conversion, no
added final newline, a BOM kept if given (EOL-08). Missing parent folders are created, inside the
write roots only, since confinement has already placed the whole path there. The replace is
atomic and keeps the file's mode (@clarvis/agent-tools); overwriting needs a prior read (Claude
Code).
"""

import asyncio
import os
from pathlib import Path

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import invalid_argument, ok
from ..sandbox.atomic import atomic_write
from ..sandbox.diff import diff_stats, unified_diff
from ..sandbox.files import check_regular
from ..sandbox.paths import Target, os_error


class WriteFileArgs(Arguments):
    path: str = Field(description="File to write, relative to the workspace root.")
    content: str = Field(description="The complete new content of the file, exactly as stored.")


async def write_file(args: WriteFileArgs, ctx: ToolContext) -> Envelope:
    data = _encode(args.content)
    return await asyncio.to_thread(_write, args.path, data, ctx)


def _write(raw_path: str, data: bytes, ctx: ToolContext) -> Envelope:
    target = ctx.write_target(raw_path)
    with ctx.session.locks.hold(target.real):
        existed, old = _existing(target, ctx)
        try:
            target.real.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target.real, data)
            info = os.stat(target.real)
        except OSError as error:
            raise os_error(error, target.shown) from error
        ctx.session.ledger.record(target.real, info)
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    verb = "Overwrote" if existed else "Created"
    diff = _diff(old if existed else b"", data, target.shown, ctx.limits.max_read_bytes)
    stats = diff_stats(diff) if diff else None
    change = f" (+{stats.added} -{stats.removed})" if stats else ""
    return ok(
        f"{verb} `{target.shown}`: {len(data)} bytes, {lines} line{'' if lines == 1 else 's'}.",
        summary=f"{verb} {target.shown}{change}",
        diff=diff,
    )


def _existing(target: Target, ctx: ToolContext) -> tuple[bool, bytes | None]:
    """Whether the target exists, and its content when small enough to diff; checks the read
    guard, since replacing a file the model has not seen would lose someone's work."""
    try:
        info = os.stat(target.real)
    except FileNotFoundError:
        return False, None
    except OSError as error:
        raise os_error(error, target.shown) from error
    check_regular(info, target.shown)
    ctx.session.ledger.require_current(target.real, info, target.shown)
    if info.st_size > ctx.limits.max_read_bytes:
        return True, None
    try:
        return True, Path(target.real).read_bytes()
    except OSError as error:
        raise os_error(error, target.shown) from error


def _diff(old: bytes | None, new: bytes, shown: str, max_bytes: int) -> str | None:
    """The change as a unified diff when both sides are text of a diffable size, else None."""
    if old is None or len(old) > max_bytes or len(new) > max_bytes:
        return None
    try:
        return unified_diff(old.decode("utf-8"), new.decode("utf-8"), shown) or None
    except UnicodeDecodeError:
        return None


def _encode(content: str) -> bytes:
    try:
        return content.encode("utf-8")
    except UnicodeEncodeError:
        message = "`content` holds a lone surrogate, which is not text; send valid Unicode."
        raise invalid_argument("content", "valid Unicode text", "string", message) from None


DECLARATION = Declaration(
    name="write_file",
    description=(
        "Create a file, or replace a file's whole content, in the workspace. Missing folders are "
        "created. To overwrite an existing file, read it with read_file first; to change part of "
        "a file, prefer edit_file."
    ),
    kind=ToolKind.EDIT,
    handler=write_file,
    args_model=WriteFileArgs,
    destructive=True,
    # The same content written twice leaves what writing it once left.
    idempotent=True,
)
