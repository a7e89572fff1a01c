"""Input schemas with their local `$ref`s written out in place, as one reads them.

A tool taking one model argument (`input: {"$ref": "#/$defs/ReadFileInput"}`, as FastMCP lists a
pydantic model parameter) names its fields only behind the reference: a kit that reads
`properties` alone sees an argument of no type and no fields. Every reader of a schema, the
drafter's and the run's, reads it through `inlined`; the `$defs` stay, so it is the same schema.
"""

from typing import Any

from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

_HERE = "urn:agentconf:input-schema"
# Deeper than any argument a profile maps (three levels), shallow enough for any recursion.
_DEPTH = 8


def inlined(schema: Any) -> Any:
    """`schema` with each local `$ref` (and an `allOf` of one) replaced by what it points at,
    siblings kept (a description beside the reference); a cycle stays a reference."""
    if not isinstance(schema, dict):
        return schema
    resolver = Registry().with_resource(_HERE, DRAFT202012.create_resource(schema)).resolver(_HERE)

    def walk(node: Any, seen: frozenset[str], depth: int) -> Any:
        if isinstance(node, list):
            return [walk(item, seen, depth) for item in node]
        if not isinstance(node, dict) or depth > _DEPTH:
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#") and ref not in seen:
            try:
                target = resolver.lookup(ref).contents
            except Unresolvable:
                target = None
            if isinstance(target, dict):
                siblings = {key: value for key, value in node.items() if key != "$ref"}
                return walk({**target, **siblings}, seen | {ref}, depth + 1)
        branches = node.get("allOf")
        if isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict):
            siblings = {key: value for key, value in node.items() if key != "allOf"}
            return walk({**branches[0], **siblings}, seen, depth)
        return {key: value if key in ("$defs", "definitions") else walk(value, seen, depth + 1)
                for key, value in node.items()}

    return walk(schema, frozenset(), 0)


def inlined_listing(tools: Any) -> Any:
    """A tools/list answer with every tool's input schema inlined; anything else as it is."""
    if not isinstance(tools, list):
        return tools
    return [{**tool, **{key: inlined(tool[key]) for key in ("input_schema", "inputSchema")
                        if key in tool}} if isinstance(tool, dict) else tool for tool in tools]
