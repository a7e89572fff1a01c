"""A disguise: how a tool system may differ from the reference in names, shapes, words and paths
while doing exactly what the reference does. JSON-serialisable (pydantic), frozen.

Every field is one dimension, independent of the others, and its default is the reference's own
way (the identity), so a disguise with every field at its default is the reference as
`agentconf serve --mcp` serves it, and hypothesis shrinks a diverging disguise towards the fewest
dimensions that still diverge.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Case = Literal["camel", "kebab", "pascal"]
Wording = Literal["reworded", "german", "korean"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolAlias(_Frozen):
    """`tool` (canonical) is listed and called as `name` (before prefix and case)."""

    tool: str
    name: str


class ArgumentAlias(_Frozen):
    """`argument` of canonical `tool` is named `name` (before case)."""

    tool: str
    argument: str
    name: str


class NestedEdits(_Frozen):
    """edit_file's old_text and new_text go in a list of edits: `{field: [{old: .., new: ..}]}`."""

    field: str = "edits"
    old: str = "old"
    new: str = "new"


class ExtraArgument(_Frozen):
    """A required argument the reference does not have, its value documented in the tool's
    description (`reason`: any non-empty text; `encoding`: "utf-8")."""

    name: str
    value: str | None = None  # the one value it takes; None: any non-empty text
    declared: bool = False  # the value is in the schema too (an enum), not only in words
    tools: Literal["all", "writes"] = "all"


class TextMarker(_Frozen):
    """A failure is a success (isError false) whose text starts with `marker`."""

    kind: Literal["text_marker"] = "text_marker"
    marker: str = "Error: "


class JsonStatus(_Frozen):
    """Every answer is a JSON object: `{key: ok, text_key: ...}` or `{key: failed, message_key:
    ...}`, and isError is always false."""

    kind: Literal["json_status"] = "json_status"
    key: str = "ok"
    ok: bool | str = True
    failed: bool | str = False
    text_key: str = "result"
    message_key: str = "message"


FailureSignal = Annotated[TextMarker | JsonStatus, Field(discriminator="kind")]


# The operation a selector's option names for each tool it stands for.
OPERATIONS = {"read_file": "read", "write_file": "write", "list_files": "list",
              "edit_file": "edit"}


class Selector(_Frozen):
    """Several file tools are one tool, `name`, whose required `argument` picks the operation
    (`"read"`, `"write"`, ...: OPERATIONS); the options are listed in the tool's description
    (a docstring's `Args:`), and in the schema's enum too where `declared`."""

    name: str = "file_ops"
    argument: str = "action"
    tools: tuple[str, ...] = ("read_file", "write_file")
    declared: bool = False


class ShellGate(_Frozen):
    """The shell runs only these programs and refuses any other in words (PERMISSION_DENIED)."""

    allowed: tuple[str, ...]


class ProgramApart(_Frozen):
    """exec's argv as a program and its arguments, `{program: "ls", arguments: ["-l"]}` (emcp's
    shell_run); the arguments' list required too, or left out for none."""

    program: str = "program"
    arguments: str = "args"
    required: bool = True


# read_file's window counted from 0 (start and end, both inclusive: a Python list of lines), or
# as lines to skip and lines to return.
LineWindow = Literal["zero_based", "offset_limit"]


class Disguise(_Frozen):
    tool_names: tuple[ToolAlias, ...] = ()
    tool_prefix: str | None = None  # `fs_`: before every tool name
    tool_case: Case | None = None
    argument_names: tuple[ArgumentAlias, ...] = ()
    argument_case: Case | None = None
    nested_edits: NestedEdits | None = None
    extra_argument: ExtraArgument | None = None
    failure_signal: FailureSignal | None = None  # None: MCP's isError
    wording: Wording | None = None  # failure messages in other words or another language
    failure_prefix: str | None = None  # a framework's prefix on every failure
    json_quoted: bool = False  # a failure's text reaches the model as a JSON string literal
    codes: Literal["text_prefix", "absent"] | None = None  # None: structuredContent's `error`
    code_spelling: Literal["lower", "errno"] | None = None  # None: the contract's spelling
    text_only: bool = False  # no structured content: summary, diff, issues, exit code are gone
    result_key: str | None = None  # a success's text wrapped in JSON: `{result_key: text}`
    paths: Literal["absolute", "virtual"] | None = None  # None: relative to the root
    shell_gate: ShellGate | None = None
    selector: Selector | None = None  # file tools behind one tool and an operation argument
    # Listed as FastMCP lists a Python function: no property carries a description, the tool's
    # docstring `Args:` section does; nested edits' items are open objects told in braces.
    docstring: bool = False
    operation_heads: bool = False  # every failure opens with its tool's "Error reading file: "
    program_apart: ProgramApart | None = None  # None: exec takes one argv list
    line_window: LineWindow | None = None  # None: start_line and end_line counted from 1

    def dimensions(self) -> tuple[str, ...]:
        """The fields that differ from the reference's way (a spelling of codes that are absent
        changes nothing and is left out)."""
        changed = [name for name, field in type(self).model_fields.items()
                   if getattr(self, name) != field.default]
        if self.codes == "absent" and "code_spelling" in changed:
            changed.remove("code_spelling")
        return tuple(changed)
