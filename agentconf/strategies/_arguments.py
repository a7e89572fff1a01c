"""Valid and ill-typed arguments for any JSON Schema of an object, and JSON values."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

import jsonschema
from hypothesis import strategies as st

from agentconf.strategies._memo import memoised

JsonSchema = Mapping[str, Any]
# ---------------------------------------------------------------- arguments from a JSON Schema

_JSON_TYPES: tuple[str, ...] = ("null", "boolean", "integer", "number", "string", "array", "object")


def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    """Any JSON value: null, booleans, integers, finite floats, strings, arrays and objects."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(st.text(max_size=6), children, max_size=3),
        ),
        max_leaves=max_leaves,
    )


def _values_of_type(kind: str, strings: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    return {
        "null": st.none(),
        "boolean": st.booleans(),
        "integer": st.integers(-1000, 1000),
        "number": st.floats(-1e6, 1e6, allow_nan=False).filter(lambda f: not f.is_integer()),
        "string": strings,
        "array": st.lists(st.integers(0, 9) | strings, max_size=3),
        "object": st.dictionaries(st.sampled_from("abc"), st.integers(0, 9), max_size=2),
    }[kind]


class _Schemas:
    """Resolves local `$ref`s (`#/$defs/...`, `#/definitions/...`) against one root schema."""

    def __init__(self, root: JsonSchema) -> None:
        self.root = root

    def resolve(self, schema: JsonSchema) -> JsonSchema:
        seen = 0
        while isinstance(schema, Mapping) and "$ref" in schema and seen < 32:
            ref = str(schema["$ref"])
            if not ref.startswith("#/"):
                raise ValueError(f"only local $ref is supported, got {ref!r}")
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            seen += 1
        return schema

    def allowed_types(self, schema: JsonSchema) -> set[str] | None:
        """The JSON types a value may have, or None when the schema does not constrain it."""
        schema = self.resolve(schema)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                union: set[str] = set()
                for option in schema[key]:
                    types = self.allowed_types(option)
                    if types is None:
                        return None
                    union |= types
                return union
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else list(schema["enum"])
            return {_json_type(value) for value in values} | (
                {"number"} if any(_json_type(v) == "integer" for v in values) else set()
            )
        declared = schema.get("type")
        if declared is None:
            return None
        types = {declared} if isinstance(declared, str) else set(declared)
        if "number" in types:
            types.add("integer")
        return types

    def values(self, schema: JsonSchema, strings: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
        schema = self.resolve(schema)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return st.one_of([self.values(option, strings) for option in schema[key]])
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(list(schema["enum"]))
        declared = schema.get("type")
        if declared is None:
            return json_values()
        kinds = [declared] if isinstance(declared, str) else list(declared)
        return st.one_of([self._typed(kind, schema, strings) for kind in kinds])

    def _typed(self, kind: str, schema: JsonSchema, strings: st.SearchStrategy[str]) -> Any:
        if kind == "object":
            return self.objects(schema, strings)
        if kind == "array":
            items = schema.get("items", {})
            return st.lists(
                self.values(items if isinstance(items, Mapping) else {}, strings),
                min_size=int(schema.get("minItems", 0)),
                max_size=int(schema.get("maxItems", max(3, int(schema.get("minItems", 0))))),
            )
        if kind == "string":
            if "pattern" in schema:
                return st.from_regex(str(schema["pattern"]))
            shortest = int(schema.get("minLength", 0))
            longest = schema.get("maxLength")
            return strings.filter(
                lambda s: len(s) >= shortest and (longest is None or len(s) <= longest))
        if kind in ("integer", "number"):
            low = schema.get("minimum")
            high = schema.get("maximum")
            if "exclusiveMinimum" in schema:
                low = int(schema["exclusiveMinimum"]) + 1
            if "exclusiveMaximum" in schema:
                high = int(schema["exclusiveMaximum"]) - 1
            low = None if low is None else int(low) if float(low).is_integer() else int(low) + 1
            high = None if high is None else int(high)
            if low is None and high is None:
                low, high = -1000, 1000
            return st.integers(min_value=low, max_value=high)
        return _values_of_type(kind, strings)

    def objects(self, schema: JsonSchema, strings: st.SearchStrategy[str]) -> Any:
        schema = self.resolve(schema)
        properties: Mapping[str, JsonSchema] = schema.get("properties", {})
        required = [name for name in schema.get("required", []) if name in properties]
        optional = [name for name in properties if name not in required]
        return st.fixed_dictionaries(
            {name: self.values(properties[name], strings) for name in required},
            optional={name: self.values(properties[name], strings) for name in optional},
        )


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _validator(schema: JsonSchema) -> Callable[[Any], bool]:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema).is_valid


_DEFAULT_STRINGS = st.text(alphabet=string.ascii_lowercase + string.digits + "._-", max_size=12)


@memoised
def valid_arguments(
    schema: JsonSchema, *, strings: st.SearchStrategy[str] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """Argument objects that satisfy `schema` (an object schema), checked with jsonschema.

    Supports the subset tool schemas use: `type`, `properties`, `required`, `enum`, `const`,
    `anyOf`/`oneOf`, local `$ref`, numeric and length bounds, `items`, `pattern`. `strings` draws
    every free string (pass a safe set for a tool that runs commands).

    >>> schema = {"type": "object", "properties": {"path": {"type": "string"}},
    ...           "required": ["path"], "additionalProperties": False}
    >>> "path" in valid_arguments(schema).example()
    True
    """
    is_valid = _validator(schema)
    schemas = _Schemas(schema)
    return schemas.objects(schema, _DEFAULT_STRINGS if strings is None else strings).filter(
        is_valid
    )


@memoised
def ill_typed_arguments(
    schema: JsonSchema, *, strings: st.SearchStrategy[str] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """Argument objects that `schema` rejects, one or more mistakes a model really makes.

    Each starts from valid arguments and then gives a field a value of a JSON type the schema
    does not allow (`"3"` for an integer, `2.5`, `null`, a list...), drops a required field, or adds
    an unknown one (when `additionalProperties` is false). Every drawn value fails the schema
    under jsonschema.

    Raises ValueError at once when `schema` accepts every object (no typed field, nothing
    required, extra fields allowed): nothing can be ill-typed, so there is nothing to draw.

    >>> schema = {"type": "object", "properties": {"path": {"type": "string"}},
    ...           "required": ["path"], "additionalProperties": False}
    >>> import jsonschema
    >>> jsonschema.Draft202012Validator(schema).is_valid(ill_typed_arguments(schema).example())
    False
    """
    is_valid = _validator(schema)
    schemas = _Schemas(schema)
    free_strings = _DEFAULT_STRINGS if strings is None else strings
    root = schemas.resolve(schema)
    properties: Mapping[str, JsonSchema] = root.get("properties", {})
    required = [name for name in root.get("required", []) if name in properties]
    closed = root.get("additionalProperties") is False
    typed_fields = {
        name: types for name in properties if (types := schemas.allowed_types(properties[name]))
    }
    mistakes = [name for name, possible in (("wrong_type", typed_fields), ("missing", required),
                                            ("unknown", closed)) if possible]
    if not mistakes:
        raise ValueError("this schema accepts every object; nothing can be ill-typed")

    # Built once, drawn from every example: a strategy made inside a draw (a recursive one
    # especially) was most of this test's CPU.
    unknown_names = st.sampled_from(["Path", "file_path", "extra", "force", "_meta_", "args"]
                                    ).filter(lambda key: key not in properties)
    build = _with_mistakes(
        valid_objects=schemas.objects(root, free_strings),
        mistakes=mistakes,
        wrong_values={name: _wrong_values(typed_fields[name], free_strings)
                      for name in typed_fields},
        required=required,
        unknown_names=unknown_names,
        unknown_values=json_values(max_leaves=2),
    )
    return build.filter(lambda arguments: not is_valid(arguments))


def _wrong_values(allowed: set[str], strings: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Values of a JSON type outside `allowed` (a field's allowed types): a model's mistake."""
    wrong = [kind for kind in _JSON_TYPES if kind not in allowed]
    if "integer" in allowed and "number" not in allowed:
        wrong.append("number")  # 2.5 for an integer
    if "integer" in allowed or "number" in allowed:
        return st.one_of(
            st.sampled_from(wrong).flatmap(lambda k: _values_of_type(k, strings)),
            st.integers(0, 99).map(str),  # "3" for 3: never coerced (VALIDATE-02)
        )
    return st.sampled_from(wrong).flatmap(lambda k: _values_of_type(k, strings))


@st.composite
def _with_mistakes(
    draw: st.DrawFn, *, valid_objects: st.SearchStrategy[dict[str, Any]], mistakes: list[str],
    wrong_values: dict[str, st.SearchStrategy[Any]], required: list[str],
    unknown_names: st.SearchStrategy[str], unknown_values: st.SearchStrategy[Any],
) -> dict[str, Any]:
    """Valid arguments with one or two of `mistakes` made in them (each field's wrong values in
    `wrong_values`, drawn in the order the fields sort)."""
    arguments = dict(draw(valid_objects))
    for _ in range(draw(st.integers(1, 2))):
        mistake = draw(st.sampled_from(mistakes))
        if mistake == "wrong_type":
            name = draw(st.sampled_from(sorted(wrong_values)))
            arguments[name] = draw(wrong_values[name])
        elif mistake == "missing":
            arguments.pop(draw(st.sampled_from(required)), None)
        else:
            arguments[draw(unknown_names)] = draw(unknown_values)
    return arguments
