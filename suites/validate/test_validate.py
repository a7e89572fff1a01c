"""VALIDATE: bad arguments are INVALID_ARGS with structured issues, before anything runs (dskcode).

dskcode's ValidationIssue: `{path, expected, received, message}`, `path` a `$`-rooted pointer,
`received` cut to 60 characters, every problem of a call reported at once.
"""

import re
import weakref
from typing import Any

import pytest
from _checks import carried_by_the_refusal, refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.harness.cases.judged import documented_form
from agentconf.harness.session.arguments import top_argument
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.strategies import ill_typed_arguments

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
ISSUE_FIELDS = ("path", "expected", "received", "message")


def _pointers(client: Any, tool: str, argument: str) -> set[str]:
    """Where an issue about a canonical argument may point: its own name, or, when a profile maps
    it to another name, any of the implementation's fields."""
    properties = client.schema(tool).get("properties", {})
    if argument in properties:
        return {f"$.{argument}"}
    return {f"$.{name}" for name in properties}


def _assert_invalid(result: Any) -> None:
    refused(result, "INVALID_ARGS")


def _assert_well_formed(result: Any) -> None:
    carried_by_the_refusal(result)
    assert isinstance(result.issues, list) and result.issues, result.evidence()
    for issue in result.issues:
        assert isinstance(issue, dict), result.evidence()
        for field in ISSUE_FIELDS:
            assert isinstance(issue.get(field), str), f"issue lacks string {field}: {issue}"
        assert issue["path"].startswith("$"), issue


# ---------------------------------------------------------------- VALIDATE-01 missing required

def _call_unless_documented(client: Any, tool: str, **arguments: Any) -> Any:
    """The call, judged as invalid only where the tool's own schema does not accept it as sent:
    a write whose schema gives `content` a default documents a write without it (the golden
    cases judge alike, agentconf/harness/cases/judged.py)."""
    if (why := documented_form(client, tool, arguments)) is not None:
        not_applicable(why)
    return client.call(tool, **arguments)


@pytest.mark.clause("VALIDATE-01")
def test_a_write_without_content_is_invalid_and_creates_nothing(ws, client) -> None:
    before = ws.tree()
    result = _call_unless_documented(client, "write_file", path="new.txt")
    _assert_invalid(result)
    assert ws.tree() == before


@pytest.mark.clause("VALIDATE-01")
def test_a_write_without_path_is_invalid_and_creates_nothing(ws, client) -> None:
    before = ws.tree()
    result = _call_unless_documented(client, "write_file", content="orphan content")
    _assert_invalid(result)
    assert ws.tree() == before


@pytest.mark.clause("VALIDATE-01")
@pytest.mark.requires("edit_file")
def test_an_edit_without_old_text_is_invalid_and_changes_nothing(ws, client) -> None:
    ws.write("a.txt", "alpha\n")
    if client.has("read_file"):
        client.call("read_file", path="a.txt")
    before = ws.tree()
    result = _call_unless_documented(client, "edit_file", path="a.txt", new_text="beta")
    _assert_invalid(result)
    assert ws.tree() == before


@pytest.mark.clause("VALIDATE-01")
@pytest.mark.requires("bash")
def test_bash_without_a_command_is_invalid(ws, client) -> None:
    _assert_invalid(client.call("bash"))


# ---------------------------------------------------------------- VALIDATE-02 wrong JSON type

