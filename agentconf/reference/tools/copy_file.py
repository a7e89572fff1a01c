"""copy_file{source, destination}: copy one regular file inside the workspace.

Both ends confined by the one resolver; the source must be a regular file (never a FIFO, which
would block) and the destination must not exist, so a copy never replaces anything.
"""

import asyncio
import os
import shutil

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.files import check_regular
from ..sandbox.paths import os_error


class CopyFileArgs(Arguments):
    source: str = Field(description="File to copy, relative to the workspace root.")
    destination: str = Field(description="The new file, relative to the root; must not exist.")


async def copy_file(args: CopyFileArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_copy, args, ctx)


def _copy(args: CopyFileArgs, ctx: ToolContext) -> Envelope:
    source = ctx.read_target(args.source, field="source")
    destination = ctx.write_target(args.destination, field="destination")
    try:
        check_regular(os.stat(source.real), source.shown)
    except OSError as error:
        raise os_error(error, source.shown) from error
    if destination.exists:
        raise ToolError("ALREADY_EXISTS",
                        f"`{destination.shown}` exists already; choose another destination.")
    with ctx.session.locks.hold(destination.real):
        try:
            shutil.copyfile(source.real, destination.real)
        except OSError as error:
            raise os_error(error, destination.shown) from error
    return ok(f"Copied `{source.shown}` to `{destination.shown}`.",
              summary=f"Copied {source.shown} -> {destination.shown}")


DECLARATION = Declaration(
    name="copy_file",
    description=(
        "Copy a file in the workspace to a new path. The destination must not exist; nothing is "
        "overwritten."
    ),
    kind=ToolKind.EDIT,
    handler=copy_file,
    args_model=CopyFileArgs,
    destructive=False,
)
