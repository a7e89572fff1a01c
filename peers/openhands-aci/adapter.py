"""openhands-aci 0.3.3's file editor, as OpenHands hands it to a model, in process.

create(workspace) builds one OHEditor(workspace_root=root) per workspace, as OpenHands' action
executor keeps one editor per sandbox (its undo history is per instance, so nothing leaks
between checks). The model sees one tool, `str_replace_editor`, declared here with the
properties of OpenHands' own declaration (CodeActAgent's tools/str_replace_editor.py; its
`security_risk` field is left out: the editor never reads it).

A call goes the way OpenHands takes it (agenthub/codeact_agent/function_calling.py, then
runtime/action_execution_server.py): a missing `command` or `path` and, for every command but
`view`, an argument the declaration does not name are refused with OpenHands' words; `view`
gets only its view_range; the editor's ToolError comes back as `ERROR:\n<message>`. Any other
exception is the editor's own and is left to surface. OpenHands runs one action at a time (a
lock in ActionExecutor.run_action), so the profile says there is no concurrency.
"""

from typing import Any

from openhands_aci.editor import OHEditor, ToolError

_TOOL = "str_replace_editor"
_COMMANDS = ["view", "create", "str_replace", "insert", "undo_edit"]
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": _COMMANDS,
                    "description": "The command to run: " + ", ".join(_COMMANDS) + "."},
        "path": {"type": "string",
                 "description": "Absolute path to a file or folder, e.g. /workspace/file.py."},
        "file_text": {"type": "string", "description": "create: the new file's content."},
        "old_str": {"type": "string", "description": "str_replace: the text to replace."},
        "new_str": {"type": "string",
                    "description": "str_replace: the replacement; insert: the text to insert."},
        "insert_line": {"type": "integer",
                        "description": "insert: new_str goes after this line."},
        "view_range": {"type": "array", "items": {"type": "integer"},
                       "description": "view: [start, end] lines, 1-based; end -1 to the end."},
    },
    "required": ["command", "path"],
}
_DESCRIPTION = (
    "Custom editing tool for viewing, creating and editing files in plain-text format.\n"
    "* `view` of a file shows it as `cat -n` does; of a folder, its entries two levels deep.\n"
    "* `create` cannot be used when `path` already exists.\n"
    "* `str_replace` replaces old_str, which must occur exactly once, with new_str.\n"
    "* Long output is truncated and marked with `<response clipped>`.\n"
    "* `undo_edit` reverts the last edit of the file at `path`."
)


class OpenHandsEditor:
    name = "openhands-aci"

    def __init__(self, root: str) -> None:
        self.editor = OHEditor(workspace_root=root)

    def list_tools(self) -> list[dict[str, Any]]:
        return [{"name": _TOOL, "description": _DESCRIPTION, "input_schema": _SCHEMA}]

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if name != _TOOL:
            return _refused(f"Tool {name} is not registered. (arguments: {arguments}). Please "
                            "check the tool name and retry with an existing tool.")
        for required in ("command", "path"):
            if not isinstance(arguments, dict) or required not in arguments:
                return _refused(f'Missing required argument "{required}" in tool call {_TOOL}')
        others = {k: v for k, v in arguments.items() if k not in ("command", "path")}
        if arguments["command"] == "view":
            others = {"view_range": others.get("view_range")}
        else:
            others.pop("view_range", None)
            allowed = set(_SCHEMA["properties"])
            for key in others:
                if key not in allowed:
                    return _refused(f"Unexpected argument {key} in tool call {_TOOL}. "
                                    f"Allowed arguments are: {allowed}")
        try:
            result = self.editor(command=arguments["command"], path=arguments["path"], **others)
        except ToolError as error:
            return _refused(f"ERROR:\n{error.message}")
        if result.error:
            return _refused(f"ERROR:\n{result.error}")
        return {"success": True, "data": result.output or ""}


def _refused(text: str) -> dict[str, Any]:
    return {"success": False, "data": text}


def create(workspace: Any) -> OpenHandsEditor:
    return OpenHandsEditor(str(workspace.root))
