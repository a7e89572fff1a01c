"""REGISTRY: deterministic listing, valid schemas, advertised == callable (dskcode, agentkit,
@clarvis/agent-tools)."""

from typing import Any

import jsonschema
import pytest
from _checks import refused

from agentconf.contract import ToolKind
from agentconf.harness.session.listing import revealed_tools, string_arguments
from agentconf.harness.verdicts.errors import not_applicable


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
    # The contract's tools only: calling an implementation's own tools, even with `{}`, can run
    # anything (one opened a browser); the profile's exclude_tools are never called.
    for name in client.contract_tool_names():
        # Empty arguments: at worst INVALID_ARGS, and nothing runs that could do harm.
        result = client.call_raw(name, {})
        assert result.error != "TOOL_NOT_FOUND", result.evidence()


def rejected_arguments(schema: Any) -> dict[str, Any] | None:
    """An argument object the tool's own input schema rejects, so that calling the tool with it
    can run nothing (a conforming tool answers INVALID_ARGS); None when none can be made."""
    if not isinstance(schema, dict):
        return None
    candidates: list[dict[str, Any]] = [{}]
    properties = schema.get("properties")
    if isinstance(properties, dict):
        # Every known argument of a type no schema keyword accepts together with its own.
        candidates.append({name: [[["agentconf-not-an-argument"]]] for name in properties})
    candidates.append({"agentconf_no_such_argument": 0})
    try:
        validator = jsonschema.validators.validator_for(schema)(schema)
        for arguments in candidates:
            if not validator.is_valid(arguments):
                return arguments
    except jsonschema.SchemaError:
        return None  # REGISTRY-01 judges a broken schema
    return None


@pytest.mark.clause("REGISTRY-03")
def test_an_advertised_tool_outside_the_contract_is_callable_without_running_it(
    ws, client
) -> None:
    # Only where the profile opts in ([implementation].call_other_tools): by default a tool the
    # contract does not name is judged from tools/list alone (REGISTRY-01) and never called,
    # since a tool that does not validate runs on any arguments. Even then, only arguments the
    # tool's own schema rejects are sent; anything but TOOL_NOT_FOUND shows the tool is there.
    contract = set(client.contract_tool_names())
    others = [tool for tool in client.list_tools() if tool["name"] not in contract
              and tool["name"] not in client.profile.path_tools]
    if others and not client.profile.call_other_tools:
        not_applicable("tools outside the contract are judged from tools/list alone, never "
                    "called ([implementation].call_other_tools is false)")
    checked = 0
    for tool in others:
        arguments = rejected_arguments(tool.get("input_schema", tool.get("inputSchema")))
        if arguments is None or not client.may_call(tool["name"]):
            continue  # every object is valid for it: calling it could run it
        checked += 1
        result = client.call_raw(tool["name"], arguments)
        assert result.error != "TOOL_NOT_FOUND", result.evidence()
    if not checked:
        not_applicable("no advertised tool outside the contract can be called without running")


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
        not_applicable(f"{name!r} is advertised by this implementation")
    result = client.call_raw(name, {})
    refused(result, "TOOL_NOT_FOUND")


@pytest.mark.clause("REGISTRY-05")
def test_every_tool_declares_its_kind(client) -> None:
    kinds = {kind.value for kind in ToolKind}
    for tool in client.list_tools():
        assert tool.get("kind") in kinds, tool


@pytest.mark.clause("REGISTRY-07")
def test_tool_search_finds_a_tool_by_a_word_of_its_name(client) -> None:
    searcher = client.tool_name("tool_search")
    tools = [tool for tool in client.list_tools() if tool["name"] != searcher]
    if not tools:
        not_applicable("tool_search is the only tool")
    wanted = tools[0]
    result = client.call("tool_search", query=wanted["name"])
    assert result.success, result.evidence()
    assert wanted["name"] in result.data, result.evidence()
    properties = wanted.get("input_schema", {}).get("properties", {})
    if properties:
        assert any(name in result.data for name in properties), "no input schema in the answer"


# ---------------------------------------------------------------- tools revealed by tool_search

@pytest.mark.clause("REGISTRY-03")
@pytest.mark.requires("tool_search")
def test_a_tool_revealed_by_tool_search_is_callable(ws, client) -> None:
    ws.write("a.txt", "alpha\n")
    for tool in revealed_tools(client):  # only tools the kit may call (harness/session/reach.py)
        arguments = string_arguments(tool, "a.txt")
        result = client.call_raw(tool["name"], arguments if arguments is not None else {})
        assert result.error != "TOOL_NOT_FOUND", result.evidence()
