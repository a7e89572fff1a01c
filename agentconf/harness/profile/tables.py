"""The tables of a profile besides the tools: [implementation], [limits], [capabilities],
[[error_patterns]], [setup] and [modes.*], with the placeholders their strings may hold."""

import re
from dataclasses import fields
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PositiveInt,
    create_model,
    model_validator,
)

from agentconf.contract import (
    CAPABILITIES,
    DEFAULT_LIMITS,
)
from agentconf.harness.profile.tool_mapping import (
    TOOL_MODELS,
    ErrorCodeName,
    FailureMarker,
    PathTool,
    Strict,
)
from agentconf.harness.report.expectations import check_key

# `reuse = "worker"`: one process (or in-process object) per pytest worker, kept from test to
# test (target/reuse.py);
# "worker-fresh-shell": the same, retired after a check that ran a command (its shell keeps a
# `cd` or an `export`); "worker-stateful": the process taken to keep session state whatever
# [capabilities] say (for a server whose session no probe could settle).
REUSE_MODES = ("worker", "worker-fresh-shell", "worker-stateful")
# A reused process carries its session from test to test: with these features on, a file read in
# one test would count as read in the next, so a kept server is retired after any test that made
# a call its session may remember (target/reuse.py).
SESSION_FEATURES = ("read_before_edit", "stale_read")
# Placeholders filled in commands, [env] values, [setup.files] paths and contents, [tools.X]
# defaults and [[setup.requests]] params.
PLACEHOLDERS = {
    "root": "the workspace root the tools must stay inside (also the process's cwd)",
    "home": "the sandbox's HOME (canaries live there: the oracle judges it)",
    "tmp": "the implementation's TMPDIR in the sandbox (not judged)",
    "profile_dir": "the folder of this profile file",
    "cache": "$AGENTCONF_CACHE, else ~/.cache/agentconf",
    "peers_cache": ("where `agentconf matrix --cache` installed the peers ($AGENTCONF_PEERS_CACHE),"
                    " else .cache/peers beside the peers folder holding this profile"),
}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
MODE_NAME = r"^[a-z][a-z0-9_-]*$"





def _known_placeholders(value: str) -> str:
    unknown = sorted({name for name in _PLACEHOLDER.findall(value)} - set(PLACEHOLDERS))
    if unknown:
        raise ValueError(f"unknown placeholder(s) {', '.join('{' + n + '}' for n in unknown)}; "
                         f"known: {', '.join('{' + n + '}' for n in PLACEHOLDERS)}")
    return value


def _regex(value: Any) -> Any:
    if not isinstance(value, str) or not value:
        raise ValueError("must be a non-empty string holding a regular expression")
    try:
        re.compile(value)
    except re.error as error:
        raise ValueError(f"{value!r} is not a valid regular expression: {error}") from None
    return value


def _setup_path(value: str) -> str:
    """In the sandbox by construction: relative (under the root) or under {root}, {home}, {tmp}."""
    parts = value.split("/")
    outside = ("~", "{profile_dir}", "{cache}", "{peers_cache}")
    inside = not value.startswith("/") and parts[0] not in outside
    if not inside or ".." in parts:
        raise ValueError(f"{value!r} must stay in the sandbox: a relative path (under the root) "
                         "or one starting {root}/, {home}/ or {tmp}/, without `..`")
    return value


Templated = Annotated[str, AfterValidator(_known_placeholders)]
Regex = Annotated[re.Pattern[str], BeforeValidator(_regex)]
ClauseKey = Annotated[str, AfterValidator(check_key)]  # the baseline files' rule
SetupPath = Annotated[Templated, AfterValidator(_setup_path)]
EnvName = Annotated[str, Field(pattern=_ENV_NAME)]
Reason = Annotated[str, Field(min_length=1, pattern=r"\S",
                              description="why: a non-empty string")]