WRONG_TYPES = [
    pytest.param("read_file", {"path": 3}, id="read-path-number"),
    pytest.param("read_file", {"path": None}, id="read-path-null"),
    pytest.param("read_file", {"path": ["a.txt"]}, id="read-path-list"),
    pytest.param("read_file", {"path": {"name": "a.txt"}}, id="read-path-object"),
    pytest.param("read_file", {"path": True}, id="read-path-bool"),
    pytest.param("read_file", {"path": "a.txt", "start_line": "3"},
                 marks=pytest.mark.requires("line_window"), id="read-start-line-string"),
    pytest.param("read_file", {"path": "a.txt", "end_line": True},
                 marks=pytest.mark.requires("line_window"), id="read-end-line-bool"),
    pytest.param("write_file", {"path": "n.txt", "content": 123},
                 marks=pytest.mark.requires("write_file"), id="write-content-number"),
    pytest.param("edit_file", {"path": "a.txt", "old_text": "a", "new_text": "b",
                               "replace_all": "true"},
                 marks=pytest.mark.requires("edit_file", "replace_all"),
                 id="edit-replace-all-string"),
    pytest.param("bash", {"command": "echo x", "timeout_ms": "1000"},
                 marks=pytest.mark.requires("bash", "shell_timeout"), id="bash-timeout-string"),
    pytest.param("bash", {"command": ["echo", "x"]},
                 marks=pytest.mark.requires("bash"), id="bash-command-list"),
]


@pytest.mark.clause("VALIDATE-02")
@pytest.mark.parametrize(("tool", "arguments"), WRONG_TYPES)
def test_a_value_of_the_wrong_json_type_is_not_coerced(ws, client, tool, arguments) -> None:
    ws.write("a.txt", "alpha\n")
    before = ws.tree()
    result = _call_unless_documented(client, tool, **arguments)
    _assert_invalid(result)
    assert ws.tree() == before


# ---------------------------------------------------------------- VALIDATE-03 unknown argument

def _unknown(client: Any, tool: str, name: str) -> str | None:
    """`name` if the implementation's `tool` has no such argument and the profile sends none
    there (a mapped `path` may be spelled `file_path`); else None: the check would be false."""
    mapping = client.profile.tool(tool)
    taken = set(client.schema(tool).get("properties", {})) | {
        top_argument(target) for target in mapping.args.values()}
    return None if name in taken else name


@pytest.mark.clause("VALIDATE-03")
@pytest.mark.parametrize("extra", ["Path", "file_path", "force", "mode"])
def test_an_unknown_argument_is_invalid_and_the_write_does_not_run(ws, client, extra) -> None:
    if _unknown(client, "write_file", extra) is None:
        not_applicable(f"{extra} is a real argument of this write_file")
    before = ws.tree()
    result = client.call("write_file", path="new.txt", content="x", **{extra: "x"})
    _assert_invalid(result)
    assert ws.tree() == before


@pytest.mark.clause("VALIDATE-03")
@pytest.mark.requires("read_file")
@pytest.mark.parametrize("extra", ["file_path", "agentconf_unknown"])
def test_an_unknown_argument_to_read_file_is_invalid(ws, client, extra) -> None:
    if _unknown(client, "read_file", extra) is None:
        not_applicable(f"{extra} is a real argument of this read_file")
    ws.write("a.txt", "alpha\n")
    result = client.call("read_file", path="a.txt", **{extra: "a.txt"})
    _assert_invalid(result)


# ---------------------------------------------------------------- VALIDATE-04..07 the issues

INVALID_CALLS = [
    pytest.param("read_file", {"path": 3}, marks=pytest.mark.requires("read_file"),
                 id="read-path-number"),
    pytest.param("read_file", {}, marks=pytest.mark.requires("read_file"), id="read-no-path"),
    pytest.param("read_file", {"path": "a.txt", "bogus": 1},
                 marks=pytest.mark.requires("read_file"), id="read-unknown-field"),
    pytest.param("write_file", {"path": "n.txt"}, marks=pytest.mark.requires("write_file"),
                 id="write-no-content"),
    pytest.param("bash", {"command": 7}, marks=pytest.mark.requires("bash"), id="bash-number"),
]


@pytest.mark.clause("VALIDATE-04")
@pytest.mark.parametrize(("tool", "arguments"), INVALID_CALLS)
def test_invalid_args_carry_issues_with_four_string_fields(ws, client, tool, arguments) -> None:
    result = _call_unless_documented(client, tool, **arguments)
    _assert_invalid(result)
    _assert_well_formed(result)


