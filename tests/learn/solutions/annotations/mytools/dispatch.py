"""The tool table (in a fixed order) and the one way a call is run: find, check, run, answer.

Whatever a tool raises becomes an envelope here: `Refused` as its own code, an operating system
error as IO_ERROR, anything else as EXECUTION_ERROR (an invalid grep pattern ends up there too).
Messages built from exceptions carry no file names, so no absolute path leaks into them.

The permission gate (gate.py) is asked after the arguments are checked and before the tool
runs. Each tool declares its kind and MCP's annotation hints: a caller may run read tools
together and ask before a destructive one, so every hint must be true of what the tool does on
the disk.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import gate, tool_bash, tool_edit, tool_grep, tool_list, tool_read, tool_write
from .checks import conform
from .envelope import Envelope, Refused
from .workspace import Workspace

EXCEPTION_WORDS = 300


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    schema: dict[str, Any]
    run: Callable[[Workspace, dict[str, Any]], Envelope]
    kind: str  # read, edit or other (dskcode's ToolKind)
    destructive: bool = False  # it can change or remove what exists
    idempotent: bool = False  # the same call twice leaves what one call leaves

    def listing(self) -> dict[str, Any]:
        hints = {"readOnlyHint": self.kind == "read"}
        if self.kind != "read":
            hints |= {"destructiveHint": self.destructive, "idempotentHint": self.idempotent}
        return {"name": self.name, "description": self.description, "input_schema": self.schema,
                "kind": self.kind, "annotations": hints}


TOOLS = (
    Tool("read_file", tool_read.DESCRIPTION, tool_read.SCHEMA, tool_read.read_file, "read"),
    Tool("write_file", tool_write.DESCRIPTION, tool_write.SCHEMA, tool_write.write_file, "edit",
         destructive=True, idempotent=True),
    Tool("edit_file", tool_edit.DESCRIPTION, tool_edit.SCHEMA, tool_edit.edit_file, "edit",
         destructive=True),
    Tool("list_files", tool_list.DESCRIPTION, tool_list.SCHEMA, tool_list.list_files, "read"),
    Tool("grep", tool_grep.DESCRIPTION, tool_grep.SCHEMA, tool_grep.grep, "read"),
    Tool("bash", tool_bash.DESCRIPTION, tool_bash.SCHEMA, tool_bash.bash, "other",
         destructive=True),
)
BY_NAME = {tool.name: tool for tool in TOOLS}


def listing() -> list[dict[str, Any]]:
    return [tool.listing() for tool in TOOLS]


def call(ws: Workspace, name: Any, arguments: Any) -> Envelope:
    tool = BY_NAME.get(name) if isinstance(name, str) else None
    if tool is None:
        return Refused("TOOL_NOT_FOUND", f"No tool here is called {name!r}; the tools are "
                       + ", ".join(BY_NAME) + ".").envelope()
    try:
        clean = conform(tool.schema, arguments)
        denied = gate.denial(ws.deny, ws.jail, tool.name, clean)
        return denied if denied is not None else tool.run(ws, clean)
    except Refused as refusal:
        return refusal.envelope()
    except OSError as error:
        words = f"{tool.name} failed in the operating system: {error.strerror or 'unknown error'}."
        return Refused("IO_ERROR", words).envelope()
    except Exception as error:  # a bug or an unforeseen input: an answer, never a crash
        detail = str(error)[:EXCEPTION_WORDS].encode("utf-8", "backslashreplace").decode()
        words = f"{tool.name} broke down: {type(error).__name__}: {detail}"
        return Refused("EXECUTION_ERROR", words).envelope()