class Implementation(Strict):
    """[implementation]: what to start, what it is called, how it is spoken to."""

    spec: Templated | None = Field(default=None, min_length=1, pattern=r"\S", description=(
        "which implementation to check, in any --impl form: python:MODULE:FACTORY, "
        "cmd:COMMAND, mcp:COMMAND (commands take the placeholders)"))
    name: str | None = Field(default=None, description="shown in reports; the report folder")
    version: str | None = Field(default=None, description="shown in reports")
    absolute_paths: bool = Field(default=False, description=(
        "true: relative paths are sent joined to the root (tools that demand absolute paths)"))
    virtual_absolute_paths: bool = Field(default=False, description=(
        "true: the implementation maps `/x` to `root/x` by design; paths inside the root are "
        "sent as `/x`, and an absolute path outside the root is judged on the disk (nothing "
        "outside touched) instead of by OUTSIDE_ROOT"))
    call_timeout_ms: PositiveInt | None = Field(default=None, description=(
        "how long one call may take before it counts as hung (milliseconds)"))
    reuse: Literal[REUSE_MODES] | None = Field(default=None, description=(  # type: ignore
        "\"worker\": one server (or, for a python: factory, one object) per pytest worker, "
        "kept from check to check, for one that "
        "keeps no state between calls but what read_before_edit and stale_read are about; "
        "with those on, a check whose verdict depends on a fresh session (one requiring "
        "read_before_edit, stale_read or tool_search) gets a new server once another check "
        "read, wrote, ran a command or revealed tools, so none of those sees a session another "
        "check shaped, and every other check keeps the one it finds; a failed check keeps it "
        "(its sandbox copied out) unless it ran a command, cancelled a call, hung or left "
        "something writing; `init --from` drafts it "
        "for a server that takes 0.05 s or more to start (an object to build), whose session "
        "features its probes "
        "settled and whose shell keeps no cd or export (init_from/sharing.py); "
        "\"worker-fresh-shell\": the same, and every check that ran a command or cancelled a "
        "call retires the server, for a shell that keeps a cd or an export between calls; "
        "\"worker-stateful\": the rule of \"worker\" with the session features taken to be "
        "on whatever [capabilities] say, for a server that may keep a session no probe could "
        "settle; `init --from` drafts each for such a server. In every mode, a worker that "
        "had to start its server again (cmd:, mcp:) keeps the next one starting ahead of need "
        "in a sandbox of its own, so a check that needs a new server seldom waits for its "
        "start (harness/target/spare.py)"))
    exclude_tools: list[str] = Field(default_factory=list, description=(
        "the implementation's tool names the kit must never call (process killers, config "
        "writers, URL openers)"))
    call_other_tools: bool = Field(default=False, description=(
        "true: checks may call tools outside the contract (neither mapped nor under "
        "[tools.extra]) with arguments their schema rejects or plain strings; default: such "
        "tools are judged from tools/list alone and never called"))
    python: Templated | None = Field(default=None, min_length=1, description=(
        "the Python interpreter that runs a python: spec (a virtual environment's python, "
        "with agentconf-kit installed there too): the run is handed over to it"))
    failure: FailureMarker | None = Field(default=None, description=(
        "what marks an answer that says success as a failure, for a call of a tool without a "
        "`result` table of its own (an unknown tool, refused in words)"))


_LIMIT_HELP = {
    "max_output_chars": "the output bound of every tool, in characters",
    "max_read_bytes": "the largest file read_file reads whole (bytes)",
    "shell_timeout_ms": "bash's default timeout (milliseconds)",
    "received_max_chars": "how much of a wrong value an INVALID_ARGS issue quotes back",
    "message_budget_chars": "the largest `data` a failure may carry",
    "marker_budget_chars": "how much bigger than max_output_chars a bounded output may be",
}
LimitsTable: type[Strict] = create_model(  # type: ignore[call-overload]
    "LimitsTable", __base__=Strict,
    __doc__="[limits]: overrides of the contract's default limits, when yours differ on purpose.",
    **{item.name: (PositiveInt | None, Field(
        default=None, description=f"{_LIMIT_HELP.get(item.name, item.name)} "
                                  f"(default {getattr(DEFAULT_LIMITS, item.name)})"))
       for item in fields(DEFAULT_LIMITS)},
)
CapabilitiesTable: type[Strict] = create_model(  # type: ignore[call-overload]
    "CapabilitiesTable", __base__=Strict,
    __doc__="[capabilities]: tools or features switched off (their clauses become n/a) or on.",
    **{name: (bool | None, Field(default=None, description=meaning))
       for name, meaning in CAPABILITIES.items()},
)
ToolsTable: type[Strict] = create_model(  # type: ignore[call-overload]
    "ToolsTable", __base__=Strict,
    __doc__="[tools.<canonical>]: a canonical tool's name, arguments and answer shape.",
    **{name: (model | None, Field(default=None, description=f"how {name} is called"))
       for name, model in TOOL_MODELS.items()},
    extra=(dict[str, PathTool], Field(default_factory=dict, description=(
        "the implementation's own tool name -> its path arguments: tools outside the contract "
        "the kit drives with hostile paths (and calls no others)"))),
)