@pytest.mark.clause("VALIDATE-05")
@pytest.mark.requires("read_file")
def test_an_issue_about_a_wrong_type_points_at_that_field(client) -> None:
    result = client.call("read_file", path=3)
    _assert_invalid(result)
    _assert_well_formed(result)
    paths = {issue["path"] for issue in result.issues}
    assert paths & _pointers(client, "read_file", "path"), result.evidence()


@pytest.mark.clause("VALIDATE-05")
@pytest.mark.requires("write_file")
def test_an_issue_about_a_missing_field_points_at_that_field(client) -> None:
    result = _call_unless_documented(client, "write_file", path="n.txt")
    _assert_invalid(result)
    _assert_well_formed(result)
    paths = {issue["path"] for issue in result.issues}
    assert paths & _pointers(client, "write_file", "content"), result.evidence()


@pytest.mark.clause("VALIDATE-05")
@pytest.mark.requires("read_file")
def test_an_issue_about_an_unknown_field_points_at_it_or_at_the_arguments(client) -> None:
    result = client.call("read_file", path="a.txt", bogus=1)
    _assert_invalid(result)
    _assert_well_formed(result)
    assert {issue["path"] for issue in result.issues} & {"$", "$.bogus"}, result.evidence()


@pytest.mark.clause("VALIDATE-05")
@pytest.mark.requires("read_file")
def test_issue_paths_are_dollar_rooted_pointers(client) -> None:
    result = client.call("read_file", path=["a"], bogus=None)
    _assert_invalid(result)
    _assert_well_formed(result)
    pointer = re.compile(r"^\$(\.[A-Za-z_][\w-]*|\[\d+\])*$")
    for issue in result.issues:
        assert pointer.match(issue["path"]), issue


HUGE_VALUES = [
    pytest.param("x" * 1_000_000, id="one-megabyte-string"),
    pytest.param(list(range(20_000)), id="long-list"),
    pytest.param({f"key{i}": "v" * 50 for i in range(2_000)}, id="wide-object"),
    pytest.param(10**200, id="huge-integer"),
    pytest.param("é" * 500 + "😀" * 500, id="multibyte-string"),
]


@pytest.mark.clause("VALIDATE-06")
@pytest.mark.parametrize("value", HUGE_VALUES)
def test_received_is_at_most_sixty_characters_however_large_the_value(client, value) -> None:
    if client.has("read_file"):
        tool, arguments = "read_file", {"path": "a.txt"}
    elif client.has("write_file"):
        tool, arguments = "write_file", {"path": "n.txt", "content": "x"}
    else:
        not_applicable("the implementation lacks read_file and write_file, whose path "
                    "arguments this check sends huge values to")
    # A string is a valid path, so a huge string goes into an unknown field instead.
    field = "bogus" if isinstance(value, str) else "path"
    result = client.call(tool, **{**arguments, field: value})
    _assert_invalid(result)
    _assert_well_formed(result)
    limit = client.limits.received_max_chars
    for issue in result.issues:
        assert len(issue["received"]) <= limit, issue
    assert len(result.data) < 100_000, "the huge value was echoed back in data"


@pytest.mark.clause("VALIDATE-07")
@pytest.mark.requires("read_file")
def test_several_problems_in_one_call_are_reported_together(client) -> None:
    arguments: dict[str, Any] = {"path": 3, "bogus": 1}
    if client.has("line_window"):
        arguments["start_line"] = "one"
    result = client.call("read_file", **arguments)
    _assert_invalid(result)
    _assert_well_formed(result)
    paths = {issue["path"] for issue in result.issues}
    assert paths & _pointers(client, "read_file", "path"), result.evidence()
    assert len(result.issues) >= len(arguments), result.evidence()
    if client.has("line_window"):
        assert paths & _pointers(client, "read_file", "start_line"), result.evidence()


