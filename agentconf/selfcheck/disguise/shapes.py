"""Arguments a disguise takes in another shape than the reference: exec's argv as a program and
its arguments (`program_apart`), read_file's window counted from 0 or as lines to skip and lines
to return (`line_window`). The listing shows the disguised shape (`shown_properties`); a call
is brought back to the reference's before its names are (`reference_shape`), both in shown
names, so renaming and case apply to these arguments as to any other."""

from typing import Any

from .names import Names, cased

_ZERO_BASED = {
    "start_line": "First line to return, counted from 0 (the file's first line is line 0). "
                  "Omit to start at the beginning.",
    "end_line": "Last line to return, counted from 0, inclusive. Omit to read to the end.",
}
_OFFSET_LIMIT = {
    "offset": {"type": "integer", "minimum": 0, "description": (
        "How many lines to skip before the first line returned (0: from the first line).")},
    "limit": {"type": "integer", "minimum": 1, "description": (
        "How many lines to return at most. Omit to read to the end.")},
}


def shown_properties(tool: str, argument: str, prop: dict[str, Any], names: Names
                     ) -> dict[str, dict[str, Any]] | None:
    """The properties the listing shows for one reference argument, when this disguise shapes it
    otherwise ({} drops it; None: shown as the reference has it)."""
    disguise = names.disguise
    if tool == "exec" and argument == "argv" and disguise.program_apart is not None:
        program, rest = program_names(names)
        return {program: {"type": "string", "minLength": 1, "description": (
                    "The program to run: its name on PATH or a path. No shell: one program.")},
                rest: {"type": "array", "items": {"type": "string"}, "description": (
                    "Its arguments, one string each, passed as they are.")}}
    if tool != "read_file" or argument not in _ZERO_BASED or disguise.line_window is None:
        return None
    if disguise.line_window == "zero_based":
        return {names.argument(tool, argument): {
            "type": "integer", "minimum": 0, "description": _ZERO_BASED[argument]}}
    if argument == "end_line":
        return {}
    return {cased(name, disguise.argument_case): value for name, value in _OFFSET_LIMIT.items()}


def shown_description(tool: str, description: str, names: Names) -> str:
    """The reference's description of `tool` (canonical names), its words on a shaped argument
    said of the disguised shape."""
    disguise = names.disguise
    if tool == "exec" and disguise.program_apart is not None:
        program, rest = program_names(names)
        return description.replace(
            "with its arguments, argv = [program, arg, ...],",
            f"(`{program}`) with its arguments (`{rest}`),")
    if tool != "read_file" or disguise.line_window is None:
        return description
    if disguise.line_window == "zero_based":
        return description.replace("(1-based, inclusive)", "(counted from 0, inclusive)")
    offset, limit = (cased(name, disguise.argument_case) for name in _OFFSET_LIMIT)
    return description.replace("with start_line and end_line (1-based, inclusive)",
                               f"with {offset} (lines to skip) and {limit} (lines to return)")


def required_shown(tool: str, names: Names) -> list[str]:
    """What this disguise's shapes make required beside the reference's required arguments."""
    apart = names.disguise.program_apart
    if tool != "exec" or apart is None:
        return []
    program, rest = program_names(names)
    return [program, rest] if apart.required else [program]


def program_names(names: Names) -> tuple[str, str]:
    apart = names.disguise.program_apart
    assert apart is not None
    case = names.disguise.argument_case
    return cased(apart.program, case), cased(apart.arguments, case)


def reference_shape(tool: str, arguments: dict[str, Any], names: Names) -> dict[str, Any]:
    """A call's arguments (shown names, valid for the disguised schema) in the reference's shape."""
    disguise = names.disguise
    out = dict(arguments)
    if tool == "exec" and disguise.program_apart is not None:
        program, rest = program_names(names)
        if program in out:
            out[names.argument(tool, "argv")] = [out.pop(program), *out.pop(rest, [])]
    if tool == "read_file" and disguise.line_window == "zero_based":
        for argument in _ZERO_BASED:
            shown = names.argument(tool, argument)
            if _integral(out.get(shown)):  # 2.0 too: the schema's integer takes it
                out[shown] += 1
    if tool == "read_file" and disguise.line_window == "offset_limit":
        offset, limit = (cased(name, disguise.argument_case) for name in _OFFSET_LIMIT)
        skip, count = out.pop(offset, None), out.pop(limit, None)
        if skip is not None or count is not None:
            out[names.argument(tool, "start_line")] = (skip or 0) + 1
        if count is not None:
            out[names.argument(tool, "end_line")] = (skip or 0) + count
    return out


def _integral(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == int(value)
