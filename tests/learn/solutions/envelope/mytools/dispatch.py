"""What the model is shown, and what runs when it calls a tool.

Every call ends in an envelope: a `Refused` as its own code, an operating system error as
IO_ERROR, anything else as EXECUTION_ERROR. A model can recover from an answer, not from a crash.
"""

from typing import Any

from . import tool_bash, tool_edit, tool_grep, tool_list, tool_read, tool_write
from .envelope import Envelope, Refused
from .workspace import Workspace

# The tools as the model sees them.
LISTING = [
    {"name": "read_file", "description": tool_read.DESCRIPTION, "input_schema": tool_read.SCHEMA},
    {"name": "write_file", "description": tool_write.DESCRIPTION,
     "input_schema": tool_write.SCHEMA},
    {"name": "edit_file", "description": tool_edit.DESCRIPTION, "input_schema": tool_edit.SCHEMA},
    {"name": "list_files", "description": tool_list.DESCRIPTION, "input_schema": tool_list.SCHEMA},
    {"name": "grep", "description": tool_grep.DESCRIPTION, "input_schema": tool_grep.SCHEMA},
    {"name": "bash", "description": tool_bash.DESCRIPTION, "input_schema": tool_bash.SCHEMA},
]

# The functions that run them.
HANDLERS = {
    "read_file": tool_read.read_file,
    "write_file": tool_write.write_file,
    "edit_file": tool_edit.edit_file,
    "list_dir": tool_list.list_files,
    "grep": tool_grep.grep,
    "bash": tool_bash.bash,
}


def listing() -> list[dict[str, Any]]:
    return LISTING


def call(ws: Workspace, name: Any, arguments: Any) -> Envelope:
    handler = HANDLERS.get(name) if isinstance(name, str) else None
    if handler is None:
        return Refused("TOOL_NOT_FOUND", f"No tool here is called {name!r}.").envelope()
    try:
        return handler(ws, arguments)
    except Refused as refusal:
        return refusal.envelope()
    except OSError as error:
        words = f"{name} failed in the operating system: {error.strerror or 'unknown error'}."
        return Refused("IO_ERROR", words).envelope()
    except Exception as error:  # a bug or an unforeseen input: an answer, never a crash
        return Refused("EXECUTION_ERROR", f"{name} broke down: {type(error).__name__}: "
                       f"{str(error)[:300]}").envelope()
