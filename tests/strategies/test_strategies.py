"""The public strategies do what their docstrings promise, checked against jsonschema and a real
directory with real symlinks."""

import json
import os
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from agentconf.contract import Workspace
from agentconf.reference import create
from agentconf.strategies import (
    BOM,
    LINK_FARM_IN,
    LINK_FARM_LOOPS,
    LINK_FARM_OUT,
    eol_texts_with_edit,
    hostile_paths,
    ill_typed_arguments,
    json_values,
    outputs_around_limit,
    sibling_prefix_names,
    valid_arguments,
)

HAND_WRITTEN_SCHEMAS: dict[str, dict[str, Any]] = {
    "flat": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "count": {"type": "integer", "minimum": 1}},
        "required": ["path"],
        "additionalProperties": False,
    },
    "optional-with-null": {
        "type": "object",
        "properties": {
            "start": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
            "flag": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "refs-and-enum": {
        "type": "object",
        "$defs": {"Mode": {"enum": ["fast", "slow"]}},
        "properties": {
            "mode": {"$ref": "#/$defs/Mode"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
            "ratio": {"type": "number", "maximum": 1},
        },
        "required": ["mode"],
    },
}


def _reference_schemas() -> dict[str, dict[str, Any]]:
    """The reference's own tool schemas: real pydantic output, `anyOf` nulls and all."""
    with tempfile.TemporaryDirectory(prefix="agentconf-schemas-") as root:
        system = create(Workspace(root=Path(root)))
        return {tool["name"]: tool["input_schema"] for tool in system.list_tools()}


SCHEMAS = {**HAND_WRITTEN_SCHEMAS,
           **{f"reference-{name}": schema for name, schema in _reference_schemas().items()}}


class _Reached(Exception):
    def __init__(self, value: Any) -> None:
        super().__init__("reached")
        self.value = value


def _reached(strategy: st.SearchStrategy[Any], condition: Any, examples: int = 500) -> Any:
    """The first drawn value meeting `condition`, or None: like hypothesis.find, minus the
    shrinking that makes find slow."""

    @settings(max_examples=examples, database=None, phases=[Phase.generate], derandomize=True,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(strategy)
    def probe(value: Any) -> None:
        if condition(value):
            raise _Reached(value)

    try:
        probe()
    except _Reached as reached:
        return reached.value
    return None


def _validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    return jsonschema.validators.validator_for(schema)(schema)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_valid_arguments_pass_their_schema(name: str) -> None:
    validator = _validator(SCHEMAS[name])

    @given(valid_arguments(SCHEMAS[name]))
    def check(arguments: dict[str, Any]) -> None:
        assert validator.is_valid(arguments), list(validator.iter_errors(arguments))
        json.dumps(arguments)

    check()


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_ill_typed_arguments_fail_their_schema(name: str) -> None:
    validator = _validator(SCHEMAS[name])

    @given(ill_typed_arguments(SCHEMAS[name]))
    def check(arguments: dict[str, Any]) -> None:
        assert not validator.is_valid(arguments)
        json.dumps(arguments)

    check()


def test_ill_typed_arguments_include_a_numeric_string_for_an_integer() -> None:
    schema = HAND_WRITTEN_SCHEMAS["flat"]
    found = _reached(ill_typed_arguments(schema), lambda a: isinstance(a.get("count"), str))
    assert found is not None and isinstance(found["count"], str)


def test_ill_typed_arguments_include_a_missing_required_field_and_an_unknown_one() -> None:
    schema = HAND_WRITTEN_SCHEMAS["flat"]
    assert _reached(ill_typed_arguments(schema), lambda a: "path" not in a) is not None
    assert _reached(ill_typed_arguments(schema), lambda a: bool(set(a) - {"path", "count"}))


def test_a_schema_that_accepts_every_object_cannot_be_ill_typed() -> None:
    with pytest.raises(ValueError, match="accepts every object"):
        _reached(ill_typed_arguments({"type": "object"}), lambda a: True, examples=1)


@given(json_values())
def test_json_values_are_json(value: Any) -> None:
    assert json.loads(json.dumps(value)) == value


@given(sibling_prefix_names("root"))
def test_sibling_prefix_names_start_with_the_root_name_but_are_not_it(name: str) -> None:
    assert name.startswith("root") and name != "root"


# ---------------------------------------------------------------- hostile paths on a real disk

@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sandbox shaped like the harness's: root, outside, home, sibling, and the link farm."""
    top = tmp_path_factory.mktemp("hostile") / "sandbox"
    root, outside = top / "root", top / "outside"
    for folder in (root / "sub", outside, top / "home", top / "root_evil"):
        folder.mkdir(parents=True)
    (outside / "secret.txt").write_text("s")
    (root / "sub" / "inner.txt").write_text("i")
    os.symlink(outside, root / "link_out")
    os.symlink(outside / "secret.txt", root / "link_out_file")
    os.symlink("sub", root / "link_in")
    os.symlink("sub/inner.txt", root / "link_in_file")
    os.symlink(outside / "created_by_escape.txt", root / "dangling_out")
    os.symlink("loop_b", root / "loop_a")
    os.symlink("loop_a", root / "loop_b")
    return top


def _readings(path: str, root: Path, home: Path) -> list[str]:
    """The ways a careless implementation might read a path: as given, `@` stripped, `~`
    expanded, backslashes as separators, NFKC-normalised."""
    stripped = path.lstrip("@")
    variants = {path, stripped, stripped.replace("\\", "/"),
                unicodedata.normalize("NFKC", stripped).replace("\\", "/")}
    for text in list(variants):
        if text == "~" or text.startswith("~/"):
            variants.add(str(home) + text[1:])
    return [os.path.join(root, text) for text in variants if "\x00" not in text]


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_paths_never_lead_above_the_sandbox(sandbox: Path, data: st.DataObject) -> None:
    root = sandbox / "root"
    path = data.draw(hostile_paths(root, outside=sandbox / "outside", home=sandbox / "home",
                                   sibling=sandbox / "root_evil"))
    for candidate in _readings(path, root, sandbox / "home"):
        for resolved in (os.path.realpath(candidate), os.path.normpath(candidate)):
            assert Path(resolved).is_relative_to(sandbox), f"{path!r} -> {resolved}"


@pytest.mark.parametrize(
    ("what", "condition"),
    [
        ("a climb out", lambda p: p.startswith("../") or "/../" in p),
        ("a link out", lambda p: any(name in p for name in LINK_FARM_OUT)),
        ("a link in", lambda p: any(name in p for name in LINK_FARM_IN)),
        ("a loop", lambda p: any(name in p for name in LINK_FARM_LOOPS)),
        ("an absolute path", lambda p: p.startswith("/")),
        ("a mention", lambda p: p.startswith("@")),
        ("a tilde", lambda p: p.startswith("~/")),
        ("a sibling prefix", lambda p: "root_evil" in p or "/root-" in p),
        ("a backslash", lambda p: "\\" in p),
        ("non-ascii", lambda p: not p.isascii()),
    ],
)
def test_hostile_paths_reach_every_kind_of_trap(what: str, condition: Any) -> None:
    strategy = hostile_paths(
        "/s/root", outside="/s/outside", home="/s/home", sibling="/s/root_evil"
    )
    assert _reached(strategy, condition, examples=2000) is not None, what


# ---------------------------------------------------------------- line endings

@given(eol_texts_with_edit())
def test_an_eol_edit_has_one_match_and_its_expected_bytes_are_that_splice(case: Any) -> None:
    text = case.original.removeprefix(BOM).decode("utf-8")
    assert text.count(case.old_text) == 1
    start = case.original.index(case.old_text.encode())
    old_bytes = case.old_text.encode()
    assert case.expected == (case.original[:start] + case.new_text.encode()
                             + case.original[start + len(old_bytes):])
    assert case.original.startswith(BOM) == case.bom
    assert case.original.endswith((b"\n", b"\r")) == case.final_newline
    assert "\r" not in case.old_text + case.new_text and "\n" not in case.old_text + case.new_text


@pytest.mark.parametrize(
    ("what", "condition"),
    [
        ("crlf", lambda c: b"\r\n" in c.original),
        ("lone cr", lambda c: b"\r" in c.original.replace(b"\r\n", b"")),
        ("mixed", lambda c: len(set(c.eols)) > 1),
        ("bom without final newline", lambda c: c.bom and not c.final_newline),
    ],
)
def test_eol_edits_reach_every_line_ending_state(what: str, condition: Any) -> None:
    assert _reached(eol_texts_with_edit(), condition) is not None, what


# ---------------------------------------------------------------- outputs around a limit

@given(outputs_around_limit(300))
def test_outputs_around_a_limit_have_no_outer_whitespace_and_land_near_it(text: str) -> None:
    assert text == text.strip()
    assert 0 < len(text) <= 3 * 300 + 50
    assert "\ufffd" not in text


@pytest.mark.parametrize(
    "condition",
    [lambda t: len(t) <= 300, lambda t: len(t) > 300, lambda t: len(t.encode()) > 2 * len(t)],
    ids=["under", "over", "multibyte"],
)
def test_outputs_around_a_limit_fall_on_both_sides_of_it(condition: Any) -> None:
    assert _reached(outputs_around_limit(300), condition) is not None
