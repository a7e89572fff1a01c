"""move_file{source, destination}: move or rename a file or folder inside the workspace.

The official MCP filesystem server's move_file: both ends confined by the one resolver (real
paths, links followed, a missing tail appended), and the destination must not exist, so a move
never replaces anything (it fails with ALREADY_EXISTS instead).
"""

import asyncio
import os

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.paths import os_error


class MoveFileArgs(Arguments):
    source: str = Field(description="File or folder to move, relative to the workspace root.")
    destination: str = Field(description="Where it goes, relative to the root; must not exist.")


async def move_file(args: MoveFileArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_move, args, ctx)


def _move(args: MoveFileArgs, ctx: ToolContext) -> Envelope:
    source = ctx.write_target(args.source, field="source")
    destination = ctx.write_target(args.destination, field="destination")
    if not source.exists:
        raise ToolError("NOT_FOUND", f"`{source.shown}` does not exist; nothing was moved.")
    if destination.exists:
        raise ToolError("ALREADY_EXISTS",
                        f"`{destination.shown}` exists already; choose another destination.")
    if source.real == ctx.root:
        raise ToolError("PERMISSION_DENIED", "The workspace root itself cannot be moved.")
    with ctx.session.locks.hold(source.real), ctx.session.locks.hold(destination.real):
        try:
            os.rename(source.real, destination.real)
        except OSError as error:
            raise os_error(error, destination.shown) from error
    return ok(f"Moved `{source.shown}` to `{destination.shown}`.",
              summary=f"Moved {source.shown} -> {destination.shown}")


DECLARATION = Declaration(
    name="move_file",
    description=(
        "Move or rename a file or folder in the workspace. The destination must not exist; "
        "missing parent folders of the destination are not created."
    ),
    kind=ToolKind.MOVE,
    handler=move_file,
    args_model=MoveFileArgs,
    destructive=True,
)
