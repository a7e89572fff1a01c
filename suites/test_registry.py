"""REGISTRY: deterministic listing, valid schemas, advertised == callable (dskcode, agentkit,
@clarvis/agent-tools)."""

import weakref
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.contract import ToolKind
from agentconf.strategies import hostile_paths, valid_arguments

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)


@pytest.mark.clause("REGISTRY-01")
def test_every_tool_has_a_unique_non_empty_name(client) -> None:
    names = [tool.get("name") for tool in client.list_tools()]
    assert names, "tools/list advertised no tools"
    assert all(isinstance(name, str) and name.strip() for name in names), names
    assert len(names) == len(set(names)), f"duplicate names in {names}"


@pytest.mark.clause("REGISTRY-01")
def test_every_tool_has_a_description(client) -> None:
    for tool in client.list_tools():
        assert isinstance(tool.get("description"), str), tool


@pytest.mark.clause("REGISTRY-01")
def test_every_input_schema_is_a_valid_json_schema_of_an_object(client) -> None:
    for tool in client.list_tools():
        schema = tool.get("input_schema")
        assert isinstance(schema, dict), tool
        validator = jsonschema.validators.validator_for(
            schema, default=jsonschema.Draft202012Validator
        )
        meta = validator(validator.META_SCHEMA)
        problem = jsonschema.exceptions.best_match(meta.iter_errors(schema))
        assert problem is None, f"{tool['name']}: input_schema is not valid JSON Schema: {problem}"
        assert schema.get("type") == "object", f"{tool['name']}: {schema}"


@pytest.mark.clause("REGISTRY-02")
def test_repeated_listings_give_the_same_tools_in_the_same_order(client) -> None:
    first = client.list_tools()
    for _ in range(3):
        assert client.list_tools() == first


@pytest.mark.clause("REGISTRY-02")
def test_a_listing_is_unchanged_by_calls_in_between(ws, client) -> None:
    first = client.list_tools()
    client.call_raw("agentconf_no_such_tool", {})
    if client.has("write_file"):
        client.call("write_file", path="between.txt", content="x")
    assert client.list_tools() == first


@pytest.mark.clause("REGISTRY-03")
def test_every_advertised_tool_is_callable(ws, client) -> None:
    for tool in client.list_tools():
        # Empty arguments: at worst INVALID_ARGS, and nothing runs that could do harm.
        result = client.call_raw(tool["name"], {})
        assert result.error != "TOOL_NOT_FOUND", result.evidence()


@pytest.mark.clause("REGISTRY-03")
@pytest.mark.parametrize(
    "canonical",
    [pytest.param(name, marks=pytest.mark.requires(name))
     for name in ("read_file", "write_file", "edit_file", "list_files", "grep", "bash")],
)
def test_a_canonical_tool_is_found_by_its_advertised_name(ws, client, canonical: str) -> None:
    advertised = {tool["name"] for tool in client.list_tools()}
    assert client.tool_name(canonical) in advertised
    result = client.call_raw(client.tool_name(canonical), {"path": 1, "pattern": 1})
    assert result.error != "TOOL_NOT_FOUND", result.evidence()


UNKNOWN_NAMES = [
    "agentconf_no_such_tool",
    "",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "../read_file",
    "read_file ",
    "tools/list",
]


@pytest.mark.clause("REGISTRY-04")
@pytest.mark.parametrize("name", UNKNOWN_NAMES)
def test_an_unknown_tool_answers_tool_not_found(client, name: str) -> None:
    advertised = {tool["name"] for tool in client.list_tools()}
    if name in advertised:
        pytest.skip(f"n/a: {name!r} is advertised by this implementation")
    result = client.call_raw(name, {})
    assert result.success is False, result.evidence()
    assert result.error == "TOOL_NOT_FOUND", result.evidence()


@pytest.mark.clause("REGISTRY-05")
def test_every_tool_declares_its_kind(client) -> None:
    kinds = {kind.value for kind in ToolKind}
    for tool in client.list_tools():
        assert tool.get("kind") in kinds, tool


# tool_search may reveal deferred tools, so a later listing can be longer: a property draws from
# the session's first listing, or hypothesis would see its choices change under it.
_FIRST_LISTING: "weakref.WeakKeyDictionary[Any, list[dict[str, Any]]]" = weakref.WeakKeyDictionary()


def _read_tools(client: Any) -> list[dict[str, Any]]:
    listing = _FIRST_LISTING.setdefault(client, client.list_tools())
    return [tool for tool in listing if tool.get("kind") == ToolKind.READ.value]


