"""make_directory: create a folder, with any missing parents, and never touch what exists.

The reference's additive tool: it is annotated non-destructive and idempotent (MCP's
destructiveHint false, idempotentHint true, as the official filesystem server's create_directory),
and keeps both claims — a folder that exists already is a success that changes nothing, a file in
the way is refused, and nothing is ever removed or rewritten (ANNOTATION-02, ANNOTATION-03).
"""

import asyncio
import os

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.paths import os_error


class MakeDirectoryArgs(Arguments):
    path: str = Field(description="Folder to create, relative to the workspace root.")


async def make_directory(args: MakeDirectoryArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_make, args.path, ctx)


def _make(raw_path: str, ctx: ToolContext) -> Envelope:
    target = ctx.write_target(raw_path)
    if target.real.is_dir():
        return ok(f"`{target.shown}` is already a folder; nothing changed.")
    if target.exists:
        raise ToolError(
            "ALREADY_EXISTS",
            f"`{target.shown}` exists and is not a folder; choose another name.",
        )
    try:
        # exist_ok: a folder made by a concurrent call in between is the same success.
        os.makedirs(target.real, exist_ok=True)
    except OSError as error:
        raise os_error(error, target.shown) from error
    return ok(f"Created the folder `{target.shown}`.", summary=f"Created {target.shown}/")


DECLARATION = Declaration(
    name="make_directory",
    description=(
        "Create a folder in the workspace, with any missing parent folders. A folder that "
        "exists already is left as it is; nothing is ever removed or overwritten."
    ),
    kind=ToolKind.EDIT,
    handler=make_directory,
    args_model=MakeDirectoryArgs,
    destructive=False,
    idempotent=True,
)
