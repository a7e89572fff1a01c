"""read_multiple_files{paths}: several text files in one answer, each under its own heading.

The official MCP filesystem server's tool. Every path goes through the one resolver and
read_regular, as read_file's do; one path that is refused fails the whole call (nothing is
returned), so no file outside the root can come back beside the others.
"""

import asyncio

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.binary import looks_binary
from ..sandbox.files import read_regular


class ReadMultipleFilesArgs(Arguments):
    paths: list[str] = Field(min_length=1, description="Files to read, relative to the root.")


async def read_multiple_files(args: ReadMultipleFilesArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_read_all, args.paths, ctx)


def _read_all(raw_paths: list[str], ctx: ToolContext) -> Envelope:
    parts = []
    for index, raw in enumerate(raw_paths):
        target = ctx.read_target(raw, field=f"paths[{index}]")
        data, _ = read_regular(target.real, target.shown, ctx.limits.max_read_bytes)
        if looks_binary(data[:8192], complete=len(data) <= 8192):
            raise ToolError("BINARY_FILE", f"`{target.shown}` is binary, not text.")
        parts.append(f"==> {target.shown} <==\n{data.decode('utf-8')}")
    return ok("\n".join(parts))


DECLARATION = Declaration(
    name="read_multiple_files",
    description=(
        "Read several text files of the workspace at once; each comes under a `==> path <==` "
        "heading. Fails as a whole if any path cannot be read."
    ),
    kind=ToolKind.READ,
    handler=read_multiple_files,
    args_model=ReadMultipleFilesArgs,
)
