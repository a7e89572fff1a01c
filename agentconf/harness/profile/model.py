"""Profiles (`agentconf.toml`): how one implementation's names, codes, answers and limits map
onto ours. One pydantic model is the single source of the file's shape: the loader, the JSON
Schema in agentconf/schemas/profile.schema.json and docs/profiles.md all come from it.

Validation reports every mistake at once, as one `ProfileError` naming the file and, for each
mistake, the table and the key; nothing is silently ignored (an unknown key is an error).
"""

import re
import tomllib
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from agentconf.contract import (
    CANONICAL_TOOLS,
    DEFAULT_LIMITS,
    Limits,
)
from agentconf.harness.profile.mistakes import ProfileError, render_errors
from agentconf.harness.profile.tables import (
    MODE_NAME,
    CapabilitiesTable,
    ClauseKey,
    EnvName,
    ErrorCodeName,
    ErrorPattern,
    Implementation,
    LaunchMode,
    LimitsTable,
    Reason,
    Setup,
    SetupRequest,
    Templated,
    ToolsTable,
    Unproven,
    UnprovenTable,
)
from agentconf.harness.profile.tool_mapping import PathTool, Strict, ToolMapping, tool_mapping

# What a shell reads apart from a program and its words ([unproven.bash] syntax): a variable, a
# list or pipe (`;`, `&`, `|`), a redirection, a subshell, a glob, a second line.
SHELL_SYNTAX = re.compile(r"[;&|<>$`()*~\n]")

__all__ = ["ErrorPattern", "LaunchMode", "Profile", "ProfileError", "ToolMapping",
           "load_profile", "parse_profile"]


