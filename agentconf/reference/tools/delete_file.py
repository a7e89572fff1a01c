"""delete_file{path}: remove one file (never a folder) from the workspace.

Confined by the one resolver like every write: a link that leads out is refused, and a folder is
refused with IS_DIRECTORY, so one call removes at most one file.
"""

import asyncio
import os
import stat

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ok
from ..sandbox.files import check_regular
from ..sandbox.paths import os_error


class DeleteFileArgs(Arguments):
    path: str = Field(description="File to delete, relative to the workspace root.")


async def delete_file(args: DeleteFileArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_delete, args.path, ctx)


def _delete(raw_path: str, ctx: ToolContext) -> Envelope:
    target = ctx.write_target(raw_path)
    with ctx.session.locks.hold(target.real):
        try:
            info = os.stat(target.real)
            if not stat.S_ISFIFO(info.st_mode):
                check_regular(info, target.shown)
            os.unlink(target.real)
        except OSError as error:
            raise os_error(error, target.shown) from error
    return ok(f"Deleted `{target.shown}`.", summary=f"Deleted {target.shown}")


DECLARATION = Declaration(
    name="delete_file",
    description="Delete one file from the workspace. Folders are not deleted.",
    kind=ToolKind.DELETE,
    handler=delete_file,
    args_model=DeleteFileArgs,
    destructive=True,
)
