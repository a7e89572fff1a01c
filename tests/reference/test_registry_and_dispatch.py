"""The registry's one filter, and the dispatcher's one pipeline, with small local tools."""

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from agentconf.contract import DEFAULT_LIMITS, Denial, Envelope, ToolKind, Workspace
from agentconf.reference.context import ToolContext
from agentconf.reference.declare import Arguments, Declaration
from agentconf.reference.dispatch import Dispatcher
from agentconf.reference.permissions import (
    AllowAll,
    DenyTools,
    PermissionGate,
    PermissionRequest,
    ReadOnly,
)
from agentconf.reference.registry import ToolRegistry
from agentconf.reference.results import ToolError, ok
from agentconf.reference.session import Session


class Text(Arguments):
    text: str = Field(description="Anything.")


def tool(name: str, handler: Any, **fields: Any) -> Declaration:
    fields.setdefault("kind", ToolKind.READ)
    return Declaration(name=name, description=f"the {name} tool", handler=handler, args_model=Text,
                    **fields)


async def echo(args: Text, ctx: ToolContext) -> Envelope:
    return ok(args.text)


# ---------------------------------------------------------------- registry


def test_the_enable_filter_is_an_and_of_config_flag_and_provider() -> None:
    specs = [
        tool("plain", echo),
        tool("disabled", echo),
        tool("flagged", echo, feature_flag="experimental"),
        tool("claude_only", echo, supported_providers=("anthropic",)),
    ]
    registry = ToolRegistry(
        specs, disabled={"disabled"}, feature_enabled=lambda f: f != "experimental",
        provider="openai",
    )
    assert [spec.name for spec in registry.listed()] == ["plain"]
    assert [registry.get(spec.name) is not None for spec in specs] == [True, False, False, False]


def test_a_provider_filter_only_applies_to_tools_that_name_providers() -> None:
    registry = ToolRegistry([tool("claude_only", echo, supported_providers=("anthropic",))],
                            provider="anthropic")
    assert registry.get("claude_only") is not None
    assert ToolRegistry([tool("claude_only", echo, supported_providers=("x",))]).listed()


def test_listing_keeps_registration_order_and_rejects_duplicates() -> None:
    names = ["zeta", "alpha", "mid"]
    registry = ToolRegistry([tool(name, echo) for name in names])
    assert [spec.name for spec in registry.listed()] == names == [s.name for s in registry.listed()]
    with pytest.raises(ValueError, match="twice"):
        ToolRegistry([tool("a", echo), tool("a", echo)])


def test_a_deferred_tool_is_listed_and_callable_only_once_revealed() -> None:
    registry = ToolRegistry([tool("open", echo), tool("hidden", echo, deferred=True)])
    assert [s.name for s in registry.listed()] == ["open"] and registry.get("hidden") is None
    assert [s.name for s in registry.listed({"hidden"})] == ["open", "hidden"]
    assert registry.get("hidden", {"hidden"}) is not None


def test_a_non_string_name_is_simply_not_a_tool() -> None:
    assert ToolRegistry([tool("a", echo)]).get(["a"]) is None


# ---------------------------------------------------------------- dispatch


def dispatcher(
    tmp_path: Path, *specs: Declaration, gate: PermissionGate | None = None, timeout: float = 10.0,
    **limits: int,
) -> Dispatcher:
    context = ToolContext(
        workspace=Workspace(root=tmp_path),
        root=tmp_path.resolve(),
        write_roots=(tmp_path.resolve(),),
        limits=DEFAULT_LIMITS.with_overrides(limits),
        session=Session(),
        catalogue=(registry := ToolRegistry(specs)),
    )
    return Dispatcher(context, registry, gate or AllowAll(), timeout)


def run(dispatch: Dispatcher, name: Any, arguments: Any) -> dict[str, Any]:
    return asyncio.run(dispatch.call(name, arguments)).to_wire()


