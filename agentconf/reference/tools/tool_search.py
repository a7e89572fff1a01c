"""tool_search: find tools by a word of their name or description, and reveal deferred ones.

Claude Code (its ToolSearch): rarely used tools are deferred — left out of the listing so
their schemas do not cost every prompt — and a search reveals them. A revealed tool is listed and
callable for the rest of the session, so the advertised set stays the callable set (the registry
filters both through one rule). Any enabled tool can be found; only deferred ones need revealing.
"""

import json

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ok


class ToolSearchArgs(Arguments):
    query: str = Field(
        min_length=1, description="Words to look for in tool names and descriptions."
    )


async def tool_search(args: ToolSearchArgs, ctx: ToolContext) -> Envelope:
    matches = ctx.catalogue.search(args.query)
    if not matches:
        hidden = ", ".join(declaration.name for declaration in ctx.catalogue.deferred()) or "none"
        return ok(
            f"No tool matches {json.dumps(args.query)}. Tools that a search can reveal: {hidden}."
        )
    revealed = [declaration.name for declaration in matches if declaration.deferred]
    ctx.session.revealed.update(revealed)
    plural, verb = ("", "matches") if len(matches) == 1 else ("s", "match")
    parts = [f"{len(matches)} tool{plural} {verb} {json.dumps(args.query)}:"]
    for declaration in matches:
        state = " (revealed: now listed and callable)" if declaration.name in revealed else ""
        parts.append(
            f"\n{declaration.name}{state}\n{declaration.description}\n"
            f"input_schema: {json.dumps(declaration.input_schema, sort_keys=True)}"
        )
    return ok("\n".join(parts))


DECLARATION = Declaration(
    name="tool_search",
    description=(
        "Search the available tools by name or keyword. Returns each match's description and "
        "input schema, and makes deferred tools (not listed until found) callable."
    ),
    kind=ToolKind.READ,
    handler=tool_search,
    args_model=ToolSearchArgs,
)
