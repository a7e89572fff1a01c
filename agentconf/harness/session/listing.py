"""What a session advertises, as the suites need it: the first listing, revealed tools, and
arguments for a tool the contract does not name (every one of its required arguments a string).
"""

import weakref
from typing import Any

from agentconf.harness.session.client import Client
from agentconf.harness.verdicts.errors import not_applicable

# tool_search may reveal deferred tools, so a later listing can be longer: a property draws from
# the session's first listing, or hypothesis would see its choices change under it.
_FIRST_LISTING: "weakref.WeakKeyDictionary[Client, list[dict[str, Any]]]" = (
    weakref.WeakKeyDictionary()
)

# Words a deferred tool's name or description is likely to hold; what a search reveals is judged
# like any advertised tool, whatever it is.
SEARCH_WORDS = ("file", "info", "search", "list", "read", "write", "edit", "run", "find")


def first_listing(client: Client) -> list[dict[str, Any]]:
    """The session's first tools/list answer (asked for now if none was)."""
    if client not in _FIRST_LISTING:
        _FIRST_LISTING[client] = client.listing or client.list_tools()
    return _FIRST_LISTING[client]


def listed(client: Client, canonical: str) -> dict[str, Any] | None:
    """The listing entry of a canonical tool under the implementation's name, if advertised."""
    name = client.tool_name(canonical)
    return next((tool for tool in first_listing(client) if tool.get("name") == name), None)


def revealed_tools(client: Client) -> list[dict[str, Any]]:
    """Tools that tools/list shows only after tool_search has found them, and that the kit may
    call (never the profile's exclude_tools); n/a when none."""
    first = {tool["name"] for tool in client.list_tools()}
    for word in SEARCH_WORDS:
        client.call("tool_search", query=word)
    revealed = [tool for tool in client.list_tools()
                if tool["name"] not in first and client.may_call(tool["name"])]
    if not revealed:
        not_applicable("tool_search revealed no deferred tool")
    return revealed


def string_arguments(tool: dict[str, Any], *values: str) -> dict[str, Any] | None:
    """Every required argument set to a string, the i-th to `values[i % len(values)]`; None
    when a required argument is not a string (the tool cannot be called this way)."""
    schema = tool.get("input_schema", {})
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    required = schema.get("required", []) if isinstance(schema, dict) else []
    if not values or any(properties.get(name, {}).get("type") != "string" for name in required):
        return None
    return {name: values[index % len(values)] for index, name in enumerate(required)}
