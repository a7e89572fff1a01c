"""directory_tree{path}: a folder's files and folders as an indented tree.

The official MCP filesystem server's tool, as text. The same walk as list_files (links listed by
name, never followed), so a link out of the root reveals nothing; bounded to the output budget.
"""

import asyncio
import os
import stat

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.paths import os_error
from .list_files import walk_relative


class DirectoryTreeArgs(Arguments):
    path: str = Field(default=".", description="Folder to show, relative to the root.")


async def directory_tree(args: DirectoryTreeArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_tree, args.path, ctx)


def _tree(raw_path: str, ctx: ToolContext) -> Envelope:
    target = ctx.read_target(raw_path)
    try:
        info = os.stat(target.real)
    except OSError as error:
        raise os_error(error, target.shown) from error
    if not stat.S_ISDIR(info.st_mode):
        raise ToolError("NOT_A_DIRECTORY", f"`{target.shown}` is a file, not a folder.")
    lines, used = [f"{target.shown}/"], 0
    for entry in walk_relative(target.real, target.real):
        name = entry.rstrip("/")
        line = "  " * (name.count("/") + 1) + name.rsplit("/", 1)[-1] + entry[len(name):]
        used += len(line) + 1
        if used > ctx.limits.max_output_chars:
            lines.append(f"[tree cut after {len(lines) - 1} entries; show a subfolder]")
            break
        lines.append(line)
    return ok("\n".join(lines))


DECLARATION = Declaration(
    name="directory_tree",
    description=(
        "Show a folder of the workspace as an indented tree of its files and folders (folders "
        "end with `/`); links are shown, not followed."
    ),
    kind=ToolKind.READ,
    handler=directory_tree,
    args_model=DirectoryTreeArgs,
)
