"""The `cmd:` stdio protocol: newline-delimited JSON-RPC 2.0 with two methods.

`tools/list` answers `{"tools": [{name, description, input_schema, kind?}]}`; `tools/call` with
`{"name", "arguments"}` answers the envelope. Anything else (`initialize`, `shutdown`) is optional:
"method not found" is a fine answer, and so is closing on end of input.
"""

from typing import Any

from .envelope import envelope_json_schema

JSONRPC_PARSE_ERROR = -32700
JSONRPC_INVALID_REQUEST = -32600
JSONRPC_METHOD_NOT_FOUND = -32601
JSONRPC_INVALID_PARAMS = -32602
JSONRPC_INTERNAL_ERROR = -32603

METHOD_LIST = "tools/list"
METHOD_CALL = "tools/call"
OPTIONAL_METHODS = ("initialize", "shutdown")


def protocol_json_schema() -> dict[str, Any]:
    envelope = envelope_json_schema()
    defs = envelope.pop("$defs", {})
    envelope.pop("$schema", None)
    envelope.pop("$id", None)
    tool = {
        "type": "object",
        "required": ["name", "input_schema"],
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "description": {"type": "string"},
            "input_schema": {"type": "object"},
            "kind": {"enum": ["read", "edit", "delete", "move", "other"]},
        },
    }
    request_id = {"type": ["integer", "string"]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://agentconf.dev/schemas/protocol.schema.json",
        "title": "agentconf cmd: protocol message (one JSON object per line)",
        "$defs": {
            **defs,
            "Envelope": envelope,
            "Tool": tool,
            "ListRequest": {
                "type": "object",
                "required": ["jsonrpc", "id", "method"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": request_id,
                    "method": {"const": METHOD_LIST},
                },
            },
            "CallRequest": {
                "type": "object",
                "required": ["jsonrpc", "id", "method", "params"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": request_id,
                    "method": {"const": METHOD_CALL},
                    "params": {
                        "type": "object",
                        "required": ["name", "arguments"],
                        "properties": {"name": {"type": "string"}, "arguments": {}},
                    },
                },
            },
            "ListResponse": {
                "type": "object",
                "required": ["jsonrpc", "id", "result"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": request_id,
                    "result": {
                        "type": "object",
                        "required": ["tools"],
                        "properties": {"tools": {"type": "array", "items": {"$ref": "#/$defs/Tool"}}},
                    },
                },
            },
            "CallResponse": {
                "type": "object",
                "required": ["jsonrpc", "id", "result"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": request_id,
                    "result": {"$ref": "#/$defs/Envelope"},
                },
            },
            "InitializeResponse": {
                "type": "object",
                "required": ["jsonrpc", "id", "result"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": request_id,
                    "result": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "version": {"type": "string"},
                            "contract_version": {"type": "string"},
                        },
                    },
                },
            },
            "ShutdownResponse": {
                "type": "object",
                "required": ["jsonrpc", "id", "result"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": request_id,
                    "result": {"type": "object", "maxProperties": 0},
                },
            },
            "ErrorResponse": {
                "type": "object",
                "required": ["jsonrpc", "id", "error"],
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": {"type": ["integer", "string", "null"]},
                    "error": {
                        "type": "object",
                        "required": ["code", "message"],
                        "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
                    },
                },
            },
        },
        "oneOf": [
            {"$ref": f"#/$defs/{name}"}
            for name in (
                "ListRequest", "CallRequest", "ListResponse", "CallResponse",
                "InitializeResponse", "ShutdownResponse", "ErrorResponse",
            )
        ],
    }
