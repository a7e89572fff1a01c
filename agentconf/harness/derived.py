"""Capabilities derived from the implementation's own schemas, not guessed.

A feature that needs an argument (a line window needs start_line and end_line) is absent when
the mapped tool's input schema has no property for it, unless the profile says otherwise under
[capabilities]: READ-06 is then n/a with a note naming the key to set, not a MUST failure.
"""

import re
from typing import Any

from .profile import Profile

# capability -> (canonical tool, the canonical arguments it needs)
NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "line_window": ("read_file", ("start_line", "end_line")),
    "replace_all": ("edit_file", ("replace_all",)),
    "shell_timeout": ("bash", ("timeout_ms",)),
    "list_pattern": ("list_files", ("pattern",)),
}
_HEAD = re.compile(r"[^.\[\]]+")


def missing_argument(capability: str, profile: Profile,
                     tools: dict[str, dict[str, Any]] | None) -> str | None:
    """Why `capability` is n/a for want of an argument (naming the profile key), or None.

    `tools`: the listing by name; None (not known yet) or a tool without properties in its
    schema says nothing, and the capability stands.
    """
    if capability not in NEEDS or profile.capabilities.get(capability) is not None or not tools:
        return None
    tool, arguments = NEEDS[capability]
    mapping = profile.tool(tool)
    listed = tools.get(mapping.name)
    schema = listed.get("input_schema", listed.get("inputSchema")) if listed else None
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return None
    absent = [arg for arg in arguments
              if (head := _HEAD.match(mapping.target(arg))) is None
              or head.group(0) not in properties]
    if not absent:
        return None
    keys = " and ".join(f"[tools.{tool}].args.{arg}" for arg in absent)
    extra = {"line_window": ' or window = "offset_limit"',
             "replace_all": ' or replace_all = "expected_replacements"'}.get(capability, "")
    return (f"{mapping.name}'s input schema has no property for {', '.join(absent)}; "
            f"map it with {keys}{extra}, or set [capabilities].{capability}")
