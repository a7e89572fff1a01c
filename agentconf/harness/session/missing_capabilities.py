"""Capabilities derived from the implementation's own schemas, not guessed.

A feature that needs an argument (a line window needs start_line and end_line) is absent when
the mapped tool's input schema has no property for it, unless the profile says otherwise under
[capabilities]: READ-06 is then n/a with a note naming the key to set, not a MUST failure.
"""

import re
from typing import Any

from agentconf.harness.profile.model import Profile

# capability -> (canonical tool, the canonical arguments it needs)
NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "line_window": ("read_file", ("start_line", "end_line")),
    "replace_all": ("edit_file", ("replace_all",)),
    "shell_timeout": ("bash", ("timeout_ms",)),
    "exec_timeout": ("exec", ("timeout_ms",)),
    "list_pattern": ("list_files", ("pattern",)),
    "grep_include": ("grep", ("include",)),
}
_HEAD = re.compile(r"[^.\[\]]+")

SHELL_CONFINED = "shell_confined"
# How a shell tool says it is confined, in its description or an annotation's name; and how it
# says it is not (which wins).
_CLAIM = re.compile(r"\b(sandboxed|sandbox|confined|jailed|chroot)\b", re.IGNORECASE)
_PATHS = re.compile(r"\S*/\S*")
_DISCLAIM = re.compile(r"\b(not|no|never|un|without)[ -]?(sandbox|confined|jail)", re.IGNORECASE)


def shell_not_confined(profile: Profile, tools: dict[str, dict[str, Any]] | None) -> str | None:
    """None when the shell claims to be confined to the root (its description or annotations
    say it is sandboxed), else the fact that it is not, naming the key that says otherwise.
    Unknown (no listing yet) is None: the check itself asks again with the listing."""
    if not tools:
        return None
    listed = tools.get(profile.tool("bash").name)
    if listed is None:
        return None  # no shell: the bash capability says so
    description = str(listed.get("description") or "")
    annotations = listed.get("annotations")
    flags = [key for key, value in annotations.items() if value is True] if isinstance(
        annotations, dict) else []
    # Paths are no claim: a server that prints its root (`.../sandbox/root`) says nothing of
    # itself, and the kit's own sandbox is named so.
    said = _PATHS.sub(" ", " ".join([description, *flags]))
    if _CLAIM.search(said) and not _DISCLAIM.search(said):
        return None
    return ("the shell is not confined: its description and annotations claim no sandbox "
            "(set [capabilities].shell_confined = true if it is)")


def missing_argument(capability: str, profile: Profile,
                     tools: dict[str, dict[str, Any]] | None) -> str | None:
    """Why `capability` is n/a for want of an argument (naming the profile key), or None.

    `tools`: the listing by name; None (not known yet) or a tool without properties in its
    schema says nothing, and the capability stands.
    """
    if capability == SHELL_CONFINED and profile.capabilities.get(capability) is None:
        return shell_not_confined(profile, tools)
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
