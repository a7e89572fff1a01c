"""A listed tool's input schema as `init --from` reads it: its properties flattened to the
targets a profile names (`edits[0].oldText`), what is required, and what a property's words say
where the schema says nothing (a docstring's `Args:` line, a list's keys told in braces).

Pure: nothing here starts or calls anything.
"""

import re
from typing import Any

from agentconf.harness.session.argument_values import types_of


def schema_of(tool: dict[str, Any]) -> dict[str, Any]:
    """Its input schema, each property's description joined by what the tool's own `Args:`
    sections say of it (a Python docstring, as FastMCP lists it; one section per operation
    of a tool serving several, where the schema may say no more than which operation takes it)."""
    schema = tool.get("input_schema", tool.get("inputSchema")) or {}
    if not isinstance(schema, dict):
        return {}
    properties, said = schema.get("properties"), _args_said(str(tool.get("description") or ""))
    if not said or not isinstance(properties, dict):
        return schema
    return {**schema, "properties": {
        name: {**prop, "description": _joined(str(prop.get("description") or ""), said[name])}
        if isinstance(prop, dict) and name in said else prop
        for name, prop in properties.items()}}


_ARGS_SECTION = re.compile(r"(?m)^[ \t]*(?:Args|Arguments|Parameters):[ \t]*\n((?:[ \t]+\S.*\n?)+)")
_ARG_LINE = re.compile(r"(?m)^[ \t]+(\w[\w-]*)[ \t]*(?:\([^)\n]*\))?:[ \t]*(\S.*)$")


def _args_said(description: str) -> dict[str, list[str]]:
    said: dict[str, list[str]] = {}
    for section in _ARGS_SECTION.finditer(description):
        for name, text in _ARG_LINE.findall(section.group(1)):
            if text not in said.setdefault(name, []):
                said[name].append(text)
    return said


def _joined(described: str, said: list[str]) -> str:
    return " ".join([described, *(text for text in said if text not in described)]).strip()


def flat_properties(schema: dict[str, Any], prefix: str = "",
                    depth: int = 0) -> dict[str, dict[str, Any]]:
    """target -> property schema: top-level properties, `obj.sub`, `list[0].sub` for a list
    of objects (server-filesystem's edits[0].oldText, mcp-text-editor's
    files[0].ranges[0].start), three levels deep, and `list[0]` for a list of strings
    (@shtse8/filesystem-mcp's read_content takes its files in `paths`)."""
    found: dict[str, dict[str, Any]] = {}
    properties = schema.get("properties") if isinstance(schema, dict) else None
    for name, prop in (properties or {}).items():
        if not isinstance(prop, dict):
            continue
        target = f"{prefix}{name}"
        found[target] = prop
        inner, step = prop, "."
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            inner, step = _described_items(prop), "[0]."
            if types_of(inner) == {"string"}:
                found[f"{target}[0]"] = inner
        if depth < 2 and isinstance(inner.get("properties"), dict):
            found.update(flat_properties(inner, f"{target}{step}", depth + 1))
    return found


_BRACED = re.compile(r"\{\s*\"?([A-Za-z_][\w-]*)\"?\s*(?::[^,{}]*)?(?:,\s*\"?([A-Za-z_][\w-]*)\"?"
                     r"\s*(?::[^,{}]*)?)+\s*\}")


def _described_items(prop: dict[str, Any]) -> dict[str, Any]:
    """A list's items; where they are objects whose keys only the description names
    (`edits`: "a list of {oldText, newText}"), those keys as text properties."""
    items: dict[str, Any] = prop["items"]
    if items.get("properties") or types_of(items) - {"object"}:
        return items
    said = _BRACED.search(str(prop.get("description") or ""))
    if said is None:
        return items
    names = re.findall(r"[A-Za-z_][\w-]*(?=\"?\s*(?::|,|\}))", said.group(0))
    return {**items, "type": "object",
            "properties": {name: {"type": "string"} for name in names}}


def required_target(schema: dict[str, Any], target: str) -> bool:
    """Every step of `target` is required (`files[0].ranges[0].start`: files, ranges, start)."""
    node: Any = schema
    for step in target.split("."):
        name = step.split("[", 1)[0]
        if not isinstance(node, dict) or name not in required_of(node):
            return False
        node = (node.get("properties") or {}).get(name, {})
        if "[" in step:
            node = node.get("items", {}) if isinstance(node, dict) else {}
    return True


def required_of(schema: dict[str, Any]) -> list[str]:
    required = schema.get("required")
    return [str(name) for name in required] if isinstance(required, list) else []
