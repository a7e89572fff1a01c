"""`[tools.<canonical>]` of a profile: one canonical tool's name, arguments and answer shape.

One model class per canonical tool, built from the contract's tool list, so the JSON Schema (and
an editor completing it) knows each tool's own argument names, and only the keys that make sense
for that tool exist on it: `window` on read_file, `replace_all` on edit_file, `literal` on grep,
`units` where an argument has a unit (bash's timeout_ms).
"""

import functools
import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PositiveInt,
    WithJsonSchema,
    create_model,
    model_validator,
)

from agentconf.contract import CANONICAL_TOOLS, ERROR_CODES

# `name`, `name.sub`, `name[0]`, `name[0].sub[2]`: where an argument goes in the real call.
TARGET_PATTERN = r"[A-Za-z_$][\w$-]*(\[\d+\])*(\.[A-Za-z_$][\w$-]*(\[\d+\])*)*"
_TARGET = re.compile(TARGET_PATTERN)
# A place in a JSON answer: the same dotted form, or a JSON pointer (RFC 6901) like /file/content.
LOCATOR_PATTERN = rf"(/.*|{TARGET_PATTERN})"
_LOCATOR = re.compile(LOCATOR_PATTERN)
# A locator starting with this looks only in MCP structured content, never in the text.
STRUCTURED = "structuredContent."
# What a locator found nothing at (None is a value a JSON answer can hold).
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
# Canonical arguments that carry a unit, the unit the contract uses, and the ones a profile may
# declare instead (deepagents and strands take seconds).
UNIT_ARGUMENTS: dict[str, tuple[str, ...]] = {"timeout_ms": ("ms", "s")}
# How a character count is approximated from another unit (a token is about four characters).
CHARS_PER = {"chars": 1, "bytes": 1, "tokens": 4}


def _check_target(value: str) -> str:
    if not _TARGET.fullmatch(value):
        raise ValueError(f"{value!r} is not a target like `name`, `name.sub` or "
                         "`edits[0].oldText`")
    return value


def _check_regex(value: str) -> str:
    try:
        re.compile(value)
    except re.error as error:
        raise ValueError(f"{value!r} is not a valid regular expression: {error}") from None
    return value


def _check_locator(value: str) -> str:
    if not _LOCATOR.fullmatch(value):
        raise ValueError(f"{value!r} is not a place in the answer like `stdout`, "
                         "`file.content`, `content[0].text` or the JSON pointer `/file/content`")
    return value


Target = Annotated[str, AfterValidator(_check_target), WithJsonSchema(
    {"type": "string", "pattern": f"^{TARGET_PATTERN}$",
     "description": "where the argument goes: `name`, `name.sub` or `edits[0].oldText`"})]
Locator = Annotated[str, AfterValidator(_check_locator), WithJsonSchema(
    {"type": "string", "pattern": f"^{LOCATOR_PATTERN}$",
     "description": "a dotted path (`file.content`, `content[0].text`) or a JSON pointer "
                    "(`/file/content`; a step `*` is whatever one key stands there: "
                    "`/*/ranges/0/content` for an answer keyed by the file's own path)"})]


def _error_code(value: str) -> str:
    if value not in ERROR_CODES:
        raise ValueError(f"{value!r} is not a contract error code (docs/contract.md lists them)")
    return value


ErrorCodeName = Annotated[str, AfterValidator(_error_code), WithJsonSchema(
    {"type": "string", "enum": list(ERROR_CODES), "description": "a contract error code"})]


