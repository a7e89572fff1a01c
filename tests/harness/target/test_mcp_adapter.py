"""The mcp: adapter against small MCP servers written with the official SDK into each test's temp
dir, each tool acting out one behaviour: answers, coded failures, JSON-RPC errors, hangs, deaths.
"""

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import mcp_types as types
import pytest

from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.adapters.mcp import McpAdapter, open_mcp
from agentconf.harness.target.adapters.mcp_answers import envelope_from_result
from agentconf.harness.verdicts.errors import ImplementationFailure

# Generous bounds that only catch a hang, never judge speed (the machine is shared).
HANG_BOUND_S = 30.0

SCRIPTED_SERVER = textwrap.dedent('''
    """A small MCP server whose tools each act out one behaviour."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPError

    OBJECT = {"type": "object", "additionalProperties": True}
    READ_ONLY = types.ToolAnnotations(read_only_hint=True)
    WRITES = types.ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=True
    )


    def tool(name, annotations=None):
        return types.Tool(name=name, description=f"The {name} tool.", input_schema=OBJECT,
                          annotations=annotations)


    TOOLS = [tool("echo", READ_ONLY), tool("where"), tool("clarvis_fail", WRITES),
             tool("structured_fail"), tool("strict"), tool("rendezvous"), tool("hang"),
             tool("die")]
    arrivals = 0
    both_here = anyio.Event()


    def text(value):
        return [types.TextContent(type="text", text=value)]


    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=TOOLS)


    async def call_tool(ctx, params):
        global arrivals
        name, arguments = params.name, params.arguments
        if name == "echo":
            return types.CallToolResult(content=text(json.dumps(arguments, sort_keys=True)))
        if name == "where":
            seen = {"cwd": os.getcwd(), "home": os.environ.get("HOME"),
                    "tmp": os.environ.get("TMPDIR")}
            return types.CallToolResult(content=text(json.dumps(seen)))
        if name == "clarvis_fail":
            envelope = {"error": {"code": "path_escape", "message": "the path leaves the root"}}
            return types.CallToolResult(content=text(json.dumps(envelope)), is_error=True)
        if name == "structured_fail":
            return types.CallToolResult(content=text("no such file: a.txt"), is_error=True,
                                        structured_content={"error": {"code": "NOT_FOUND"}})
        if name == "strict":
            raise MCPError(-32602, "strict refuses every argument")
        if name == "rendezvous":
            # Answers only once a second call has arrived: calls sent one by one never meet.
            arrivals += 1
            if arrivals >= 2:
                both_here.set()
            await both_here.wait()
            return types.CallToolResult(content=text("met"))
        if name == "hang":
            child = subprocess.Popen(["sleep", "300"])
            Path("grandchild.pid").write_text(str(child.pid))
            Path("server.pid").write_text(str(os.getpid()))
            print("hanging on purpose", file=sys.stderr, flush=True)
            await anyio.sleep_forever()
        if name == "die":
            print("dying on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        raise MCPError(-32602, f"Unknown tool: {name}")


    async def main():
        print("scripted server up", file=sys.stderr, flush=True)
        server = Server("scripted", version="1.2.3", on_list_tools=list_tools,
                        on_call_tool=call_tool)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


    anyio.run(main)
''')

FAILS_AT_START = textwrap.dedent("""
    import sys
    print("boom: the config file /nowhere/server.toml is missing", file=sys.stderr, flush=True)
    sys.exit(2)
""")

# fs-mcp 1.47.3 without ripgrep: a banner, then why it will not start, all on stdout.
# It reads the kit's initialize first: a server that exits before that write lands breaks the
# pipe, and the SDK then drops what the server said after the lines it had already passed on.
SAYS_WHY_ON_STDOUT = textwrap.dedent("""
    import sys
    sys.stdin.readline()
    for line in range(30):
        print(f"banner line {line}", flush=True)
    print("MISSING REQUIRED DEPENDENCIES: install ripgrep (rg)", flush=True)
    sys.exit(1)
""")