@pytest.mark.clause("VALIDATE-07")
def test_two_missing_fields_are_two_issues(client) -> None:
    result = client.call("write_file")
    _assert_invalid(result)
    _assert_well_formed(result)
    paths = {issue["path"] for issue in result.issues}
    assert paths & _pointers(client, "write_file", "path"), result.evidence()
    assert paths & _pointers(client, "write_file", "content"), result.evidence()
    assert len(paths) >= 2, result.evidence()


# ---------------------------------------------------------------- VALIDATE-08 2.0 is an integer

@pytest.mark.clause("VALIDATE-08")
def test_an_integer_argument_accepts_a_number_with_no_fraction(ws, client) -> None:
    ws.write("a.txt", "alpha\nbravo\ncharlie\n")
    # Judged against the same window in integers: whether the window itself is right is
    # READ-06's subject, and a wrong one must not fail this clause too.
    integral = client.call("read_file", path="a.txt", start_line=2, end_line=3)
    if not integral.success:
        not_applicable("the window start_line=2, end_line=3 fails in integers too (READ-06)")
    result = client.call("read_file", path="a.txt", start_line=2.0, end_line=3.0)
    assert result.success, result.evidence()
    for word in ("alpha", "bravo", "charlie"):
        assert (word in result.data) == (word in integral.data), (
            f"2.0 and 3.0 do not read what 2 and 3 read ({word!r})\n{result.evidence()}\n"
            f"in integers:\n{integral.evidence()}")


@pytest.mark.clause("VALIDATE-08")
@pytest.mark.parametrize("value", [2.5, 1.0001, 1e-9])
def test_an_integer_argument_rejects_a_fraction(ws, client, value: float) -> None:
    ws.write("a.txt", "alpha\nbravo\ncharlie\n")
    _assert_invalid(client.call("read_file", path="a.txt", start_line=value))


# ---------------------------------------------------------------- VALIDATE-09 not an object

@pytest.mark.clause("VALIDATE-09")
@pytest.mark.parametrize(
    "arguments",
    [["a.txt"], "a.txt", None, 3, True],
    ids=["array", "string", "null", "number", "bool"],
)
def test_arguments_that_are_not_an_object_are_invalid(ws, client, arguments) -> None:
    ws.write("a.txt", "alpha\n")
    _assert_invalid(client.call_raw(client.tool_name("read_file"), arguments))


# ---------------------------------------------------------------- VALIDATE-10 the property

# A tool that runs commands gets only harmless strings, in case a broken validator lets one through.
_SAFE_STRINGS = {
    "bash": st.sampled_from(["true", "echo agentconf"]),
}
_DEFAULT_STRINGS = st.sampled_from(["a.txt", "sub", "new.txt", "alpha", "*.txt", ".", ""])


def _assert_refused_at_real_fields(result, schema: dict, arguments: dict) -> None:
    """INVALID_ARGS with well-formed issues, each pointing at the call itself or at a field the
    schema declares or the call sent."""
    _assert_invalid(result)
    _assert_well_formed(result)
    fields = set(schema.get("properties", {})) | set(arguments)
    for issue in result.issues:
        path = issue["path"]
        assert path == "$" or any(
            path == f"$.{name}" or path.startswith((f"$.{name}.", f"$.{name}["))
            for name in fields
        ), f"issue points at no real field: {issue}"


def _ill_typed(schema: dict[str, Any], strings: Any = None) -> Any:
    """ill_typed_arguments(schema), or None when the schema accepts every object (no typed
    field, nothing required, extra fields allowed): then no argument can be ill-typed."""
    try:
        return ill_typed_arguments(schema, strings=strings)
    except ValueError:
        return None


