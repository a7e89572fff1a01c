"""Argument validation on two tracks that answer alike (dskcode's "isomorphic dual track").

A tool declared with a pydantic model is validated by pydantic; a tool declared with a plain JSON
Schema is validated by `jsonschema`. Neither library's wording reaches the model: each error is
first reduced to a `ArgumentProblem` — where (a location tuple) and which of three things went wrong
(missing, unexpected, invalid) — and one renderer turns problems into `ValidationIssue`s, reading
what is expected from the tool's JSON Schema. A pydantic model and its JSON Schema twin therefore
give identical issue lists for the same bad input; a hypothesis test holds us to it.

Values are not coerced: `"3"` is not an integer. JSON has one number type, so an integer field
accepts `2.0` (a number with no fraction) and rejects `2.5`, and a number field accepts `3`.
"""

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from agentconf.contract import ValidationIssue

if TYPE_CHECKING:
    import jsonschema

Location = tuple[str | int, ...]

class Fault(Enum):
    MISSING = "missing"
    UNEXPECTED = "unexpected"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class ArgumentProblem:
    location: Location
    fault: Fault


@dataclass(frozen=True, slots=True)
class Validated:
    """The outcome of validation: `value` (model instance or dict) when `issues` is empty."""

    value: Any
    issues: list[ValidationIssue]

    @property
    def ok(self) -> bool:
        return not self.issues


# ---------------------------------------------------------------- the two tracks