class Strict(BaseModel):
    """Every table of a profile: unknown keys are errors, nothing is silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class FailureMarker(Strict):
    """What in an answer that says "success" marks it a failure (mcp-text-editor's `result`)."""

    path: Locator | None = Field(default=None, description=(
        "where the marker is in the JSON answer (with `matches`: optional, the answer's text "
        "when left out)"))
    equals: Any = Field(default=None, description=(
        "the value that means failure, e.g. \"error\"; a list: any of its values "
        "([\"not_found\", \"count_mismatch\"])"))
    not_equals: Any = Field(default=None, description=(
        "failure when the value there is present and differs (`return_code`: 0)"))
    present: bool = Field(default=False, description="true: any non-null value there means "
                                                     "failure (an `error` field, say)")
    matches: Annotated[str, AfterValidator(_check_regex)] | None = Field(
        default=None, description="a regular expression: failure when the answer text (or the "
        "value at `path`) matches it (a plain-text \"success\" that is one)")

    @model_validator(mode="after")
    def _one_test(self) -> "FailureMarker":
        tests = [name for name in ("equals", "not_equals", "matches") if getattr(self, name)
                 is not None] + (["present"] if self.present else [])
        if len(tests) != 1:
            raise ValueError("give exactly one of `equals = <value or list>`, `not_equals = "
                             "<value>`, `matches = \"<regex>\"` or `present = true`")
        if self.path is None and self.matches is None:
            raise ValueError("give `path`: where the marker is in the answer")
        return self

    def fails(self, found: Any, text: str) -> bool:
        """Whether the value found at `path` (MISSING when absent) or the text means failure."""
        if self.matches is not None:
            subject = text if self.path is None else (
                found if isinstance(found, str) else None)
            return subject is not None and re.search(self.matches, subject) is not None
        if found is MISSING or found is None:
            return False
        if self.present:
            return True
        if self.not_equals is not None:
            return bool(found != self.not_equals)
        options = self.equals if isinstance(self.equals, list) else [self.equals]
        return found in options


class ResultShape(Strict):
    """Where things are in an answer whose text is JSON, or in MCP structured content."""

    text: Locator | list[Locator] | None = Field(
        default=None, description="where the model-facing text is; several places are joined "
        "by a newline (Claude Code's Bash: [\"stdout\", \"stderr\"])")
    error: Locator | None = Field(
        default=None, description="where an error code or message is (a string, or an object "
        "with `code` and/or `message`); `structuredContent.<place>` looks only in MCP "
        "structured content")
    exit_code: Locator | None = Field(
        default=None, description="where a command's exit status is (bash)")
    failure: FailureMarker | None = Field(
        default=None, description="what marks an answer that says success as a failure")
    flags: dict[Locator, ErrorCodeName] | None = Field(
        default=None, description="fields that, true, say the call failed and why: "
        "`{ timed_out = \"TIMEOUT\" }` for a shell whose timed-out answer is a partial "
        "result with `\"timed_out\": true`")

    def text_places(self) -> tuple[str, ...]:
        if self.text is None:
            return ()
        return (self.text,) if isinstance(self.text, str) else tuple(self.text)


class ToolLimits(Strict):
    """A tool's own output bound when it differs from `[limits]`, in the unit the tool counts."""

    max_output_chars: PositiveInt | None = Field(default=None, description="in characters")
    max_output_bytes: PositiveInt | None = Field(
        default=None, description="in bytes of UTF-8 (many frameworks): a bounded output is "
        "judged as that many characters at most, one returned whole by its bytes")
    max_output_tokens: PositiveInt | None = Field(
        default=None, description="in model tokens; judged as four characters a token")

    @model_validator(mode="after")
    def _one_unit(self) -> "ToolLimits":
        given = [name for name in type(self).model_fields if name.startswith("max_output_")
                 and getattr(self, name) is not None]
        if len(given) > 1:
            raise ValueError(f"give the output bound in one unit, not {' and '.join(given)}")
        return self

    @property
    def max_output_chars_equivalent(self) -> int | None:
        for unit, factor in CHARS_PER.items():
            value = getattr(self, f"max_output_{unit}")
            if value is not None:
                return int(value * factor)
        return None


class ToolMapping(Strict):
    """A canonical tool's name and argument targets in the implementation (identity by default).

    The base of the per-tool classes below; `Profile.tool(canonical)` always gives one.
    """

    name: str = Field(default="", min_length=1, description="the implementation's tool name")
    args: dict[str, Target] = Field(
        default_factory=dict, description="canonical argument -> where it goes in the real call")
    defaults: dict[str, Any] = Field(
        default_factory=dict, description="arguments always sent (a canonical argument given "
        "in a call wins); strings take the placeholders ({root}, {home}, ...)")
    nulls: list[str] = Field(
        default_factory=list, description="arguments always sent as JSON null, which TOML "
        "cannot write: a required one its schema lets be null (no session yet, say)")
    result: ResultShape = Field(
        default_factory=ResultShape,
        description="where text, errors and exit codes are in a JSON answer")
    limits: ToolLimits = Field(default_factory=ToolLimits,
                               description="this tool's output bound, when not `[limits]`'s")
    canonical: ClassVar[str] = ""

    # Keys only some tools have (see `_tool_model`); read through these so any mapping answers.
    @property
    def window_mode(self) -> str:
        return str(getattr(self, "window", "start_end"))

    @property
    def first_offset(self) -> int:
        return int(getattr(self, "offset_base", 1))

    @property
    def replace_all_mode(self) -> str:
        return str(getattr(self, "replace_all", "flag"))

    @property
    def is_literal(self) -> bool:
        return bool(getattr(self, "literal", False))

    def target(self, argument: str) -> str:
        if argument in self.args:
            return self.args[argument]
        if self.window_mode == "offset_limit" and argument in _WINDOW_TARGETS:
            return _WINDOW_TARGETS[argument]
        if self.replace_all_mode == "expected_replacements" and argument == "replace_all":
            return "expected_replacements"
        if argument == "command" and self.shell_argv is not None:
            return "argv"
        return argument

    @property
    def shell_argv(self) -> list[str] | None:
        argv: list[str] | None = getattr(self, "argv", None)
        return argv

    @property
    def first_line_number(self) -> int:
        return int(getattr(self, "line_base", 1))

    def unit(self, argument: str) -> str | None:
        units: dict[str, str] = getattr(self, "units", {})
        return units.get(argument)


class ReadLimits(ToolLimits):
    """[tools.read_file.limits]: the output bound, and the file-size limits read_file refuses
    FILE_TOO_LARGE over, when they are not `[limits]`'s; either may be given, or both."""

    max_read_bytes: PositiveInt | None = Field(default=None, description=(
        "the largest file read whole, in bytes (instead of [limits].max_read_bytes)"))
    max_read_lines: PositiveInt | None = Field(default=None, description=(
        "the most lines a file read whole may have (a second limit beside the bytes)"))


_WINDOW_TARGETS = {"start_line": "offset", "end_line": "limit"}

# Keys that exist only on some tools: (which tools, field definition).
_WINDOW = (Literal["start_end", "offset_limit"], Field(
    default="start_end", description="how a line window is sent: start_end (start_line and "
    "end_line, 1-based, inclusive) or offset_limit (offset = first line, limit = line count; "
    "Claude Code's Read, Desktop Commander's read_file); targets default to `offset`/`limit`"))
_OFFSET_BASE = (Literal[0, 1], Field(
    default=1, description="the number a line window gives the first line: with window = "
    "\"offset_limit\", its offset (1 for Claude Code's Read, 0 for Desktop Commander); with "
    "start_end, start_line's and end_line's (0: counted from 0, both ends still inclusive)"))
_REPLACE_ALL = (Literal["flag", "expected_replacements"], Field(
    default="flag", description="how replace_all is sent: flag (a boolean) or "
    "expected_replacements (a count: the occurrences in the file for true, 1 for false; "
    "Desktop Commander's edit_block); the target defaults to `expected_replacements`"))
_LINE_BASE = (Literal[0, 1], Field(default=1, description=(
    "the number grep's output gives the first line of a file (0: numbered from 0)")))
def _check_argv(value: list[str] | None) -> list[str] | None:
    if value is not None and "{command}" not in value:
        raise ValueError('needs the element "{command}", where the command string goes')
    return value


_ARGV = (Annotated[list[str] | None, AfterValidator(_check_argv)], Field(
    default=None, min_length=1, description=(
    "the shell tool takes argv: the command is sent as this array, the element \"{command}\" "
    "replaced by the command string (target: `args.command`, default `argv`)")))
_ALLOWED_PROGRAMS = (list[str] | None, Field(default=None, min_length=1, description=(
    "the shell runs only these programs: a check needing another one is n/a, naming it")))
_EXEC_ALLOWED_PROGRAMS = (list[str] | None, Field(default=None, min_length=1, description=(
    "exec runs only these programs: another is refused with PERMISSION_DENIED (EXEC-07), and a "
    "check needing one that is not listed is n/a, naming it")))
_PROGRAM = (Target | None, Field(default=None, description=(
    "where argv's first item goes, for a runner that takes the program apart from its arguments "
    "(`command` beside an `arguments` list): args.argv then gets the rest")))
_LITERAL = (bool, Field(default=False, description="true: the pattern is searched for as plain "
                                                     "text, not a regular expression"))


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _tool_model(canonical: str) -> type[ToolMapping]:
    tool = CANONICAL_TOOLS[canonical]
    arguments = Literal[tool.arguments]  # type: ignore[valid-type]
    fields: dict[str, Any] = {
        "name": (str, Field(default=canonical, min_length=1,
                            description=f"the implementation's name for {canonical}")),
        "args": (dict[arguments, Target], Field(  # type: ignore[valid-type]
            default_factory=dict,
            description=f"canonical argument ({', '.join(tool.arguments)}) -> where it goes")),
    }
    with_units = [name for name in tool.arguments if name in UNIT_ARGUMENTS]
    if with_units:
        unit_keys = Literal[tuple(with_units)]  # type: ignore[valid-type]
        units = Literal[tuple(u for n in with_units for u in UNIT_ARGUMENTS[n])]  # type: ignore
        fields["units"] = (dict[unit_keys, units], Field(  # type: ignore[valid-type]
            default_factory=dict, description="the unit the implementation takes an argument "
            "in, when not the contract's (timeout_ms = \"s\": sent as seconds)"))
    if "start_line" in tool.arguments:
        fields["window"], fields["offset_base"] = _WINDOW, _OFFSET_BASE
    if "replace_all" in tool.arguments:
        fields["replace_all"] = _REPLACE_ALL
    if canonical == "grep":
        fields["literal"], fields["line_base"] = _LITERAL, _LINE_BASE
    if canonical == "bash":
        fields["argv"], fields["allowed_programs"] = _ARGV, _ALLOWED_PROGRAMS
    if canonical == "exec":
        fields["allowed_programs"], fields["program"] = _EXEC_ALLOWED_PROGRAMS, _PROGRAM
    if canonical == "read_file":
        fields["limits"] = (ReadLimits, Field(default_factory=ReadLimits, description=(
            "read_file's output bound and file-size limits, when not `[limits]`'s")))
    model: type[ToolMapping] = create_model(  # type: ignore[call-overload]
        f"{_camel(canonical)}Tool", __base__=ToolMapping, __doc__=f"[tools.{canonical}]",
        **fields,
    )
    model.canonical = canonical
    return model


TOOL_MODELS: dict[str, type[ToolMapping]] = {name: _tool_model(name) for name in CANONICAL_TOOLS}


class PathTool(Strict):
    """[tools.extra.<name>]: a tool the contract does not name, whose path arguments the kit
    drives with hostile paths (CONFINE, SYMLINK); it calls no other tool outside the contract."""

    paths: list[Target] = Field(min_length=1, description=(
        "where its path arguments go (`source`, `files[0].path`)"))
    destructive: bool | None = Field(default=None, description=(
        "false: it removes and overwrites nothing, so it may be driven with any hostile path; "
        "default: its destructiveHint annotation, else true (driven only with paths inside the "
        "kit's sandbox)"))


@functools.cache
def tool_mapping(canonical: str) -> ToolMapping:
    """The identity mapping of a canonical tool (its name, its own argument names).

    One instance per name, shared: the models are frozen, and a default profile asks for these
    on every request the safety rules judge (a new model each time was 4% of a run's CPU)."""
    if canonical in TOOL_MODELS:
        return TOOL_MODELS[canonical]()
    return ToolMapping.model_construct(name=canonical)  # any name a raw call may use, even ""

