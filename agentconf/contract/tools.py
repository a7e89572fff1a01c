"""Canonical tool names, argument names and kinds. An implementation maps its own in its profile."""

from dataclasses import dataclass
from enum import StrEnum


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
        CanonicalTool("list_files", ToolKind.READ, (), ("path", "pattern")),
        CanonicalTool("grep", ToolKind.READ, ("pattern",), ("path", "include")),
        CanonicalTool("bash", ToolKind.OTHER, ("command",), ("timeout_ms",)),
        CanonicalTool("tool_search", ToolKind.READ, ("query",), ()),
    )
}
