"""A wait a tool documents before it answers raises the kit's bound on a call above it."""

from typing import Any

import pytest

from agentconf.init_from.shape import map_listing
from agentconf.init_from.waits import call_bound_ms, documented_wait

INT = {"type": "integer"}


def _shell(**extra: dict[str, Any]) -> list[dict[str, Any]]:
    properties = {"cmd": {"type": "string"}, "timeout_ms": {**INT, "default": 300000}, **extra}
    return [{"name": "exec_command", "description": "Run a shell command.",
             "inputSchema": {"type": "object", "properties": properties, "required": ["cmd"]}}]


@pytest.mark.parametrize(("extra", "wait"), [
    # coding-tools-mcp 0.5.0: the call returns after yield_time_ms, the command runs on.
    ({"yield_time_ms": {**INT, "default": 10000}}, 10000),
    ({"wait_seconds": {**INT, "default": 15}}, 15000),
    ({"poll_interval": {**INT, "description": "How long to wait. Default 30 seconds."}}, 30000),
], ids=["yield-ms", "wait-seconds", "said-in-words"])
def test_a_wait_a_tool_documents_is_outlasted_by_the_kit_s_bound_on_a_call(
        extra: dict[str, Any], wait: int) -> None:
    listing = _shell(**extra)
    found = documented_wait(listing, map_listing(listing))
    assert found is not None and found[0] == wait, found
    assert call_bound_ms(wait) > wait


@pytest.mark.parametrize("extra", [
    {},  # a command's timeout ends the command, not the call
    {"yield_time_ms": {**INT, "default": 2000}},  # well within the usual bound
    {"wait": {**INT, "default": 60}},  # no unit anywhere: nothing to go by
], ids=["timeout-only", "short-wait", "no-unit"])
def test_no_bound_is_drafted_where_no_long_wait_is_documented(extra: dict[str, Any]) -> None:
    listing = _shell(**extra)
    assert documented_wait(listing, map_listing(listing)) is None