def test_an_unknown_tool_is_an_envelope_listing_the_tools(tmp_path: Path) -> None:
    answer = run(dispatcher(tmp_path, tool("echo", echo)), "ech0", {"text": "x"})
    assert answer["error"] == "TOOL_NOT_FOUND" and "echo" in answer["data"]


def test_invalid_arguments_never_reach_the_handler(tmp_path: Path) -> None:
    called = []

    async def spy(args: Text, ctx: ToolContext) -> Envelope:
        called.append(args)
        return ok("ran")

    answer = run(dispatcher(tmp_path, tool("spy", spy)), "spy", {"text": 1, "more": 2})
    assert answer["error"] == "INVALID_ARGS" and len(answer["issues"]) == 2 and called == []
    assert "- `text` must be a string" in answer["data"]


def test_a_flood_of_unknown_fields_is_reported_in_a_readable_number(tmp_path: Path) -> None:
    arguments = {"text": "x", **{f"k{n:03}": n for n in range(100)}}
    answer = run(dispatcher(tmp_path, tool("echo", echo)), "echo", arguments)
    assert len(answer["issues"]) == 25 and "and 75 more problems" in answer["data"]
    assert len(answer["data"]) <= DEFAULT_LIMITS.message_budget_chars


def test_a_denial_carries_source_reason_and_hint(tmp_path: Path) -> None:
    gate = DenyTools({"echo"}, reason="echo is off in this project.", hint="Ask the user.")
    answer = run(dispatcher(tmp_path, tool("echo", echo), gate=gate), "echo", {"text": "x"})
    assert answer["error"] == "PERMISSION_DENIED"
    assert answer["denial"] == {"source": "policy", "reason": "echo is off in this project.",
                                "hint": "Ask the user."}
    assert "Ask the user." in answer["data"]


def test_an_async_gate_sees_the_validated_arguments(tmp_path: Path) -> None:
    seen: list[PermissionRequest] = []

    class Recording:
        async def check(self, request: PermissionRequest) -> Denial | None:
            seen.append(request)
            return None

    answer = run(dispatcher(tmp_path, tool("echo", echo), gate=Recording()), "echo", {"text": "x"})
    assert answer["success"]
    assert seen == [PermissionRequest(tool="echo", kind=ToolKind.READ, arguments={"text": "x"})]


def test_the_read_only_gate_lets_reads_through_and_stops_the_rest(tmp_path: Path) -> None:
    specs = (tool("look", echo), tool("change", echo, kind=ToolKind.EDIT))
    dispatch = dispatcher(tmp_path, *specs, gate=ReadOnly())
    assert run(dispatch, "look", {"text": "x"})["success"]
    assert run(dispatch, "change", {"text": "x"})["denial"]["source"] == "policy"


def test_an_exception_in_a_tool_becomes_execution_error_without_its_text(tmp_path: Path) -> None:
    async def broken(args: Text, ctx: ToolContext) -> Envelope:
        raise RuntimeError("/home/someone/secret path in the message")

    answer = run(dispatcher(tmp_path, tool("broken", broken)), "broken", {"text": "x"})
    assert answer["error"] == "EXECUTION_ERROR" and "RuntimeError" in answer["data"]
    assert "/home/someone" not in answer["data"]


def test_a_tool_error_becomes_its_own_code(tmp_path: Path) -> None:
    async def refuses(args: Text, ctx: ToolContext) -> Envelope:
        raise ToolError("ALREADY_EXISTS", "It is there already. Pick another name.")

    answer = run(dispatcher(tmp_path, tool("refuses", refuses)), "refuses", {"text": "x"})
    assert answer == {"success": False, "data": "It is there already. Pick another name.",
                      "error": "ALREADY_EXISTS"}


def test_a_handler_that_returns_no_envelope_is_a_reported_bug(tmp_path: Path) -> None:
    async def sloppy(args: Text, ctx: ToolContext) -> Any:
        return "just a string"

    answer = run(dispatcher(tmp_path, tool("sloppy", sloppy)), "sloppy", {"text": "x"})
    assert answer["error"] == "EXECUTION_ERROR"


