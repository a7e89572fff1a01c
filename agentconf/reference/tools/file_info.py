"""file_info: what a path is — kind, size, line count, permissions — without reading it as text.

The reference's deferred tool (Claude Code): useful now and then, not worth a place in every
prompt, so it is only listed once tool_search has revealed it. It is also the reference's tool
declared with a plain JSON Schema rather than a pydantic model: it validates through the
jsonschema track and answers with the same issues a model-declared tool would.
"""

import asyncio
import os
import stat
from typing import Any

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Declaration
from ..results import ok
from ..sandbox.binary import SNIFF_BYTES, looks_binary
from ..sandbox.files import human_size, open_regular
from ..sandbox.paths import os_error

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File or folder, relative to the workspace root."}
    },
    "required": ["path"],
    "additionalProperties": False,
}


async def file_info(args: dict[str, Any], ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_info, args["path"], ctx)


def _info(raw_path: str, ctx: ToolContext) -> Envelope:
    target = ctx.read_target(raw_path)
    try:
        info = os.stat(target.real)
    except OSError as error:
        raise os_error(error, target.shown) from error
    mode = stat.filemode(info.st_mode)
    if stat.S_ISDIR(info.st_mode):
        count = len(os.listdir(target.real))
        return ok(f"`{target.shown}`: folder, {count} entries, mode {mode}.")
    if not stat.S_ISREG(info.st_mode):
        return ok(f"`{target.shown}`: special file (not regular), mode {mode}.")
    with open_regular(target.real, target.shown) as (file, _):
        head = file.read(SNIFF_BYTES)
        binary = looks_binary(head, complete=len(head) < SNIFF_BYTES)
        chunks = iter(lambda: file.read(1 << 20), b"")  # counted a MiB at a time, never held whole
        lines = head.count(b"\n") + sum(chunk.count(b"\n") for chunk in chunks)
    kind = "binary file" if binary else "text file"
    return ok(
        f"`{target.shown}`: {kind}, {human_size(info.st_size)}, {lines} line breaks, mode {mode}."
    )


DECLARATION = Declaration(
    name="file_info",
    description=(
        "Describe a file or folder without reading it: kind (text, binary, folder), size, "
        "number of lines and permission bits."
    ),
    kind=ToolKind.READ,
    handler=file_info,
    json_schema=SCHEMA,
    deferred=True,
)
