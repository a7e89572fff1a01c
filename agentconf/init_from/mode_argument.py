"""`agentconf init --from`: one tool, several canonical tools, told apart by a mode argument
(strands-agents-tools' `file_read` with mode view/find/search, its `editor` with command
str_replace): each canonical tool is drafted as the same tool with its mode as a default, and
only the arguments of that mode.
"""

import re
from typing import Any

# The operations a mode's option may name, for each canonical tool.
MODE_WORDS: dict[str, tuple[str, ...]] = {
    "read_file": ("view", "read", "cat"),
    "write_file": ("create", "write"),
    "edit_file": ("str_replace", "replace", "edit"),
    "list_files": ("find", "list", "ls", "glob", "view"),  # view: a folder's view (OpenHands)
    "grep": ("search", "grep"),
    # The optional path tools (`create` is left out: it is a write's word as often as a folder's)
    "delete_file": ("delete", "remove", "rm"),
    "move_file": ("move", "rename", "mv"),
    "copy_file": ("copy", "cp"),
    "make_directory": ("mkdir", "make_directory", "create_directory"),
    "file_info": ("get_info", "info", "stat"),
}
_SWITCH_NAMES = ("mode", "command", "action", "operation", "op")
_QUOTED = re.compile(r"`([a-z_]+)`")
_LISTED = re.compile(r":\s*([a-z_]+(?:\s*,\s*[a-z_]+)+)")
_OPTION = re.compile(r"""["'`]([a-z_]+)["'`]""")


def mode_switch(schema: dict[str, Any], description: str = "") -> tuple[str, list[str]] | None:
    """The required string argument that picks the operation, and its options; None when the
    tool has none (a `mode` of literal/regex picks no operation: Serena's replace_content).
    Its options are its enum, else what its own description lists, else what the tool's
    description lists under its name (a docstring's `action: "write" | "append"`)."""
    listed_required = schema.get("required")
    required = listed_required if isinstance(listed_required, list) else []
    properties = schema.get("properties") or {}
    # In the listing's own case (`Op`, `Action`), in the order of _SWITCH_NAMES.
    named = sorted((name for name in properties if str(name).lower() in _SWITCH_NAMES),
                   key=lambda name: _SWITCH_NAMES.index(str(name).lower()))
    for name in named:
        prop = properties.get(name)
        if name not in required or not isinstance(prop, dict):
            continue
        options = prop.get("enum")
        if not isinstance(options, list):
            text = str(prop.get("description", ""))
            listed = _LISTED.search(text)
            options = _QUOTED.findall(text) or (
                [o.strip() for o in listed.group(1).split(",")] if listed else []
            ) or _options_under(description, name)
        words = {word for known in MODE_WORDS.values() for word in known}
        if any(option in words for option in options):
            return name, [str(option) for option in options]
    return None


def _options_under(text: str, name: str) -> list[str]:
    """The quoted words on the line of a description that names the argument (`name: ...`) and
    on the lines indented below it (a docstring's `Args:` section, options as a list)."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        named = re.match(rf"(\s*){re.escape(name)}\s*:(.*)", line)
        if named is None:
            continue
        block = [named.group(2)]
        for below in lines[at + 1:]:
            if below.strip() and len(below) - len(below.lstrip()) <= len(named.group(1)):
                break
            block.append(below)
        if found := _OPTION.findall("\n".join(block)):
            return found
    return []


def mode_for(canonical: str, switch: tuple[str, list[str]]) -> str | None:
    return next((option for word in MODE_WORDS.get(canonical, ())
                 for option in switch[1] if option == word), None)


def for_other_mode(prop: dict[str, Any], mode: str, options: list[str]) -> bool:
    """Its description ties it to another mode ("Starting line number (for lines mode)")."""
    text = str(prop.get("description", ""))
    named = {option for option in options
             if re.search(rf"(?<![a-z_]){re.escape(option)}(?![a-z_])", text)}
    return bool(named) and mode not in named
