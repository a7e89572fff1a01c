"""The Node example speaks the `cmd:` protocol: JSON-RPC 2.0 lines, envelopes, ids, end of input.

Black box: each test starts `node examples/node/agentconf-tools.mjs ROOT` on a private temp root.
"""

import json
import os
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest

from agentconf.contract import CANONICAL_TOOLS, ERROR_CODES, Envelope, ToolKind
from agentconf.contract.protocol import JSONRPC_METHOD_NOT_FOUND, JSONRPC_PARSE_ERROR

from .node_server import NODE, SERVER_SCRIPT, NodeServer

HANG_BOUND_S = 20.0


def test_tools_list_offers_the_six_canonical_tools_with_closed_object_schemas(
    server: NodeServer,
) -> None:
    tools = server.answer(server.send("tools/list"))["result"]["tools"]
    by_name = {tool["name"]: tool for tool in tools}
    assert set(by_name) == {"read_file", "write_file", "edit_file", "list_files", "grep", "bash"}
    for name, tool in by_name.items():
        schema = tool["input_schema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        canonical = CANONICAL_TOOLS[name]
        assert set(schema["properties"]) == set(canonical.arguments), name
        assert set(schema["required"]) == set(canonical.required), name
        assert tool["kind"] == canonical.kind.value
        assert tool["description"].strip()


def test_tools_list_gives_the_same_tools_in_the_same_order_every_time(server: NodeServer) -> None:
    first = server.answer(server.send("tools/list"))["result"]
    second = server.answer(server.send("tools/list"))["result"]
    assert first == second


def test_every_tools_call_answer_is_an_envelope_for_success_and_failure(
    server: NodeServer, root: Path
) -> None:
    (root / "a.txt").write_text("alpha\n")
    answers = [
        server.call("read_file", path="a.txt"),
        server.call("read_file", path="missing.txt"),
        server.call("bash", command="exit 4"),
        server.call_raw("read_file", ["not", "an", "object"]),
    ]
    for envelope in answers:
        Envelope.model_validate(envelope)
        if envelope["success"]:
            assert "error" not in envelope or envelope["error"] is None
        else:
            assert envelope["error"] in ERROR_CODES
            assert envelope["data"].strip() and envelope["data"] != envelope["error"]
    assert [envelope["success"] for envelope in answers] == [True, False, False, False]


def test_a_line_that_is_not_json_answers_a_parse_error_and_the_server_keeps_going(
    server: NodeServer,
) -> None:
    server.send_line(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/li')
    error = server.next_message()
    assert error["id"] is None and error["error"]["code"] == JSONRPC_PARSE_ERROR
    tools = server.answer(server.send("tools/list"))["result"]["tools"]
    assert len(tools) == 6


def test_an_unknown_tool_is_answered_with_an_envelope_not_a_protocol_error(
    server: NodeServer,
) -> None:
    envelope = server.call("delete_everything", path=".")
    assert envelope["success"] is False and envelope["error"] == "TOOL_NOT_FOUND"
    assert "read_file" in envelope["data"]  # the model is told what it can call instead


def test_an_unknown_method_answers_method_not_found_and_initialize_is_optional(
    server: NodeServer,
) -> None:
    unknown = server.answer(server.send("resources/list"))
    assert unknown["error"]["code"] == JSONRPC_METHOD_NOT_FOUND
    info = server.answer(server.send("initialize", {"client": {"name": "test"}}))["result"]
    assert info["name"] and info["version"]


def test_calls_in_flight_together_are_answered_by_their_ids_as_each_finishes(
    server: NodeServer, root: Path
) -> None:
    (root / "a.txt").write_text("alpha\n")
    slow = server.send(
        "tools/call", {"name": "bash", "arguments": {"command": "sleep 1; echo slow"}}
    )
    quick = server.send("tools/call", {"name": "read_file", "arguments": {"path": "a.txt"}})
    assert server.answer(quick)["result"]["success"] is True
    assert slow not in server.answers  # the quick call was not queued behind the slow one
    assert server.answer(slow)["result"]["data"].strip() == "slow"
    assert server.order.index(quick) < server.order.index(slow)


def test_end_of_input_finishes_the_calls_in_flight_then_exits(server: NodeServer) -> None:
    pending = server.send(
        "tools/call", {"name": "bash", "arguments": {"command": "sleep 0.3; echo done"}}
    )
    server.end_input()
    assert server.answer(pending)["result"]["data"].strip() == "done"
    assert server.process.wait(timeout=HANG_BOUND_S) == 0


def test_concurrent_edits_of_one_file_are_serialised_and_none_is_lost(
    server: NodeServer, root: Path
) -> None:
    (root / "many.txt").write_text("".join(f"line {n}\n" for n in range(20)))
    assert server.call("read_file", path="many.txt")["success"]
    ids = [
        server.send(
            "tools/call",
            {
                "name": "edit_file",
                "arguments": {
                    "path": "many.txt",
                    "old_text": f"line {n}\n",
                    "new_text": f"LINE {n}\n",
                },
            },
        )
        for n in range(20)
    ]
    assert all(server.answer(request)["result"]["success"] for request in ids)
    assert (root / "many.txt").read_text() == "".join(f"LINE {n}\n" for n in range(20))


@pytest.mark.skipif(NODE is None, reason="node is not installed on this machine")
def test_a_missing_root_is_one_line_on_stderr_and_exit_status_2(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "AGENTCONF_ROOT"}
    for argv in ([], [str(tmp_path / "nowhere")]):
        done = subprocess.run(
            [NODE, str(SERVER_SCRIPT), *argv],
            capture_output=True,
            text=True,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=HANG_BOUND_S,
            check=False,
        )
        assert done.returncode == 2
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert done.stdout == ""


@pytest.mark.skipif(NODE is None, reason="node is not installed on this machine")
def test_the_root_can_be_given_in_agentconf_root(tmp_path: Path) -> None:
    (tmp_path / "hello.txt").write_text("from the env root\n")
    request = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "read_file", "arguments": {"path": "hello.txt"}},
    }
    done = subprocess.run(
        [NODE, str(SERVER_SCRIPT)],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        timeout=HANG_BOUND_S,
        check=False,
        env={**os.environ, "AGENTCONF_ROOT": str(tmp_path)},
    )
    answer = json.loads(done.stdout)
    assert answer["id"] == 7 and "from the env root" in answer["result"]["data"]
    assert done.returncode == 0


def test_a_timed_out_command_leaves_no_process_of_its_group_alive(
    server: NodeServer, root: Path
) -> None:
    started = time.monotonic()
    envelope = server.call(
        "bash", command="(sleep 60 & echo $! > grandchild.pid; wait)", timeout_ms=300
    )
    assert envelope["error"] == "TIMEOUT"
    assert time.monotonic() - started < HANG_BOUND_S
    grandchild = int((root / "grandchild.pid").read_text())
    deadline = time.monotonic() + HANG_BOUND_S  # SIGKILL lands at once; allow for a busy machine
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    # A killed child of an exited shell is reparented and reaped, or lingers as a zombie.
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return status != "Z"


def test_kinds_come_from_the_contract_vocabulary(server: NodeServer) -> None:
    tools = server.answer(server.send("tools/list"))["result"]["tools"]
    assert {tool["kind"] for tool in tools} <= {kind.value for kind in ToolKind}
