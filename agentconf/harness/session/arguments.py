"""Canonical arguments -> the implementation's, as its profile says: names and nested targets,
units, line windows as offset/limit, replace_all as a count, absolute or virtual absolute paths.

An optional canonical argument whose target the tool's input schema has no property for is
dropped, never forwarded silently (OpenHands' editor got `pattern` and `start_line` it has no
field for), and the drop is a note for the check's evidence naming the profile key to set.
"""

import copy
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.contract import CANONICAL_TOOLS, PATH_TOOLS
from agentconf.harness.profile.model import Profile
from agentconf.harness.profile.tool_mapping import ToolMapping
from agentconf.harness.session.argument_values import types_of
from agentconf.harness.target.launch import fill_json
from agentconf.harness.verdicts.errors import not_applicable

# Arguments that carry a path, for `absolute_paths` profiles.
PATH_ARGUMENTS = ("path",)
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class Shaped:
    sent: dict[str, Any]
    notes: tuple[str, ...] = ()


def top_argument(target: str) -> str:
    """The argument a target sits in: `operations[0].source` and `paths[0]` are in `operations`
    and `paths`."""
    return target.split(".")[0].split("[")[0]


def shape(tool: str, arguments: dict[str, Any], profile: Profile, root: Path,
          schema: dict[str, Any] | None, places: dict[str, str] | None = None) -> Shaped:
    """The arguments object sent for a canonical call, and what was changed on the way.

    `places`: the placeholders ({root}, {home}, {tmp}) filled in the tool's defaults."""
    mapping = profile.tool(tool)
    values = dict(arguments)
    notes: list[str] = []
    _command_as_argv(tool, mapping.shell_argv, values)
    if mapping.window_mode == "offset_limit":
        values = _as_offset_limit(values, mapping.first_offset)
    elif mapping.first_offset != 1:
        values = _counted_from(values, mapping.first_offset)
    if mapping.replace_all_mode == "expected_replacements" and "replace_all" in values:
        values["replace_all"] = _expected_replacements(values, root)
    for argument, unit in getattr(mapping, "units", {}).items():
        if argument in values:
            values[argument] = _in_unit(values[argument], unit, _property(
                schema, mapping.target(argument)))
    for key in PATH_TOOLS.get(tool, PATH_ARGUMENTS):
        if key in values:
            values[key] = path_for(values[key], profile, root)
    sent: dict[str, Any] = {}
    program = getattr(mapping, "program", None)
    if program is not None and isinstance(values.get("argv"), list) and values["argv"]:
        set_target(sent, program, values["argv"][0])  # the runner takes it apart from the rest
        values["argv"] = values["argv"][1:]
    # A default may sit at a nested target (`files[0].ranges[0].start`); `nulls` send null.
    fixed = fill_json(copy.deepcopy(mapping.defaults), places or {"root": str(root)})
    for key, value in [*fixed.items(), *dict.fromkeys(mapping.nulls).items()]:
        set_target(sent, key, value)
    # Only optional arguments are dropped: a required one is always sent where the profile
    # says, and a wrong target for it fails the check that needs it, in plain sight.
    optional = CANONICAL_TOOLS[tool].optional if tool in CANONICAL_TOOLS else ()
    canonical = CANONICAL_TOOLS[tool].arguments if tool in CANONICAL_TOOLS else tuple(values)
    properties = schema.get("properties") if isinstance(schema, dict) else None
    for key, value in values.items():
        target = mapping.target(key)
        head = _STEP.match(target)
        top = head.group(1) if head else target
        if key not in canonical and top in {top_argument(mapping.target(name))
                                            for name in canonical if name in values}:
            # An argument the canonical tool lacks (VALIDATE-03's `Path`) named as the one a
            # canonical argument is sent to: it would overwrite that one, and be no unknown one.
            not_applicable(f"the check sends {key!r} as an argument {tool} does not have, and "
                           f"{mapping.name} takes {top!r}: it is no unknown argument there")
        if key in optional and isinstance(properties, dict) and top not in properties:
            # Sent without it, the check would judge another call than the one it makes (a
            # search of the whole root for one of `link_out`): n/a, never a verdict.
            not_applicable(_dropped(tool, mapping, key, value, top))
        set_target(sent, target, value)
    return Shaped(sent, tuple(notes))


def _command_as_argv(tool: str, argv: list[str] | None, values: dict[str, Any]) -> None:
    """A shell's command line put in the argv a runner takes ([tools.bash].argv)."""
    if argv is not None and isinstance(values.get("command"), list):
        # A list is that tool's own type (agno's run_shell_command takes `args: List[str]`):
        # whether it refuses an ill-typed command cannot be told by sending one.
        not_applicable(f"{tool} takes an argv list ([tools.{tool}].argv): a list for command is "
                       "its own type, not an ill-typed one")
    if argv is not None and isinstance(values.get("command"), str):
        values["command"] = [values["command"] if part == "{command}" else part
                             for part in argv]


def _dropped(tool: str, mapping: ToolMapping, key: str, value: Any, top: str) -> str:
    hint = f"[tools.{tool}].args.{key}"
    if key in ("start_line", "end_line"):
        hint += " (or window = \"offset_limit\")"
    elif key == "replace_all":
        hint += " (or replace_all = \"expected_replacements\")"
    return (f"the check sends {key}={value!r}, and {mapping.name}'s input schema has no "
            f"property {top!r} to take it; map it with {hint}")


