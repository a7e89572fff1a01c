"""A call to the disguised server, translated back into the reference's calls: the tool's and the
arguments' canonical names, a nested edit unfolded (one reference call per edit), the extra
argument checked and dropped, paths brought back to the root, and the shell's allow-list applied.

What the disguise itself refuses (an unknown name, arguments its schema rejects, a relative path
where it wants an absolute one, a program outside the allow-list) becomes a canonical failure
envelope here, worded as the reference words it, for disguised_answers.py to disguise like any
other.
"""

import os
from dataclasses import dataclass, field
from typing import Any

from agentconf.contract import DEFAULT_LIMITS
from agentconf.harness.session.shell_words import refused_programs
from agentconf.reference.dispatch import MAX_ISSUES
from agentconf.reference.sandbox.bounding import bound_text
from agentconf.reference.validation import validate_with_schema

from .dimensions import OPERATIONS
from .disguised_listing import PATH_ARGUMENTS
from .names import Names
from .shapes import reference_shape


@dataclass
class Call:
    """What to do with one call: the reference's calls in order, or a refusal."""

    tool: str  # canonical (the shown name when unknown)
    calls: list[Any] = field(default_factory=list)  # canonical arguments, one per reference call
    refusal: dict[str, Any] | None = None  # a failure envelope answered instead
    paths: list[tuple[str, str]] = field(default_factory=list)  # (sent on, as given)


def translate(name: Any, arguments: Any, names: Names, schemas: dict[str, dict[str, Any]],
              root: str) -> Call:
    """`schemas`: canonical tool -> the disguised input schema the listing showed."""
    operation = _operation(name, arguments, names, schemas)
    if isinstance(operation, Call):
        return operation
    tool, arguments = operation or (
        names.canonical_tool(name) if isinstance(name, str) else None, arguments)
    if tool is None:
        shown = ", ".join(names.tool(listed) for listed in schemas)
        return Call(str(name), refusal=_fail(
            "TOOL_NOT_FOUND", f"There is no tool named `{name}`. Available tools: {shown}."))
    if not isinstance(arguments, dict):
        return Call(tool, calls=[arguments])  # the reference answers INVALID_ARGS itself
    issues = validate_with_schema(schemas[tool], arguments).issues
    refusal = _extra_refusal(names, tool, arguments) if not issues else None
    if issues:  # worded and bounded as the reference's dispatcher does (RESULT-07)
        kept = issues[:MAX_ISSUES]
        lines = [f"Invalid arguments for {names.tool(tool)}; fix each one and call again:",
                 *(f"- {issue.message}" for issue in kept)]
        if len(issues) > len(kept):
            lines.append(f"- and {len(issues) - len(kept)} more problems.")
        refusal = _fail("INVALID_ARGS", bound_text("\n".join(lines),
                                                   DEFAULT_LIMITS.message_budget_chars - 60),
                        issues=[issue.model_dump() for issue in kept])
    if refusal is not None:
        return Call(tool, refusal=refusal)
    canonical = _canonical_arguments(names, tool, reference_shape(tool, arguments, names))
    call = Call(tool, calls=_unfold(names, tool, canonical))
    _paths(call, names, root)
    _gate(call, names)
    return call


def _operation(name: Any, arguments: Any, names: Names, schemas: dict[str, dict[str, Any]]
               ) -> tuple[str, dict[str, Any]] | Call | None:
    """A call of the selector tool: the tool its operation picks and the arguments it takes (an
    argument the listing declares for another operation is ignored, as one tool's parameters
    are), or a refusal of an operation it does not have (None: a call of another tool)."""
    selector = names.disguise.selector
    if selector is None or name != names.tool(selector.tools[0]):
        return None
    tool = names.selected(name, arguments)
    if tool is None or not isinstance(arguments, dict):
        argument = names.selector_argument
        given = arguments.get(argument) if isinstance(arguments, dict) else None
        options = ", ".join(OPERATIONS[tool] for tool in selector.tools)
        message = f"`{argument}` must be one of: {options}, but got {given!r}."
        issue = {"path": f"$.{argument}", "expected": options, "received": repr(given)[:60],
                 "message": message}
        return Call(str(name), refusal=_fail("INVALID_ARGS", message, issues=[issue]))
    own = (schemas[tool].get("properties") or {}) if tool in schemas else {}
    others = {key for other in selector.tools if other != tool and other in schemas
              for key in schemas[other].get("properties") or {}}
    return tool, {key: value for key, value in arguments.items()
                  if key != names.selector_argument and (key in own or key not in others)}


