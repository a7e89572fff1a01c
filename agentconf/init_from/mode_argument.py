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
}
_SWITCH_NAMES = ("mode", "command", "action", "operation", "op")
_QUOTED = re.compile(r"`([a-z_]+)`")
_LISTED = re.compile(r":\s*([a-z_]+(?:\s*,\s*[a-z_]+)+)")


def mode_switch(schema: dict[str, Any]) -> tuple[str, list[str]] | None:
    """The required string argument that picks the operation, and its options; None when the
    tool has none (a `mode` of literal/regex picks no operation: Serena's replace_content)."""
    listed_required = schema.get("required")
    required = listed_required if isinstance(listed_required, list) else []
    properties = schema.get("properties") or {}
    for name in _SWITCH_NAMES:
        prop = properties.get(name)
        if name not in required or not isinstance(prop, dict):
            continue
        options = prop.get("enum")
        if not isinstance(options, list):
            text = str(prop.get("description", ""))
            listed = _LISTED.search(text)
            options = _QUOTED.findall(text) or (
                [o.strip() for o in listed.group(1).split(",")] if listed else [])
        words = {word for known in MODE_WORDS.values() for word in known}
        if any(option in words for option in options):
            return name, [str(option) for option in options]
    return None


def mode_for(canonical: str, switch: tuple[str, list[str]]) -> str | None:
    return next((option for word in MODE_WORDS.get(canonical, ())
                 for option in switch[1] if option == word), None)


def for_other_mode(prop: dict[str, Any], mode: str, options: list[str]) -> bool:
    """Its description ties it to another mode ("Starting line number (for lines mode)")."""
    text = str(prop.get("description", ""))
    named = {option for option in options
             if re.search(rf"(?<![a-z_]){re.escape(option)}(?![a-z_])", text)}
    return bool(named) and mode not in named