@pytest.mark.clause("VALIDATE-10")
@pytest.mark.parametrize(
    "tool",
    [pytest.param(name, marks=pytest.mark.requires(name))
     for name in ("read_file", "write_file", "edit_file", "list_files", "grep", "bash")],
)
@PROPERTY
@given(data=st.data())
def test_ill_typed_arguments_from_the_schema_get_well_formed_issues(ws, client, tool, data) -> None:
    if not ws.exists("a.txt"):
        ws.write("a.txt", "alpha\n")
    before = ws.tree()
    schema = client.schema(tool)
    strings = _SAFE_STRINGS.get(tool, _DEFAULT_STRINGS)
    ill_typed = _ill_typed(schema, strings)
    if ill_typed is None:
        not_applicable(f"{tool}'s input schema accepts every object (no typed field, nothing "
                       "required, extra fields allowed): no argument can be ill-typed")
    arguments = data.draw(ill_typed, label="arguments")
    result = client.call_raw(client.tool_name(tool), arguments)
    _assert_refused_at_real_fields(result, schema, arguments)
    assert ws.tree() == before


# ---------------------------------------------------------------- VALIDATE-11 the message

@pytest.mark.clause("VALIDATE-11")
def test_an_issue_message_names_the_field_it_is_about(client) -> None:
    result = client.call("read_file", path=3)
    _assert_invalid(result)
    _assert_well_formed(result)
    about_path = [
        issue for issue in result.issues
        if issue["path"] in _pointers(client, "read_file", "path")
    ]
    assert about_path, result.evidence()
    for issue in about_path:
        field = issue["path"].removeprefix("$.")
        assert field in issue["message"], issue
        assert len(issue["message"].split()) >= 3, f"not a sentence: {issue}"


# Words a deferred tool's name or description is likely to hold (as in test_registry.py).
_SEARCH_WORDS = ("file", "info", "search", "list", "read", "write", "edit", "run", "find")
_REVEALED: "weakref.WeakKeyDictionary[Any, list[dict[str, Any]]]" = weakref.WeakKeyDictionary()


def _revealed_tools(client: Any) -> list[dict[str, Any]]:
    """Tools listed only after tool_search found them, found once per session: hypothesis must
    see the same choices in every example."""
    if client not in _REVEALED:
        first = {tool["name"] for tool in client.list_tools()}
        for word in _SEARCH_WORDS:
            client.call("tool_search", query=word)
        _REVEALED[client] = [t for t in client.list_tools()
                             if t["name"] not in first and client.may_call(t["name"])]
    return _REVEALED[client]


@pytest.mark.clause("VALIDATE-10")
@pytest.mark.requires("tool_search")
@PROPERTY
@given(data=st.data())
def test_a_tool_revealed_by_tool_search_validates_like_any_other(ws, client, data) -> None:
    found = [tool for tool in _revealed_tools(client) if tool["name"] != client.tool_name("bash")]
    if not found:
        not_applicable("tool_search revealed no deferred tool")
    strategies = {tool["name"]: _ill_typed(tool.get("input_schema", {}), _DEFAULT_STRINGS)
                  for tool in found}
    revealed = [tool for tool in found if strategies[tool["name"]] is not None]
    if not revealed:
        not_applicable("every tool tool_search revealed accepts any object as its arguments: "
                       "none can be ill-typed")
    if not ws.exists("a.txt"):
        ws.write("a.txt", "alpha\n")
    before = ws.tree()
    tool = data.draw(st.sampled_from(revealed), label="tool")
    schema = tool.get("input_schema", {})
    arguments = data.draw(strategies[tool["name"]], label="arguments")
    result = client.call_raw(tool["name"], arguments)
    _assert_refused_at_real_fields(result, schema, arguments)
    assert ws.tree() == before


@pytest.mark.clause("VALIDATE-09")
@pytest.mark.requires("tool_search")
@pytest.mark.parametrize(
    "arguments", [["a.txt"], "a.txt", None, 3], ids=["array", "string", "null", "number"]
)
def test_arguments_to_a_revealed_tool_that_are_not_an_object_are_invalid(
    ws, client, arguments
) -> None:
    revealed = [tool for tool in _revealed_tools(client)
                if tool["name"] != client.tool_name("bash")]
    if not revealed:
        not_applicable("tool_search revealed no deferred tool")
    ws.write("a.txt", "alpha\n")
    for tool in revealed:
        _assert_invalid(client.call_raw(tool["name"], arguments))