@pytest.mark.clause("REGISTRY-06")
def test_the_canonical_read_tools_change_nothing_on_disk(ws, client) -> None:
    ws.write("a.txt", "alpha\nbeta\n")
    ws.write("sub/b.txt", "beta\n")
    before = ws.tree()
    calls = [
        ("read_file", {"path": "a.txt"}),
        ("read_file", {"path": "sub/new.txt"}),
        ("list_files", {"path": "."}),
        ("list_files", {"path": "sub", "pattern": "*.txt"}),
        ("grep", {"pattern": "beta"}),
        ("grep", {"pattern": "beta", "path": "sub"}),
    ]
    ran = 0
    for tool, arguments in calls:
        if client.has(tool):
            client.call(tool, **arguments)
            ran += 1
    if not ran:
        pytest.skip("n/a: none of read_file, list_files, grep is advertised")
    assert ws.tree() == before


@pytest.mark.clause("REGISTRY-06")
@PROPERTY
@given(data=st.data())
def test_a_read_tool_changes_nothing_whatever_its_arguments(ws, client, data) -> None:
    tools = _read_tools(client)
    if not tools:
        pytest.skip("n/a: no tool declares kind read")
    if not ws.exists("a.txt"):
        ws.write("a.txt", "alpha\n")
        ws.write("sub/b.txt", "beta\n")
    before = ws.tree()
    tool = data.draw(st.sampled_from(tools), label="tool")
    strings: st.SearchStrategy[str] = st.sampled_from(
        ["a.txt", "sub", ".", "*", "**/*.txt", "beta", "new/f.txt", "sub/../a.txt"]
    )
    if client.has("confine_reads"):  # else a read outside is allowed, and the oracle would object
        strings = strings | hostile_paths(
            ws.root, outside=ws.outside, home=ws.home, sibling=ws.sibling
        )
    arguments = data.draw(valid_arguments(tool["input_schema"], strings=strings), label="args")
    client.call_raw(tool["name"], arguments)
    assert ws.tree() == before, f"{tool['name']}({arguments!r}) changed the root"


@pytest.mark.clause("REGISTRY-07")
def test_tool_search_finds_a_tool_by_a_word_of_its_name(client) -> None:
    searcher = client.tool_name("tool_search")
    tools = [tool for tool in client.list_tools() if tool["name"] != searcher]
    if not tools:
        pytest.skip("n/a: tool_search is the only tool")
    wanted = tools[0]
    result = client.call("tool_search", query=wanted["name"])
    assert result.success, result.evidence()
    assert wanted["name"] in result.data, result.evidence()
    properties = wanted.get("input_schema", {}).get("properties", {})
    if properties:
        assert any(name in result.data for name in properties), "no input schema in the answer"


# ---------------------------------------------------------------- tools revealed by tool_search

# Words a deferred tool's name or description is likely to hold; what a search reveals is judged
# like any advertised tool, whatever it is.
_SEARCH_WORDS = ("file", "info", "search", "list", "read", "write", "edit", "run", "find")


def _revealed_tools(client: Any) -> list[dict[str, Any]]:
    """Tools that tools/list shows only after tool_search has found them."""
    first = {tool["name"] for tool in client.list_tools()}
    for word in _SEARCH_WORDS:
        client.call("tool_search", query=word)
    revealed = [tool for tool in client.list_tools() if tool["name"] not in first]
    if not revealed:
        pytest.skip("n/a: tool_search revealed no deferred tool")
    return revealed


def _string_arguments(tool: dict[str, Any], value: str) -> dict[str, Any] | None:
    """`value` for every required argument, when all of them are strings; else None."""
    schema = tool.get("input_schema", {})
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if any(properties.get(name, {}).get("type") != "string" for name in required):
        return None
    return {name: value for name in required}


@pytest.mark.clause("REGISTRY-03")
@pytest.mark.requires("tool_search")
def test_a_tool_revealed_by_tool_search_is_callable(ws, client) -> None:
    ws.write("a.txt", "alpha\n")
    for tool in _revealed_tools(client):
        arguments = _string_arguments(tool, "a.txt")
        result = client.call_raw(tool["name"], arguments if arguments is not None else {})
        assert result.error != "TOOL_NOT_FOUND", result.evidence()


@pytest.mark.clause("REGISTRY-06")
@pytest.mark.requires("tool_search")
@pytest.mark.parametrize("path", ["a.txt", "blob.bin", "sub", "pipe", ".", "missing.txt"])
def test_a_revealed_read_tool_changes_nothing_whatever_it_is_pointed_at(ws, client, path) -> None:
    ws.write("a.txt", "alpha\nbeta\n")
    ws.write("blob.bin", b"\x00\x01\x02 binary")
    ws.write("sub/b.txt", "beta\n")
    ws.fifo("pipe")
    readers = [tool for tool in _revealed_tools(client) if tool.get("kind") == ToolKind.READ.value]
    callable_with_a_path = [
        (tool, arguments) for tool in readers
        if (arguments := _string_arguments(tool, path))
    ]
    if not callable_with_a_path:
        pytest.skip("n/a: no revealed read tool takes only string arguments")
    before = ws.tree()
    for tool, arguments in callable_with_a_path:
        client.call_raw(tool["name"], arguments)
        assert ws.tree() == before, f"{tool['name']}({arguments!r}) changed the root"
