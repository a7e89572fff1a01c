"""Canonical tool names, argument names and kinds. An implementation maps its own in its profile."""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ToolKind(StrEnum):
    """What a tool does to the world; read tools may run together, the rest alone (dskcode)."""

    READ = "read"
    EDIT = "edit"
    DELETE = "delete"
    MOVE = "move"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class CanonicalTool:
    name: str
    kind: ToolKind
    required: tuple[str, ...]
    optional: tuple[str, ...]

    @property
    def arguments(self) -> tuple[str, ...]:
        return self.required + self.optional


CANONICAL_TOOLS: dict[str, CanonicalTool] = {
    tool.name: tool
    for tool in (
        CanonicalTool("read_file", ToolKind.READ, ("path",), ("start_line", "end_line")),
        CanonicalTool("write_file", ToolKind.EDIT, ("path", "content"), ()),
        CanonicalTool(
            "edit_file", ToolKind.EDIT, ("path", "old_text", "new_text"), ("replace_all",)
        ),
        # Optional: several files in one all-or-nothing change, in Codex's patch format.
        CanonicalTool("apply_patch", ToolKind.EDIT, ("patch",), ()),
        CanonicalTool("list_files", ToolKind.READ, (), ("path", "pattern")),
        CanonicalTool("grep", ToolKind.READ, ("pattern",), ("path", "include")),
        CanonicalTool("bash", ToolKind.OTHER, ("command",), ("timeout_ms",)),
        # A program run from an argv (a list of strings), no shell between: `;`, `|` and `$()`
        # are arguments like any other.
        CanonicalTool("exec", ToolKind.OTHER, ("argv",), ("timeout_ms",)),
        CanonicalTool("tool_search", ToolKind.READ, ("query",), ()),
        # Optional path tools, as the official MCP filesystem server names and shapes them
        # (move_file, read_multiple_files, directory_tree; create_directory and get_file_info
        # under the contract's names): every path argument is confined like read/write.
        CanonicalTool("move_file", ToolKind.MOVE, ("source", "destination"), ()),
        CanonicalTool("copy_file", ToolKind.EDIT, ("source", "destination"), ()),
        CanonicalTool("delete_file", ToolKind.DELETE, ("path",), ()),
        CanonicalTool("make_directory", ToolKind.EDIT, ("path",), ()),
        CanonicalTool("read_multiple_files", ToolKind.READ, ("paths",), ()),
        CanonicalTool("directory_tree", ToolKind.READ, ("path",), ()),
        CanonicalTool("file_info", ToolKind.READ, ("path",), ()),
    )
}

# The optional path tools, canonical name -> its path arguments (`paths` is a list of paths).
PATH_TOOLS: dict[str, tuple[str, ...]] = {
    "move_file": ("source", "destination"),
    "copy_file": ("source", "destination"),
    "delete_file": ("path",),
    "make_directory": ("path",),
    "read_multiple_files": ("paths",),
    "directory_tree": ("path",),
    "file_info": ("path",),
}
# Path tools that remove or overwrite what a path names: the kit drives them only with paths
# that resolve inside its own sandbox (harness/session/reach.py), whatever the implementation does.
DESTRUCTIVE_TOOLS: frozenset[str] = frozenset({"move_file", "copy_file", "delete_file"})
# Path tools that give back what they read: judged on the canaries' secret coming back.
READING_PATH_TOOLS: frozenset[str] = frozenset(
    {"read_multiple_files", "directory_tree", "file_info"}
)


# The behaviour hints a tool may declare in its listing's `annotations` (MCP's ToolAnnotations,
# agentkit's read_only / destructive / idempotent hints), spelt as MCP spells them. A hint that is
# absent is not declared: the ANNOTATION clauses judge only what a tool claims.
READ_ONLY_HINT = "readOnlyHint"
DESTRUCTIVE_HINT = "destructiveHint"
IDEMPOTENT_HINT = "idempotentHint"
OPEN_WORLD_HINT = "openWorldHint"
ANNOTATION_HINTS: tuple[str, ...] = (
    READ_ONLY_HINT, DESTRUCTIVE_HINT, IDEMPOTENT_HINT, OPEN_WORLD_HINT
)


def declared_hint(tool: Mapping[str, Any], hint: str) -> bool | None:
    """The value a listed tool declares for `hint`, or None when it declares none.

    >>> declared_hint({"name": "w", "annotations": {"idempotentHint": True}}, "idempotentHint")
    True
    >>> declared_hint({"name": "w"}, "idempotentHint") is None
    True
    """
    annotations = tool.get("annotations")
    value = annotations.get(hint) if isinstance(annotations, Mapping) else None
    return value if isinstance(value, bool) else None


def declares_read_only(tool: Mapping[str, Any]) -> bool:
    """Declared to change nothing: of kind read (dskcode) or annotated readOnlyHint (MCP)."""
    return tool.get("kind") == ToolKind.READ.value or declared_hint(tool, READ_ONLY_HINT) is True