@cache
def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema a model yields, built once per model (callers must not mutate it)."""
    return model.model_json_schema()


def validate_with_model(
    model: type[BaseModel], arguments: Any, *, received_limit: int = 60
) -> Validated:
    schema = model_schema(model)
    if not isinstance(arguments, dict):
        return Validated(None, [_not_an_object(arguments, received_limit)])
    try:
        evened = _integral_floats_to_int(arguments, schema, schema)
        return Validated(model.model_validate(evened), [])
    except ValidationError as error:
        problems = [_problem_from_pydantic(detail) for detail in error.errors()]
        return Validated(None, render(problems, arguments, schema, received_limit))


def validate_with_schema(
    schema: dict[str, Any], arguments: Any, *, received_limit: int = 60
) -> Validated:
    if not isinstance(arguments, dict):
        return Validated(None, [_not_an_object(arguments, received_limit)])
    # Imported on first use: only a tool declared with a plain schema needs it, and a served
    # reference is started once per check of a piped run (an eighth of its start's CPU).
    import jsonschema

    errors = jsonschema.Draft202012Validator(schema).iter_errors(arguments)
    problems = [problem for error in errors for problem in _problems_from_jsonschema(error)]
    issues = render(problems, arguments, schema, received_limit)
    return Validated(None if issues else arguments, issues)


# ------------------------------------------------------------ pydantic -> ArgumentProblem

_PYDANTIC_FAULTS = {"missing": Fault.MISSING, "extra_forbidden": Fault.UNEXPECTED}


def _problem_from_pydantic(detail: Any) -> ArgumentProblem:
    fault = _PYDANTIC_FAULTS.get(detail["type"], Fault.INVALID)
    return ArgumentProblem(tuple(detail["loc"]), fault)


def _integral_floats_to_int(value: Any, schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """`value` with each float that has no fraction turned into an int where `schema` wants an
    integer. Strict pydantic refuses `2.0` for an int, JSON Schema accepts it; this evens them."""
    schema = _effective(schema, root)
    if isinstance(value, float) and value.is_integer() and schema.get("type") == "integer":
        return int(value)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        return {
            key: _integral_floats_to_int(item, properties[key], root) if key in properties else item
            for key, item in value.items()
        }
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_integral_floats_to_int(item, schema["items"], root) for item in value]
    return value


# ---------------------------------------------------------- jsonschema -> ArgumentProblem


def _problems_from_jsonschema(error: "jsonschema.ValidationError") -> Iterator[ArgumentProblem]:
    location: Location = tuple(error.absolute_path)
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        for name in error.validator_value:
            if name not in present:
                yield ArgumentProblem((*location, name), Fault.MISSING)
    elif error.validator in ("additionalProperties", "unevaluatedProperties"):
        known = error.schema.get("properties", {})
        patterns = error.schema.get("patternProperties", {})
        for name in error.instance:
            if name not in known and not any(re.search(p, name) for p in patterns):
                yield ArgumentProblem((*location, name), Fault.UNEXPECTED)
    elif error.validator == "anyOf" and _is_nullable(error.schema["anyOf"]):
        # `X | None`: only the X branch's complaints say anything useful.
        branch = next(i for i, s in enumerate(error.schema["anyOf"]) if s.get("type") != "null")
        inner = [e for e in error.context or () if e.schema_path and e.schema_path[0] == branch]
        if inner:
            for sub in inner:
                yield from _problems_from_jsonschema(sub)
        else:
            yield ArgumentProblem(location, Fault.INVALID)
    else:
        yield ArgumentProblem(location, Fault.INVALID)


# ------------------------------------------------------------ ArgumentProblem -> ValidationIssue


def render(
    problems: Iterable[ArgumentProblem], arguments: Any, schema: dict[str, Any], received_limit: int
) -> list[ValidationIssue]:
    """One issue per location, in location order, whatever order or multiplicity the track gave."""
    first: dict[Location, ArgumentProblem] = {}
    for problem in problems:
        first.setdefault(problem.location, problem)
    ordered = sorted(first.values(), key=lambda problem: _sort_key(problem.location))
    return [_issue(problem, arguments, schema, received_limit) for problem in ordered]


def _sort_key(location: Location) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, part) if isinstance(part, int) else (1, part) for part in location)


def _issue(
    problem: ArgumentProblem, arguments: Any, schema: dict[str, Any], received_limit: int
) -> ValidationIssue:
    path = pointer(problem.location)
    field = _field_name(problem.location)
    if problem.fault is Fault.MISSING:
        wanted = describe_schema(_schema_at(schema, problem.location), schema)
        return ValidationIssue(
            path=path,
            expected="present",
            received="nothing",
            message=f"`{field}` is required but missing; add it as {_article(wanted)}.",
        )
    received = describe_value(_value_at(arguments, problem.location), received_limit)
    if problem.fault is Fault.UNEXPECTED:
        parent = _effective(_schema_at(schema, problem.location[:-1]), schema)
        known = ", ".join(parent.get("properties", {})) or "none"
        return ValidationIssue(
            path=path,
            expected="absent",
            received=received,
            message=f"`{field}` is not an argument of this tool; remove it (known: {known}).",
        )
    wanted = describe_schema(_schema_at(schema, problem.location), schema)
    return ValidationIssue(
        path=path,
        expected=wanted,
        received=received,
        message=f"`{field}` must be {_article(wanted)}, but got {received}.",
    )


def _not_an_object(arguments: Any, received_limit: int) -> ValidationIssue:
    received = describe_value(arguments, received_limit)
    return ValidationIssue(
        path="$",
        expected="object",
        received=received,
        message=f"The arguments must be a JSON object of named fields, but got {received}.",
    )


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def pointer(location: Location) -> str:
    """`$.edits[2].old_text` for ("edits", 2, "old_text"); odd keys are quoted: `$["a b"]`."""
    parts = ["$"]
    for part in location:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif _IDENTIFIER.fullmatch(part):
            parts.append(f".{part}")
        else:
            parts.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(parts)


def _field_name(location: Location) -> str:
    return pointer(location).removeprefix("$.") if location else "arguments"


def _article(description: str) -> str:
    if description.startswith(("one of", "exactly", "null", "any")):
        return description
    return ("an " if description[0] in "aeiou" else "a ") + description


# ---------------------------------------------------------------- describing values and schemas


def describe_value(value: Any, limit: int = 60) -> str:
    """What a model sent, in words, at most `limit` characters: `number 3`, `string "abc…"`."""
    if value is _ABSENT:
        text = "nothing"
    elif value is None:
        text = "null"
    elif isinstance(value, bool):
        text = f"boolean {'true' if value else 'false'}"
    elif isinstance(value, int | float):
        text = f"number {value!r}"
    elif isinstance(value, str):
        text = f"string {json.dumps(value, ensure_ascii=False)}"
    elif isinstance(value, list):
        text = f"array of {len(value)} item{'' if len(value) == 1 else 's'}"
    elif isinstance(value, dict):
        text = f"object with keys {', '.join(map(str, value))}" if value else "empty object"
    else:
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


_BOUNDS = (
    ("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<"),
)


def describe_schema(schema: dict[str, Any], root: dict[str, Any]) -> str:
    """What a schema wants, in words: `string`, `integer >= 1`, `one of "a", "b"`."""
    schema = _effective(schema, root)
    if "const" in schema:
        return f"exactly {json.dumps(schema['const'])}"
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(choice) for choice in schema["enum"])
    kind = schema.get("type", "any value")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    bounds = [
        f"{symbol} {schema[key]}"
        for key, symbol in _BOUNDS
        if key in schema
    ]
    if "minLength" in schema:
        bounds.append(f"of at least {schema['minLength']} character{_plural(schema['minLength'])}")
    if "maxLength" in schema:
        bounds.append(f"of at most {schema['maxLength']} character{_plural(schema['maxLength'])}")
    if "minItems" in schema:
        bounds.append(f"of at least {schema['minItems']} item{_plural(schema['minItems'])}")
    if "maxItems" in schema:
        bounds.append(f"of at most {schema['maxItems']} item{_plural(schema['maxItems'])}")
    if "pattern" in schema:
        bounds.append(f"matching {schema['pattern']}")
    return " ".join([kind, *bounds]) if bounds else kind


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


_ABSENT = object()


def _value_at(value: Any, location: Location) -> Any:
    for part in location:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return _ABSENT
    return value


def _schema_at(schema: dict[str, Any], location: Location) -> dict[str, Any]:
    current = schema
    for part in location:
        current = _effective(current, schema)
        if isinstance(part, int):
            current = current.get("items", {}) if isinstance(current.get("items"), dict) else {}
        else:
            current = current.get("properties", {}).get(part, {})
    return current


def _effective(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """`schema` with a local `$ref` followed and `X | None` read as X."""
    while "$ref" in schema and schema["$ref"].startswith("#/"):
        target: Any = root
        for key in schema["$ref"][2:].split("/"):
            target = target[key]
        schema = target
    if "anyOf" in schema and _is_nullable(schema["anyOf"]):
        inner = next(branch for branch in schema["anyOf"] if branch.get("type") != "null")
        return _effective(inner, root)
    return schema


def _is_nullable(branches: list[dict[str, Any]]) -> bool:
    return len(branches) == 2 and sum(branch.get("type") == "null" for branch in branches) == 1