class Unproven(Strict):
    """[unproven.<canonical>]: what `init --from` could not prove about one mapped tool. The
    checks that stand on it are not judged (n/a with this reason, said first on the console),
    never failed: a verdict never stands on a premise the kit has not verified."""

    calls: Reason | None = Field(default=None, description=(
        "why a call of it cannot be judged (a file it wrote did not land in the root, a file of "
        "the root did not read back, a required argument has no value that works): every check "
        "that calls it is not judged"))
    refusals: Reason | None = Field(default=None, description=(
        "why its refusals cannot be recognised (a call that must fail answered success and no "
        "failure marker tells it from a real success): a check that expects it to refuse and "
        "gets a success is not judged"))
    syntax: Reason | None = Field(default=None, description=(
        "why a command in a shell's own syntax (a variable, `;`, a pipe, a redirection, a glob) "
        "cannot be judged: the tool splits its command into a program's arguments, or refuses "
        "that syntax; every check whose command uses it is not judged, plain commands still are"))
    arguments: dict[str, Reason] = Field(default_factory=dict, description=(
        "canonical argument -> why a call carrying it cannot be judged (a call with timeout_ms, "
        "as the profile sends it, was refused as malformed): every check whose call carries "
        "that argument is not judged"))


UnprovenTable: type[Strict] = create_model(  # type: ignore[call-overload]
    "UnprovenTable", __base__=Strict,
    __doc__="[unproven]: premises the draft could not prove, per canonical tool.",
    **{name: (Unproven | None, Field(default=None, description=f"what is unproven of {name}"))
       for name in TOOL_MODELS},
)


class ErrorPattern(Strict):
    """[[error_patterns]]: ordered; used when an answer carries no code."""

    code: ErrorCodeName | None = Field(default=None, description=(
        "the contract's error code; left out when `pattern` has a named group `code` that "
        "takes the code from the text (mapped through [error_codes] first)"))
    pattern: Regex = Field(description="a Python regular expression searched in the text")

    @model_validator(mode="after")
    def _code_somewhere(self) -> "ErrorPattern":
        if self.code is None and "code" not in self.pattern.groupindex:
            raise ValueError("give `code`, or a named group `(?P<code>...)` in `pattern` that "
                             "takes the code from the text")
        return self


class SetupRequest(Strict):
    """[[setup.requests]]: a JSON-RPC request sent once per session, after `initialize` and
    before the first tool call (cmd: and mcp:), e.g. a vendor request a server needs first."""

    method: str = Field(min_length=1, pattern=r"\S", description="the JSON-RPC method")
    params: dict[str, Any] = Field(default_factory=dict, description=(
        "its params; string values take the placeholders ({root}, {home}, ...)"))


class Setup(Strict):
    """[setup]: what is put in place before the implementation starts."""

    files: dict[SetupPath, Templated] = Field(default_factory=dict, description=(
        "\"path\" = \"content\": written before every start; a relative path is under the "
        "root (the implementation's cwd), `{home}/...` in the sandbox's HOME"))
    state: list[SetupPath] = Field(default_factory=list, description=(
        "folders the implementation keeps its own state in, in the sandbox (its config folder "
        "in HOME): what it writes there is its own and not judged; the canaries elsewhere in "
        "HOME still are"))
    requests: list[SetupRequest] = Field(default_factory=list, description=(
        "JSON-RPC requests sent in order once per session, after `initialize` and before the "
        "first tool call (cmd: and mcp: only); an error answer stops the session"))
    commands: list[Annotated[list[Templated], Field(min_length=1)]] = Field(
        default_factory=list, description=(
            "commands (argv lists, no shell) the kit runs in the root before the implementation "
            "starts, as a user prepares a project (`[\"git\", \"init\", \"-q\"]`): what they "
            "make in the root is part of its starting state and the implementation's own, never "
            "judged as an escape; a command that fails stops the check with its output"))


class LaunchMode(Strict):
    """[modes.<name>]: another way to start the same implementation (e.g. read-only)."""

    spec: Templated | None = Field(default=None, min_length=1, description=(
        "a whole other spec; default: [implementation].spec"))
    args: list[Templated] = Field(default_factory=list, description=(
        "arguments appended to the command of a cmd: or mcp: spec"))
    env: dict[EnvName, Templated] = Field(default_factory=dict, description=(
        "variables added to [env] for this mode"))
