"""MCP answers -> the contract's envelope dicts: a tool's listing entry with its annotations, a
call's result, and a protocol error, with the error code read from structured content or text
where the server gives one."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from agentconf.contract.tools import ANNOTATION_HINTS, READ_ONLY_HINT

# JSON-RPC 2.0 codes the mapping cares about.
_METHOD_NOT_FOUND = -32601
_INVALID_PARAMS = -32602



def tool_entry(tool: types.Tool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description or "",
        "input_schema": tool.input_schema,
    }
    annotations = _annotations(tool.annotations)
    if annotations:
        entry["annotations"] = annotations
    hint = annotations.get(READ_ONLY_HINT)
    # MCP only says read-only or not; not-read-only tools must run alone, which is ToolKind.OTHER.
    if hint is not None:
        entry["kind"] = "read" if hint else "other"
    return entry


def _annotations(annotations: types.ToolAnnotations | None) -> dict[str, bool]:
    """The hints the server declares, as MCP spells them; an undeclared hint is left out, so a
    tool without hints is n/a for the ANNOTATION clauses rather than judged on MCP's defaults."""
    if annotations is None:
        return {}
    wire = annotations.model_dump(by_alias=True, exclude_none=True)
    return {hint: wire[hint] for hint in ANNOTATION_HINTS if isinstance(wire.get(hint), bool)}


_ENVELOPE_EXTRAS: dict[str, type] = {
    "summary": str, "diff": str, "issues": list, "denial": dict, "exit_code": int}


def envelope_from_result(result: types.CallToolResult) -> dict[str, Any]:
    """MCP's `{content, structuredContent, isError}` as an envelope dict."""
    data = "\n".join(_block_text(block) for block in result.content)
    envelope: dict[str, Any] = {"success": not result.is_error, "data": data}
    structured = result.structured_content
    code = _code_from_structured(structured) or _code_from_text(data)
    if code is not None:
        envelope["error"] = code
    if isinstance(structured, dict):
        # A server that returns the contract's envelope as structured content keeps its extras;
        # a field of the tool's own output that only shares a name (a `summary` of counts) is
        # not one of them, and stays in structured_content alone.
        for field, kind in _ENVELOPE_EXTRAS.items():
            value = structured.get(field)
            if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
                envelope[field] = value
    if structured is not None:
        # Kept whole for a profile's [tools.<tool>].result places (harness/session/answers.py).
        envelope["structured_content"] = structured
    return envelope


def envelope_from_protocol_error(
    error: MCPError, *, advertised: bool, object_arguments: bool = True
) -> dict[str, Any]:
    """A JSON-RPC error answer to tools/call, as a failure envelope that still says what it was.

    The code is only what the error itself settles: a name the server does not advertise is
    TOOL_NOT_FOUND, "invalid params" (or any refusal of arguments that were not an object, which
    MCP's schema forbids) is INVALID_ARGS; anything else is left to the profile's patterns.
    """
    envelope: dict[str, Any] = {
        "success": False,
        "data": error.message or f"JSON-RPC error {error.code}",
        "protocol_error": {"code": error.code, "message": error.message},
    }
    if not advertised or error.code == _METHOD_NOT_FOUND:
        envelope["error"] = "TOOL_NOT_FOUND"
    elif error.code == _INVALID_PARAMS or not object_arguments:
        envelope["error"] = "INVALID_ARGS"
    return envelope


def unparsed_line(error: Exception) -> str:
    """The line a parse error was about (pydantic keeps it as the error's input), else the error."""
    with contextlib.suppress(Exception):
        line = error.errors()[0]["input"]  # type: ignore[attr-defined]
        if isinstance(line, str | bytes):
            return str(line if isinstance(line, str) else line.decode("utf-8", "replace"))[:200]
    return (str(error).splitlines() or [type(error).__name__])[0][:200]


def _block_text(block: Any) -> str:
    if isinstance(block, types.TextContent):
        return block.text
    mime = getattr(block, "mime_type", None) or getattr(
        getattr(block, "resource", None), "mime_type", None
    )
    return f"[{block.type} content{f': {mime}' if mime else ''}]"


def _code_from_structured(structured: Any) -> str | None:
    if not isinstance(structured, dict):
        return None
    return _code_of(structured.get("error"))


def _code_from_text(text: str) -> str | None:
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    try:
        parsed = json.loads(stripped)
    except ValueError:
        return None
    return _code_of(parsed.get("error")) if isinstance(parsed, dict) else None


def _code_of(error: Any) -> str | None:
    if isinstance(error, str) and error:
        return error
    if isinstance(error, dict) and isinstance(error.get("code"), str) and error["code"]:
        return error["code"]
    return None