def test_a_broken_gate_is_still_answered_with_an_envelope(tmp_path: Path) -> None:
    class Broken:
        def check(self, request: PermissionRequest) -> Denial | None:
            raise KeyError("oops")

    answer = run(dispatcher(tmp_path, tool("echo", echo), gate=Broken()), "echo", {"text": "x"})
    assert answer["error"] == "EXECUTION_ERROR"


def test_a_handler_past_the_deadline_is_stopped_with_timeout(tmp_path: Path) -> None:
    stopped = threading.Event()

    async def slow(args: Text, ctx: ToolContext) -> Envelope:
        try:
            await asyncio.sleep(30)
        finally:
            stopped.set()
        return ok("too late")

    answer = run(dispatcher(tmp_path, tool("slow", slow), timeout=0.2), "slow", {"text": "x"})
    assert answer["error"] == "TIMEOUT" and stopped.is_set()


def test_a_worker_thread_sees_the_stop_flag_after_a_timeout(tmp_path: Path) -> None:
    saw_flag = threading.Event()

    def busy(ctx: ToolContext) -> Envelope:
        for _ in range(1000):
            if ctx.stop_requested():
                saw_flag.set()
                break
            threading.Event().wait(0.01)
        return ok("done")

    async def threaded(args: Text, ctx: ToolContext) -> Envelope:
        return await asyncio.to_thread(busy, ctx)

    dispatch = dispatcher(tmp_path, tool("threaded", threaded), timeout=0.1)
    assert run(dispatch, "threaded", {"text": "x"})["error"] == "TIMEOUT"
    assert saw_flag.is_set()


def test_a_handler_cancelled_from_inside_answers_cancelled(tmp_path: Path) -> None:
    async def gives_up(args: Text, ctx: ToolContext) -> Envelope:
        raise asyncio.CancelledError

    answer = run(dispatcher(tmp_path, tool("gives_up", gives_up)), "gives_up", {"text": "x"})
    assert answer["error"] == "CANCELLED"


def test_the_callers_own_cancellation_stops_the_handler_and_propagates(tmp_path: Path) -> None:
    stopped = threading.Event()

    async def slow(args: Text, ctx: ToolContext) -> Envelope:
        try:
            await asyncio.sleep(30)
        finally:
            stopped.set()
        return ok("never")

    dispatch = dispatcher(tmp_path, tool("slow", slow))

    async def caller() -> None:
        task = asyncio.ensure_future(dispatch.call("slow", {"text": "x"}))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(caller())
    assert stopped.is_set()


def test_long_output_is_bounded_head_and_tail_unless_the_tool_bounds_its_own(
    tmp_path: Path,
) -> None:
    async def loud(args: Text, ctx: ToolContext) -> Envelope:
        return ok("H" + "x" * 10_000 + "T", diff="d" * 10_000)

    specs = (tool("loud", loud), tool("self_bounded", loud, bounds_own_output=True))
    dispatch = dispatcher(tmp_path, *specs, max_output_chars=100)
    bounded = run(dispatch, "loud", {"text": ""})
    assert bounded["data"].startswith("H") and bounded["data"].endswith("T")
    assert "truncated 9902 chars" in bounded["data"] and len(bounded["diff"]) < 200
    assert len(run(dispatch, "self_bounded", {"text": ""})["data"]) == 10_002


def test_a_long_failure_message_is_kept_within_the_message_budget(tmp_path: Path) -> None:
    async def wordy(args: Text, ctx: ToolContext) -> Envelope:
        raise ToolError("IO_ERROR", "word " * 5000)

    answer = run(dispatcher(tmp_path, tool("wordy", wordy)), "wordy", {"text": "x"})
    assert len(answer["data"]) <= DEFAULT_LIMITS.message_budget_chars
