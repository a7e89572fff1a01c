"""Validation: issue shape, no coercion, integer/number interop, and the two tracks agreeing."""

import json
from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from agentconf.reference.declare import Arguments, Declaration
from agentconf.reference.validation import (
    describe_value,
    model_schema,
    pointer,
    validate_with_model,
    validate_with_schema,
)


class Edit(Arguments):
    old_text: str = Field(min_length=1)
    new_text: str


class Patch(Arguments):
    path: str
    count: int | None = Field(default=None, ge=1, le=100)
    ratio: float = 0.5
    force: bool = False
    mode: str = Field(default="a", pattern="^[ab]$")
    edits: list[Edit] = Field(default_factory=list, min_length=0)


PATCH_SCHEMA = json.loads(json.dumps(model_schema(Patch)))  # a plain-dict twin of the model


def both(arguments: Any) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    by_model = validate_with_model(Patch, arguments).issues
    by_schema = validate_with_schema(PATCH_SCHEMA, arguments).issues
    return [i.model_dump() for i in by_model], [i.model_dump() for i in by_schema]


def test_a_missing_required_field_is_reported_as_expected_present() -> None:
    issues, _ = both({})
    assert issues == [
        {
            "path": "$.path",
            "expected": "present",
            "received": "nothing",
            "message": "`path` is required but missing; add it as a string.",
        }
    ]


def test_a_string_three_is_not_an_integer() -> None:
    issues, _ = both({"path": "a", "count": "3"})
    assert issues[0]["path"] == "$.count"
    assert issues[0]["expected"] == "integer >= 1 <= 100"
    assert issues[0]["received"] == 'string "3"'


def test_an_integer_field_accepts_two_point_zero_and_rejects_two_point_five() -> None:
    accepted = validate_with_model(Patch, {"path": "a", "count": 2.0})
    assert accepted.ok and accepted.value.count == 2 and isinstance(accepted.value.count, int)
    assert validate_with_schema(PATCH_SCHEMA, {"path": "a", "count": 2.0}).ok
    rejected, twin = both({"path": "a", "count": 2.5})
    assert rejected == twin and rejected[0]["received"] == "number 2.5"


def test_a_number_field_accepts_an_integer() -> None:
    assert validate_with_model(Patch, {"path": "a", "ratio": 3}).ok
    assert validate_with_schema(PATCH_SCHEMA, {"path": "a", "ratio": 3}).ok


def test_a_boolean_is_not_an_integer_and_a_number_is_not_a_boolean() -> None:
    issues, twin = both({"path": "a", "count": True, "force": 1})
    assert [i["path"] for i in issues] == ["$.count", "$.force"] and issues == twin


def test_an_unknown_field_is_reported_with_the_known_ones() -> None:
    issues, twin = both({"path": "a", "colour": "red"})
    assert issues == twin
    assert issues[0]["path"] == "$.colour" and issues[0]["expected"] == "absent"
    assert "path, count, ratio, force, mode, edits" in issues[0]["message"]


def test_several_problems_are_reported_together_in_path_order() -> None:
    issues, twin = both({"count": 0, "edits": [{"old_text": "", "new_text": 1}, {}], "x": None})
    assert issues == twin
    assert [i["path"] for i in issues] == [
        "$.count",
        "$.edits[0].new_text",
        "$.edits[0].old_text",
        "$.edits[1].new_text",
        "$.edits[1].old_text",
        "$.path",
        "$.x",
    ]


def test_a_nested_issue_points_into_the_array() -> None:
    good = {"old_text": "x", "new_text": "y"}
    issues, _ = both({"path": "a", "edits": [good, good, {"old_text": 5, "new_text": ""}]})
    assert issues[0]["path"] == "$.edits[2].old_text"
    assert issues[0]["message"] == (
        "`edits[2].old_text` must be a string of at least 1 character, but got number 5."
    )


def test_received_is_cut_to_sixty_characters_however_large_the_value() -> None:
    issues, _ = both({"path": "x" * 10_000})
    assert issues == []
    issues, _ = both({"path": 7, "mode": "c" * 10_000})
    mode = next(i for i in issues if i["path"] == "$.mode")
    assert len(mode["received"]) == 60 and mode["received"].endswith("…")


def test_arguments_that_are_not_an_object_are_one_issue_at_the_root() -> None:
    for value in ([1, 2], "path", None, 3):
        issues, twin = both(value)
        assert issues == twin
        assert len(issues) == 1 and issues[0]["path"] == "$" and issues[0]["expected"] == "object"


def test_pointer_quotes_keys_that_are_not_identifiers() -> None:
    assert pointer(("edits", 2, "old_text")) == "$.edits[2].old_text"
    assert pointer(("a b",)) == '$["a b"]'
    assert pointer(()) == "$"


def test_describe_value_names_the_json_type() -> None:
    assert describe_value(3) == "number 3"
    assert describe_value(False) == "boolean false"
    assert describe_value(None) == "null"
    assert describe_value([1]) == "array of 1 item"
    assert describe_value({}) == "empty object"
    assert describe_value({"a": 1, "b": 2}) == "object with keys a, b"


def test_a_tool_model_that_coerces_or_allows_extras_is_refused_at_declaration() -> None:
    from pydantic import BaseModel

    class Loose(BaseModel):
        path: str

    async def handler(args: Any, ctx: Any) -> Any:
        raise AssertionError("never called")

    try:
        Declaration(name="loose", description="", kind="read", handler=handler, args_model=Loose)  # type: ignore[arg-type]
    except ValueError as error:
        assert "strict" in str(error)
    else:
        raise AssertionError("a lax model was accepted")


# ---------------------------------------------------------------- the two tracks agree

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ["path", "count", "ratio", "force", "mode", "edits", "extra"]
EDIT_LIKE = st.dictionaries(
    st.sampled_from(["old_text", "new_text", "other"]), JSON_VALUES, max_size=3
)
ARGUMENTS = st.one_of(
    st.dictionaries(
        st.sampled_from(FIELDS),
        st.one_of(JSON_VALUES, st.lists(st.one_of(EDIT_LIKE, JSON_VALUES), max_size=3)),
        max_size=6,
    ),
    JSON_VALUES,
)


@settings(max_examples=200, deadline=None)
@given(ARGUMENTS)
def test_a_model_and_its_json_schema_twin_give_identical_issues(arguments: Any) -> None:
    by_model, by_schema = both(arguments)
    assert by_model == by_schema
    assert (not by_model) == jsonschema.Draft202012Validator(PATCH_SCHEMA).is_valid(arguments)
    for issue in by_model:
        assert issue["path"].startswith("$") and len(issue["received"]) <= 60
        assert issue["message"].endswith(".")
