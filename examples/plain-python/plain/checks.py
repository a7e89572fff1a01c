"""Arguments against a tool's advertised input schema, every problem found in one pass.

Only what the schemas here use is understood: an object of named fields, each a string, an
integer or a boolean, with `required`, `additionalProperties: false`, `minimum` and `maximum`.
Nothing is coerced: "3" is not 3 and `true` is not 1, but 2.0 is the integer 2 (JSON has one
number type).
"""

from typing import Any

from .envelope import Refused

Issue = dict[str, str]
DESCRIBE_WITHIN = 40  # characters of `received`, whatever the value's size
SHOWN_IN_DATA = 3  # problems spelled out in `data`; all of them are in `issues`


def conform(schema: dict[str, Any], arguments: Any) -> dict[str, Any]:
    """The arguments with integers made exact, or `Refused` listing every problem."""
    if not isinstance(arguments, dict):
        _reject([_issue("$", "an object of named arguments", arguments,
                        "The arguments must be one JSON object.")])
    fields: dict[str, Any] = schema.get("properties", {})
    issues: list[Issue] = []
    clean: dict[str, Any] = {}
    for name in schema.get("required", []):
        if name not in arguments:
            issues.append({"path": f"$.{name}", "expected": "present", "received": "nothing",
                           "message": "This argument is required and was not given."})
    for name, value in arguments.items():
        rule = fields.get(name)
        if rule is None:
            issues.append(_issue(f"$.{name}", "no such argument", value,
                                 "This tool takes no argument of that name."))
            continue
        problem, value = _against(rule, value)
        if problem:
            issues.append(_issue(f"$.{name}", problem[0], value, problem[1]))
        else:
            clean[name] = value
    if issues:
        _reject(issues)
    return clean


def _against(rule: dict[str, Any], value: Any) -> tuple[tuple[str, str] | None, Any]:
    kind = rule.get("type")
    if kind == "string":
        if not isinstance(value, str):
            return ("string", "A string is needed here."), value
        return None, value
    if kind == "boolean":
        if not isinstance(value, bool):
            return ("boolean", "Only true or false is accepted here."), value
        return None, value
    if kind == "integer":
        whole = isinstance(value, int) and not isinstance(value, bool)
        if isinstance(value, float) and value.is_integer():
            value, whole = int(value), True
        if not whole:
            return ("integer", "A whole number is needed here."), value
        low, high = rule.get("minimum"), rule.get("maximum")
        if low is not None and value < low:
            return (f"integer >= {low}", f"The smallest number allowed is {low}."), value
        if high is not None and value > high:
            return (f"integer <= {high}", f"The largest number allowed is {high}."), value
        return None, value
    return None, value


def _issue(path: str, expected: str, value: Any, message: str) -> Issue:
    return {"path": path, "expected": expected, "received": describe(value), "message": message}


def describe(value: Any) -> str:
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float):
        text = f"number {value!r}"
    elif isinstance(value, str):
        text = f"string {value!r}"
    elif isinstance(value, list):
        text = f"list of {len(value)} item(s)"
    elif isinstance(value, dict):
        text = f"object of {len(value)} key(s)"
    else:
        text = type(value).__name__
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= DESCRIBE_WITHIN else text[: DESCRIBE_WITHIN - 3] + "..."


def _reject(issues: list[Issue]) -> None:
    first = issues[:SHOWN_IN_DATA]
    shown = " ".join(f"{issue['path'][:DESCRIBE_WITHIN]}: {issue['message']}" for issue in first)
    more = len(issues) - SHOWN_IN_DATA
    if more > 0:
        shown += f" And {more} more."
    raise Refused("INVALID_ARGS", f"Arguments rejected ({len(issues)} problem(s)): {shown}",
                  issues)