def _fail(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"success": False, "data": message, "error": code, **extra}


def _extra_refusal(names: Names, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The documented value of the extra argument, where only its description states it."""
    extra = names.disguise.extra_argument
    if extra is None or extra.value is None or names.extra not in arguments:
        return None
    given = arguments[names.extra]
    if given == extra.value:
        return None
    message = f'`{names.extra}` must be "{extra.value}", but got {given!r}.'
    issue = {"path": f"$.{names.extra}", "expected": f'"{extra.value}"',
             "received": repr(given)[:60], "message": message}
    return _fail("INVALID_ARGS", message, issues=[issue])


def _canonical_arguments(names: Names, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    canonical_names = names.reference_arguments.get(tool, [])
    out: dict[str, Any] = {}
    for shown, value in arguments.items():
        if shown == names.extra:
            continue
        out[names.canonical_argument(tool, shown, canonical_names) or shown] = value
    return out


def _unfold(names: Names, tool: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """A nested edit's list as one reference call per edit (the schema held its shape)."""
    if tool != "edit_file" or names.nested is None:
        return [arguments]
    field_name, old, new = names.nested
    edits = arguments.pop(field_name)
    return [{**arguments, "old_text": edit[old], "new_text": edit[new]} for edit in edits]


def _paths(call: Call, names: Names, root: str) -> None:
    """Absolute or virtual paths back to the reference's relative ones; a relative path where
    the disguise wants one of those is refused."""
    mode = names.disguise.paths
    if mode is None:
        return
    for arguments in call.calls:
        for argument in (name for name in PATH_ARGUMENTS if name in arguments):
            given = arguments[argument]
            values = given if isinstance(given, list) else [given]
            sent = [_path(value, mode, root) if isinstance(value, str) else value
                    for value in values]
            for value, forwarded in zip(values, sent, strict=True):
                if forwarded is None:
                    call.calls, call.refusal = [], _relative_refusal(str(value), mode, root)
                    return
                if isinstance(value, str) and forwarded != value:
                    call.paths.append((forwarded, value))
            arguments[argument] = sent if isinstance(given, list) else sent[0]


def _path(value: str, mode: str, root: str) -> str | None:
    if not value.startswith("/"):
        return None
    if mode == "virtual":
        return value.lstrip("/") or "."
    for base in (root.rstrip("/"), os.path.realpath(root)):
        if value == base:
            return "."
        if value.startswith(base + "/"):
            return value[len(base) + 1:]
    return value  # outside the root: the reference refuses it as it would


def _relative_refusal(value: str, mode: str, root: str) -> dict[str, Any]:
    example = f"{root.rstrip('/')}/{value}" if mode == "absolute" else f"/{value}"
    wanted = "an absolute path" if mode == "absolute" else "a path starting with `/`"
    return _fail("INVALID_ARGS", f"`{value}` is not {wanted}; give `{example}` instead.")


def _gate(call: Call, names: Names) -> None:
    gate = names.disguise.shell_gate
    if gate is None or call.tool != "bash" or call.refusal is not None:
        return
    command = call.calls[0].get("command") if call.calls else None
    refused = refused_programs(command, list(gate.allowed)) if isinstance(command, str) else []
    if refused:
        call.calls = []
        call.refusal = _fail("PERMISSION_DENIED", (
            f"`{refused[0]}` is not allowed: this shell runs only {', '.join(gate.allowed)}. "
            "Run one of those instead."))