def _as_offset_limit(values: dict[str, Any], base: int) -> dict[str, Any]:
    """start_line/end_line (1-based, inclusive) as offset (first line) and limit (line count).

    Values that are not integers (validation checks send strings, fractions, booleans) go through
    as they are, for the implementation to judge. An integral float (2.0) is the integer it
    spells (VALIDATE-08) and is shifted too, staying a float: the check is whether the
    implementation takes 2.0 as 2, not whether the kit does.
    """
    start, end = values.get("start_line"), values.get("end_line")
    if not all(v is None or _integral(v) for v in (start, end)):
        return values
    shaped = dict(values)
    if start is not None:
        shaped["start_line"] = start - 1 + base
    if end is not None:
        first = start if start is not None else 1
        shaped["end_line"] = end - first + 1
        shaped.setdefault("start_line", base)
    return shaped


def _counted_from(values: dict[str, Any], base: int) -> dict[str, Any]:
    """start_line/end_line, both still inclusive, counted from `base` (0: the first line is line
    0, as in a Python list). Values that are not integers go through as they are (as above)."""
    shaped = dict(values)
    for key in ("start_line", "end_line"):
        value = values.get(key)
        if value is not None and _integral(value):
            shaped[key] = value - 1 + base
    return shaped


def _integral(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _expected_replacements(values: dict[str, Any], root: Path) -> Any:
    """replace_all as a count: how often old_text occurs in the file (true), or 1 (false)."""
    flag = values["replace_all"]
    if not isinstance(flag, bool):
        return flag
    if not flag:
        return 1
    old, path = values.get("old_text"), values.get("path")
    if not isinstance(old, str) or not old or not isinstance(path, str):
        return 1
    target = Path(path) if path.startswith("/") else root / path
    try:
        text = target.read_text("utf-8", errors="replace")
    except OSError:
        return 1
    return max(1, text.count(old))


def _in_unit(value: Any, unit: str, prop: dict[str, Any] | None) -> Any:
    """A millisecond value in the implementation's unit ("s": seconds, whole when it wants int)."""
    if unit == "ms" or isinstance(value, bool) or not isinstance(value, int | float):
        return value
    seconds = value / 1000
    if _wants_integer(prop or {}):
        return max(1, math.ceil(seconds)) if value > 0 else math.ceil(seconds)
    return int(seconds) if float(seconds).is_integer() else seconds


def _wants_integer(prop: dict[str, Any]) -> bool:
    """An integer and nothing else but null: `"type": "integer"`, `["integer", "null"]`, or
    `anyOf`/`oneOf` of those (Pydantic's `int | None` is `anyOf: [{integer}, {null}]`)."""
    kinds: set[str] = set()
    declared = prop.get("type")
    kinds.update([declared] if isinstance(declared, str) else
                 [k for k in declared or () if isinstance(k, str)])
    for key in ("anyOf", "oneOf"):
        for option in prop.get(key) or ():
            if isinstance(option, dict):
                kinds.update(["integer"] if _wants_integer(option) else
                             [str(option.get("type", "any"))])
    kinds.discard("null")
    return kinds == {"integer"}


def _property(schema: dict[str, Any] | None, target: str) -> dict[str, Any] | None:
    properties = schema.get("properties") if isinstance(schema, dict) else None
    found = properties.get(target) if isinstance(properties, dict) else None
    return found if isinstance(found, dict) else None


def declared_types(schema: Any, target: str) -> set[str]:
    """The JSON types the input schema declares where `target` goes (`params.path`); none where
    a step has no property."""
    node = schema
    for step in target.split("."):
        node = node.get("properties", {}).get(step) if isinstance(node, dict) else None
    return types_of(node) if isinstance(node, dict) else set()


class AsGiven(str):
    """A path sent exactly as written, whatever the profile says of paths: `~/x` as a model
    types it, to judge what the implementation makes of it. Any other relative path, `~/x`
    included, is the root's own and sent as the profile addresses the root's paths."""


def path_for(value: Any, profile: Profile, root: Path) -> Any:
    """A path argument as the profile says it is sent (a list of paths: each of them)."""
    if isinstance(value, list):
        return [path_for(item, profile, root) for item in value]
    if not isinstance(value, str) or isinstance(value, AsGiven):
        return value
    if profile.virtual_absolute_paths:
        return virtual_path(value, root)
    if profile.absolute_paths and not value.startswith("/"):
        # Absolute paths are sent as given: they are what confinement tests probe.
        return str(root / value) if value else str(root)
    return value


def virtual_path(value: str, root: Path) -> str:
    """`a.txt` and `<root>/a.txt` as `/a.txt`; an absolute path outside the root as given."""
    text = str(root)
    if value == text or value.startswith(text + "/"):
        return "/" + value[len(text):].lstrip("/")
    if value.startswith("/"):
        return value
    return "/" + value.removeprefix("./") if value not in ("", ".") else "/"


def is_virtual_outside(value: Any, profile: Profile, root: Path) -> bool:
    """A path a virtual-absolute implementation takes as `root/<path>`, not as outside."""
    return (profile.virtual_absolute_paths and isinstance(value, str) and value.startswith("/")
            and not (value == str(root) or value.startswith(str(root) + "/")))


def set_target(container: dict[str, Any], target: str, value: Any) -> None:
    """Puts `value` at a target like `path`, `opts.path` or `edits[0].oldText`, creating the way."""
    steps: list[str | int] = [
        name if name else int(index) for name, index in _STEP.findall(target)
    ]
    node: Any = container
    for step, following in itertools.pairwise(steps):
        empty: Any = [] if isinstance(following, int) else {}
        if isinstance(step, int):
            while len(node) <= step:
                node.append(None)
            if node[step] is None:
                node[step] = empty
            node = node[step]
        else:
            node = node.setdefault(step, empty)
    last = steps[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
    node[last] = value