NEVER_ANSWERS = textwrap.dedent("""
    import sys, time
    print("listening, but never answering", file=sys.stderr, flush=True)
    time.sleep(300)
""")


@pytest.fixture
def env(tmp_path: Path) -> AdapterEnv:
    for folder in ("root", "home", "tmp", "logs"):
        (tmp_path / folder).mkdir()
    return AdapterEnv(
        root=tmp_path / "root",
        home=tmp_path / "home",
        tmp=tmp_path / "tmp",
        call_timeout_s=3.0,
        start_timeout_s=20.0,
        log_dir=tmp_path / "logs",
    )


def _script(tmp_path: Path, name: str, source: str) -> list[str]:
    path = tmp_path / name
    path.write_text(source)
    return [sys.executable, str(path)]


@pytest.fixture
def scripted(tmp_path: Path, env: AdapterEnv):
    adapter = open_mcp(_script(tmp_path, "scripted_server.py", SCRIPTED_SERVER), env, None)
    yield adapter
    adapter.close()


def _alive(pid: int) -> bool:
    """Whether pid is a live process; a zombie waiting to be reaped counts as dead."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_dead(pid: int, bound_s: float = 10.0) -> bool:
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_the_handshake_names_the_server_and_its_version(scripted: McpAdapter) -> None:
    assert (scripted.name, scripted.version) == ("scripted", "1.2.3")


def test_tools_are_listed_with_their_schema_hints_and_read_only_hint_as_kind(
    scripted: McpAdapter,
) -> None:
    tools = {tool["name"]: tool for tool in scripted.list_tools()}
    assert tools["echo"] == {
        "name": "echo",
        "description": "The echo tool.",
        "input_schema": {"type": "object", "additionalProperties": True},
        "kind": "read",
        "annotations": {"readOnlyHint": True},
    }
    assert tools["clarvis_fail"]["kind"] == "other"
    assert tools["clarvis_fail"]["annotations"] == {
        "readOnlyHint": False, "destructiveHint": False, "idempotentHint": True
    }
    assert "kind" not in tools["where"], "no annotation is no claim about the kind"
    assert "annotations" not in tools["where"], "no hint is declared, so none is listed"


def test_a_successful_call_answers_a_success_envelope_with_the_text(scripted: McpAdapter) -> None:
    envelope = scripted.call_tool("echo", {"path": "a.txt", "n": 2})
    assert envelope == {"success": True, "data": '{"n": 2, "path": "a.txt"}'}


def test_the_server_runs_in_the_root_with_home_and_tmpdir_from_the_workspace(
    scripted: McpAdapter, env: AdapterEnv
) -> None:
    seen = json.loads(scripted.call_tool("where", {})["data"])
    assert seen == {"cwd": str(env.root), "home": str(env.home), "tmp": str(env.tmp)}


def test_a_code_in_a_json_envelope_in_the_text_becomes_the_error(scripted: McpAdapter) -> None:
    envelope = scripted.call_tool("clarvis_fail", {})
    assert envelope["success"] is False
    assert envelope["error"] == "path_escape"
    assert "the path leaves the root" in envelope["data"]


def test_a_code_in_structured_content_becomes_the_error(scripted: McpAdapter) -> None:
    envelope = scripted.call_tool("structured_fail", {})
    # The structured content travels along, for a profile's `result` places to point into.
    assert envelope == {"success": False, "data": "no such file: a.txt", "error": "NOT_FOUND",
                        "structured_content": {"error": {"code": "NOT_FOUND"}}}


def test_an_unknown_tool_answered_as_a_jsonrpc_error_is_a_tool_not_found_envelope(
    scripted: McpAdapter,
) -> None:
    envelope = scripted.call_tool("no_such_tool", {})
    assert envelope["success"] is False
    assert envelope["error"] == "TOOL_NOT_FOUND"
    assert envelope["protocol_error"] == {"code": -32602, "message": "Unknown tool: no_such_tool"}
    assert "no_such_tool" in envelope["data"]


def test_invalid_params_for_an_advertised_tool_is_an_invalid_args_envelope(
    scripted: McpAdapter,
) -> None:
    envelope = scripted.call_tool("strict", {"x": 1})
    assert envelope["error"] == "INVALID_ARGS"
    assert envelope["protocol_error"]["code"] == -32602
    assert envelope["success"] is False


def test_arguments_that_are_not_an_object_reach_the_server_and_come_back_as_an_envelope(
    scripted: McpAdapter,
) -> None:
    envelope = scripted.call_tool("echo", [1, 2])
    assert envelope["success"] is False
    assert envelope["error"] == "INVALID_ARGS"
    assert "protocol_error" in envelope
    # The session survives the refusal.
    assert scripted.call_tool("echo", {"a": 1})["success"] is True


def test_call_many_has_the_calls_in_flight_together(scripted: McpAdapter) -> None:
    # Each rendezvous call answers only after the other has arrived, so one-at-a-time would hang.
    answers = scripted.call_many([("rendezvous", {}), ("rendezvous", {})])
    assert answers == [{"success": True, "data": "met"}] * 2


def test_call_many_answers_in_the_order_of_the_calls(scripted: McpAdapter) -> None:
    answers = scripted.call_many([("echo", {"i": i}) for i in range(5)])
    assert [json.loads(answer["data"])["i"] for answer in answers] == [0, 1, 2, 3, 4]


def test_a_hung_tool_is_killed_with_its_process_group_and_reported(
    scripted: McpAdapter, env: AdapterEnv
) -> None:
    started = time.monotonic()
    with pytest.raises(ImplementationFailure, match=r"hang: no answer within 3 s.*killed"):
        scripted.call_tool("hang", {})
    assert time.monotonic() - started < HANG_BOUND_S
    server_pid = int((env.root / "server.pid").read_text())
    grandchild_pid = int((env.root / "grandchild.pid").read_text())
    assert _wait_dead(server_pid), "the hung server is still running"
    assert _wait_dead(grandchild_pid), "the server's child outlived the kill of its group"


def test_a_call_after_a_hang_is_refused_rather_than_hanging_again(scripted: McpAdapter) -> None:
    with pytest.raises(ImplementationFailure):
        scripted.call_tool("hang", {})
    with pytest.raises(ImplementationFailure, match="session is closed"):
        scripted.call_tool("echo", {})


def test_a_hung_call_shows_what_the_server_said_during_it_not_before(
    scripted: McpAdapter
) -> None:
    with pytest.raises(ImplementationFailure) as raised:
        scripted.call_tool("hang", {})
    assert "stderr during this call" in str(raised.value)
    assert "hanging on purpose" in str(raised.value)
    assert "scripted server up" not in str(raised.value)  # said at its start, before the call


def test_a_server_that_dies_mid_call_is_reported_with_its_stderr(scripted: McpAdapter) -> None:
    with pytest.raises(ImplementationFailure, match=r"(?s)closed the connection.*dying on purpose"):
        scripted.call_tool("die", {})


@pytest.mark.parametrize(("source", "said", "not_said"), [
    (FAILS_AT_START, "boom: the config file /nowhere/server.toml is missing", None),
    # on stdout: its last lines, not the whole banner before them
    (SAYS_WHY_ON_STDOUT, "MISSING REQUIRED DEPENDENCIES: install ripgrep (rg)", "banner line 0\n"),
], ids=["stderr", "stdout"])
def test_a_server_that_fails_to_start_is_reported_with_what_it_said(
    tmp_path: Path, env: AdapterEnv, source: str, said: str, not_said: str | None
) -> None:
    with pytest.raises(ImplementationFailure) as failure:
        open_mcp(_script(tmp_path, "fails.py", source), env, None)
    message = str(failure.value)
    assert "did not start" in message
    assert said in message, message
    assert not_said is None or not_said not in message, message


def test_a_command_that_does_not_exist_is_reported_not_raised_as_a_traceback(
    tmp_path: Path, env: AdapterEnv
) -> None:
    with pytest.raises(ImplementationFailure, match=r"(?s)did not start.*no-such-server-binary"):
        open_mcp([str(tmp_path / "no-such-server-binary")], env, None)


def test_a_server_that_never_answers_initialize_is_killed_within_the_start_timeout(
    tmp_path: Path, env: AdapterEnv
) -> None:
    quick = AdapterEnv(env.root, env.home, env.tmp, start_timeout_s=2.0, log_dir=env.log_dir)
    started = time.monotonic()
    with pytest.raises(
        ImplementationFailure, match=r"(?s)no answer to initialize.*never answering"
    ):
        open_mcp(_script(tmp_path, "silent.py", NEVER_ANSWERS), quick, None)
    assert time.monotonic() - started < HANG_BOUND_S


def test_closing_leaves_no_server_process_behind(scripted: McpAdapter) -> None:
    pid = scripted.pid
    assert pid is not None and _alive(pid)
    scripted.close()
    assert _wait_dead(pid)


def test_an_empty_command_is_one_clear_failure(env: AdapterEnv) -> None:
    with pytest.raises(ImplementationFailure, match="needs a command"):
        open_mcp([], env, None)


def test_the_root_placeholder_is_filled_per_workspace(tmp_path: Path, env: AdapterEnv) -> None:
    script = tmp_path / "scripted_server.py"
    script.write_text(SCRIPTED_SERVER)
    with open_mcp([sys.executable, str(script), "{root}"], env, None) as adapter:
        # The server received the root on its command line; echo shows it ran and answered.
        assert adapter.call_tool("echo", {})["success"] is True
        argv = Path(f"/proc/{adapter.pid}/cmdline").read_bytes().split(b"\0")
    assert str(env.root).encode() in argv


def test_non_text_content_is_named_in_data_rather_than_dropped() -> None:
    result = types.CallToolResult(
        content=[
            types.TextContent(type="text", text="a picture:"),
            types.ImageContent(type="image", data="aGk=", mime_type="image/png"),
        ]
    )
    assert envelope_from_result(result) == {
        "success": True,
        "data": "a picture:\n[image content: image/png]",
    }


def test_a_plain_text_failure_carries_no_code_for_the_profile_to_classify() -> None:
    result = types.CallToolResult(
        content=[types.TextContent(type="text", text="ENOENT: no such file")], is_error=True
    )
    assert envelope_from_result(result) == {"success": False, "data": "ENOENT: no such file"}


def test_structured_content_of_a_tools_own_is_no_envelope_field_of_the_contract() -> None:
    """A tool's own output (`summary` an object of counts) is kept for the profile's places, not
    copied in as the envelope's `summary`, a text (RESULT-01 once failed it on that)."""
    own = {"summary": {"total_files": 0}, "diff": ["a"], "exit_code": True, "issues": "none"}
    result = types.CallToolResult(content=[types.TextContent(type="text", text="set up")],
                                  structured_content=own)
    assert envelope_from_result(result) == {
        "success": True, "data": "set up", "structured_content": own}
    theirs = {"summary": "edited 1 line", "diff": "-a\n+b", "exit_code": 3, "issues": []}
    result = types.CallToolResult(content=[types.TextContent(type="text", text="ok")],
                                  structured_content=theirs)
    assert envelope_from_result(result) == {
        "success": True, "data": "ok", **theirs, "structured_content": theirs}


def test_the_sdks_warning_for_a_tool_the_kit_calls_unlisted_on_purpose_stays_off_the_console(
        caplog: pytest.LogCaptureFixture) -> None:
    """The kit calls unknown names on purpose (REGISTRY, init --from's probes); the SDK warned
    "Tool Read_File  not listed by server, ..." onto a new user's console for each."""
    import logging

    import agentconf.harness.target.adapters.mcp_runtime  # noqa: F401  (installs the filter)

    with caplog.at_level(logging.WARNING):
        logging.getLogger("client").warning(
            "Tool summon_dragon not listed by server, cannot validate any structured content")
        logging.getLogger("client").warning("Failed to validate the tool's output schema")
    assert [record.getMessage() for record in caplog.records] == [
        "Failed to validate the tool's output schema"]