class Profile(Strict):
    """agentconf.toml"""

    implementation: Implementation = Field(default_factory=Implementation)
    limits_table: LimitsTable = Field(  # type: ignore[valid-type]
        default_factory=LimitsTable, alias="limits",
        description="overrides of the contract's default limits")
    capability_table: CapabilitiesTable = Field(  # type: ignore[valid-type]
        default_factory=CapabilitiesTable, alias="capabilities",
        description="capabilities switched off (or on)")
    tool_table: ToolsTable = Field(  # type: ignore[valid-type]
        default_factory=ToolsTable, alias="tools",
        description="canonical tool -> the implementation's tool, arguments, answer shape")
    error_codes: dict[str, ErrorCodeName] = Field(
        default_factory=dict, description="their spelling of a code -> ours, applied first")
    pattern_list: list[ErrorPattern] = Field(
        default_factory=list, alias="error_patterns",
        description="ordered message patterns, for answers without a code")
    expected_failures: dict[ClauseKey, Reason] = Field(default_factory=dict, description=(
        "clause id, category or \"CLAUSE-ID::case-id\" -> the reason it is a known gap; a "
        "reason starting \"race:\" is a race the check catches in some runs only, whose pass "
        "is not a stale entry; a listed clause whose check hangs or kills the implementation is "
        "held as one that fails (a harness-error never is)"))
    env: dict[EnvName, Templated] = Field(default_factory=dict, description=(
        "variables for the implementation's process (values take the placeholders)"))
    setup: Setup = Field(default_factory=Setup, description="files written before the start")
    modes: dict[Annotated[str, Field(pattern=MODE_NAME)], LaunchMode] = Field(
        default_factory=dict, description="other launch modes, by name")
    unproven_table: UnprovenTable = Field(  # type: ignore[valid-type]
        default_factory=UnprovenTable, alias="unproven",
        description="premises the draft could not prove: their checks are not judged (n/a with "
                    "the premise; a clause judged on its other checks is listed \"judged in "
                    "part\")")

    _path: Path | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _consistent(self) -> "Profile":
        problems = []
        mapped = {mapping.name: f"[tools.{canonical}]"
                  for canonical, mapping in self.tools.items()}
        mapped |= {name: f"[tools.extra.{name}]" for name in self.path_tools}
        for name in self.implementation.exclude_tools:
            if name in mapped:
                problems.append(f"[implementation].exclude_tools names {name!r}, which "
                                f"{mapped[name]} maps: the kit must call it")
        if self.setup.requests:
            # Late: the kinds read profiles, so they import this module.
            from agentconf.harness.target.kinds import kind_of, schemes_that

            kind = kind_of(self.spec)
            if kind is not None and not kind.over_pipe:
                problems.append("[[setup.requests]] are JSON-RPC requests: they need a "
                                f"{schemes_that('over_pipe')} implementation, not "
                                f"{kind.scheme}:")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def __hash__(self) -> int:  # one profile is one object; its tables are not hashable
        return id(self)

    # ---- the flat view the harness reads -------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def spec(self) -> str | None:
        return self.implementation.spec

    @property
    def name(self) -> str | None:
        return self.implementation.name

    @property
    def version(self) -> str | None:
        return self.implementation.version

    @property
    def absolute_paths(self) -> bool:
        return self.implementation.absolute_paths

    @property
    def virtual_absolute_paths(self) -> bool:
        return self.implementation.virtual_absolute_paths

    @property
    def call_timeout_ms(self) -> int | None:
        return self.implementation.call_timeout_ms

    @property
    def reuse(self) -> str | None:
        return self.implementation.reuse

    @property
    def python(self) -> str | None:
        return self.implementation.python

    @cached_property
    def exclude_tools(self) -> frozenset[str]:
        return frozenset(self.implementation.exclude_tools)

    @cached_property
    def limits(self) -> Limits:
        return DEFAULT_LIMITS.with_overrides(self.limits_table.model_dump(exclude_none=True))

    @cached_property
    def capabilities(self) -> dict[str, bool]:
        return self.capability_table.model_dump(exclude_none=True)

    @cached_property
    def tools(self) -> dict[str, ToolMapping]:
        return {name: getattr(self.tool_table, name) for name in CANONICAL_TOOLS
                if getattr(self.tool_table, name, None) is not None}

    @cached_property
    def unproven(self) -> dict[str, Unproven]:
        """[unproven]: per canonical tool, what the draft could not prove of it."""
        return {name: getattr(self.unproven_table, name) for name in CANONICAL_TOOLS
                if getattr(self.unproven_table, name, None) is not None}

    def excluded(self, canonical: str) -> str | None:
        """Why a canonical tool is never called: the tool of its name is excluded (a profile may
        exclude the tool of a canonical name it does not map elsewhere)."""
        name = self.tool(canonical).name
        return (f"{name!r} is in [implementation].exclude_tools" if name in self.exclude_tools
                else None)

    def unproven_calls(self, canonical: str) -> str | None:
        premise = self.unproven.get(canonical)
        return premise.calls if premise is not None else None

    def unproven_call(self, canonical: str, arguments: dict[str, Any]) -> str | None:
        """Why this call of `canonical` cannot be judged, if so: its calls are unproven, or a
        call carrying one of `arguments` is."""
        premise = self.unproven.get(canonical)
        if premise is None:
            return None
        if premise.syntax and SHELL_SYNTAX.search(str(arguments.get("command", ""))):
            return premise.calls or f"shell syntax: {premise.syntax}"
        return premise.calls or next((f"{name}: {premise.arguments[name]}" for name in arguments
                                      if name in premise.arguments), None)

    def unproven_refusals(self, canonical: str) -> str | None:
        premise = self.unproven.get(canonical)
        return premise.refusals if premise is not None else None

    @property
    def path_tools(self) -> dict[str, PathTool]:
        """[tools.extra]: the implementation's other tools whose path arguments are judged."""
        return dict(self.tool_table.extra)

    @property
    def call_other_tools(self) -> bool:
        return self.implementation.call_other_tools

    @property
    def error_patterns(self) -> tuple[ErrorPattern, ...]:
        return tuple(self.pattern_list)

    @property
    def setup_files(self) -> dict[str, str]:
        return dict(self.setup.files)

    @property
    def setup_state(self) -> list[str]:
        return list(self.setup.state)

    @property
    def setup_requests(self) -> list[SetupRequest]:
        return list(self.setup.requests)

    @property
    def setup_commands(self) -> list[list[str]]:
        return [list(command) for command in self.setup.commands]

    def tool(self, canonical: str) -> ToolMapping:
        return self.tools.get(canonical) or tool_mapping(canonical)

    def limits_for(self, canonical: str) -> Limits:
        """`limits`, with the tool's own output bound (in characters) and read size when it
        declares them."""
        own = self.tool(canonical).limits
        overrides: dict[str, int] = {}
        if own.max_output_chars_equivalent is not None:
            overrides["max_output_chars"] = own.max_output_chars_equivalent
        if getattr(own, "max_read_bytes", None) is not None:
            overrides["max_read_bytes"] = own.max_read_bytes  # type: ignore[attr-defined]
        return self.limits.with_overrides(overrides) if overrides else self.limits

    @property
    def max_read_lines(self) -> int | None:
        """[tools.read_file.limits].max_read_lines: read_file's second size limit, if any."""
        lines: int | None = getattr(self.tool("read_file").limits, "max_read_lines", None)
        return lines


def load_profile(path: str | Path) -> Profile:
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except OSError as error:
        raise ProfileError(f"cannot read profile {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"profile {path} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"profile {path} is not valid TOML: {error}") from None
    return parse_profile(data, path)


def parse_profile(data: dict[str, Any], path: Path | None = None) -> Profile:
    """The profile, or one ProfileError listing every mistake in `data`."""
    try:
        profile = Profile.model_validate(data)
    except ValidationError as error:
        raise ProfileError(render_errors(error, Profile, str(path) if path else "profile")) \
            from None
    profile._path = path
    return profile
