"""The `cmd:` stdio protocol: newline-delimited JSON-RPC 2.0 with two methods.

`tools/list` answers `{"tools": [{name, description, input_schema, kind?}]}`; `tools/call` with
`{"name", "arguments"}` answers the envelope. Anything else (`initialize`, `shutdown`, the
`$/cancelRequest` notification) is optional: "method not found" is a fine answer, and so is closing
on end of input.
"""

from typing import Any

from .envelope import envelope_json_schema
from .tools import ANNOTATION_HINTS

JSONRPC_PARSE_ERROR = -32700
JSONRPC_INVALID_REQUEST = -32600
JSONRPC_METHOD_NOT_FOUND = -32601
JSONRPC_INVALID_PARAMS = -32602
JSONRPC_INTERNAL_ERROR = -32603

METHOD_LIST = "tools/list"
METHOD_CALL = "tools/call"
# Optional requests: the peer's name, version and features; a polite end before end of input.
METHOD_INITIALIZE = "initialize"
METHOD_SHUTDOWN = "shutdown"
# Optional notification (LSP's name): stop the tools/call of `params.id` and answer it with a
# CANCELLED envelope (or its result, when it had finished). An implementation that honours it
# says so with `"cancel_request": true` in its initialize answer; the CANCEL clauses are n/a
# for one that does not.
METHOD_CANCEL = "$/cancelRequest"


_REQUEST_ID = {"type": ["integer", "string"]}
_TOOL = {
    "type": "object",
    "required": ["name", "input_schema"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "description": {"type": "string"},
        "input_schema": {"type": "object"},
        "kind": {"enum": ["read", "edit", "delete", "move", "other"]},
        # MCP's behaviour hints; an absent hint is not declared (the ANNOTATION clauses).
        "annotations": {
            "type": "object",
            "properties": {hint: {"type": "boolean"} for hint in ANNOTATION_HINTS},
        },
    },
}


def _message(id_schema: dict[str, Any], **fields: dict[str, Any]) -> dict[str, Any]:
    """A JSON-RPC 2.0 message object with `jsonrpc`, `id` and the given required fields."""
    return {
        "type": "object",
        "required": ["jsonrpc", "id", *fields],
        "properties": {"jsonrpc": {"const": "2.0"}, "id": id_schema, **fields},
    }


def _object(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


def protocol_json_schema() -> dict[str, Any]:
    envelope = envelope_json_schema()
    defs = envelope.pop("$defs", {})
    envelope.pop("$schema", None)
    envelope.pop("$id", None)
    messages = {
        "ListRequest": _message(_REQUEST_ID, method={"const": METHOD_LIST}),
        "CallRequest": _message(
            _REQUEST_ID,
            method={"const": METHOD_CALL},
            params=_object(["name", "arguments"], name={"type": "string"}, arguments={}),
        ),
        "ListResponse": _message(
            _REQUEST_ID,
            result=_object(["tools"], tools={"type": "array", "items": {"$ref": "#/$defs/Tool"}}),
        ),
        "CallResponse": _message(_REQUEST_ID, result={"$ref": "#/$defs/Envelope"}),
        "InitializeResponse": _message(
            _REQUEST_ID,
            result=_object(
                ["name"],
                name={"type": "string"},
                version={"type": "string"},
                contract_version={"type": "string"},
                cancel_request={"type": "boolean"},
            ),
        ),
        "CancelNotification": {
            "type": "object",
            "required": ["jsonrpc", "method", "params"],
            "not": {"required": ["id"]},
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "method": {"const": METHOD_CANCEL},
                "params": _object(["id"], id=_REQUEST_ID),
            },
        },
        "ShutdownResponse": _message(_REQUEST_ID, result={"type": "object", "maxProperties": 0}),
        "ErrorResponse": _message(
            {"type": ["integer", "string", "null"]},
            error=_object(
                ["code", "message"], code={"type": "integer"}, message={"type": "string"}
            ),
        ),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://agentconf.dev/schemas/protocol.schema.json",
        "title": "agentconf cmd: protocol message (one JSON object per line)",
        "$defs": {**defs, "Envelope": envelope, "Tool": _TOOL, **messages},
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in messages],
    }
