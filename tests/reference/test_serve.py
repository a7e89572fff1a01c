"""`agentconf serve` as a black box: a real subprocess spoken to over stdio, every message it
writes validated against the published protocol schema."""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from agentconf import __version__
from agentconf.contract import CONTRACT_VERSION

# Hang guard only: no assertion is made about how long anything takes.
WAIT_S = 60
SCHEMA = json.loads(files("agentconf").joinpath("schemas", "protocol.schema.json").read_text())
PROTOCOL = Draft202012Validator(SCHEMA)
# initialize and shutdown are optional methods the published schema does not describe; their
# answers are checked against the JSON-RPC frame the schema uses for every response.
FRAME = Draft202012Validator(
    {
        "type": "object",
        "required": ["jsonrpc", "id", "result"],
        "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["integer", "string"]}},
    }
)


class Peer:
    """The client side of one `agentconf serve` process."""

    def __init__(self, root: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agentconf", "serve", "--root", str(root), *extra],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "HOME": str(root.parent)},
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.optional_ids: set[Any] = set()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send_line(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def send(self, request_id: Any, method: str, params: Any = None, **extra: Any) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        message.update(extra)
        if method in ("initialize", "shutdown"):
            self.optional_ids.add(request_id)
        self.send_line(json.dumps(message).encode())

    def call(self, request_id: Any, tool: str, arguments: Any) -> None:
        self.send(request_id, "tools/call", {"name": tool, "arguments": arguments})

    def receive(self) -> dict[str, Any]:
        line = self.lines.get(timeout=WAIT_S)
        assert line is not None, f"server closed its output; stderr: {self.stderr()}"
        message = json.loads(line)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        if message.get("id") in self.optional_ids and "result" in message:
            FRAME.validate(message)
        else:
            PROTOCOL.validate(message)
        return message

    def request(self, request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
        self.send(request_id, method, params)
        answer = self.receive()
        assert answer["id"] == request_id
        return answer

    def close_input(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def wait(self) -> int:
        return self.process.wait(timeout=WAIT_S)

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=WAIT_S)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None and not stream.closed:
                stream.close()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    return root


@pytest.fixture
def peer(root: Path) -> Iterator[Peer]:
    peer = Peer(root)
    yield peer
    peer.stop()


def gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def test_tools_list_advertises_every_tool_with_its_schema(peer: Peer) -> None:
    tools = peer.request(1, "tools/list")["result"]["tools"]
    names = [tool["name"] for tool in tools]
    assert {"grep", "bash"} <= set(names)
    for tool in tools:
        assert tool["input_schema"]["type"] == "object"
        assert tool["description"]
        assert tool["kind"] in ("read", "edit", "delete", "move", "other")
    assert peer.request(2, "tools/list")["result"]["tools"] == tools


def test_tools_call_answers_the_envelope(peer: Peer, root: Path) -> None:
    (root / "notes.txt").write_text("alpha\nneedle\n")
    peer.call("grep-1", "grep", {"pattern": "needle"})
    answer = peer.receive()
    assert answer["id"] == "grep-1"
    assert answer["result"] == {"success": True, "data": "notes.txt:2:needle\n"}


def test_a_failing_call_is_an_envelope_not_a_protocol_error(peer: Peer) -> None:
    peer.call(1, "bash", {"command": "echo oops >&2; exit 4"})
    result = peer.receive()["result"]
    assert result["success"] is False
    assert result["error"] == "NONZERO_EXIT"
    assert result["exit_code"] == 4
    peer.call(2, "bash", ["not", "an", "object"])
    assert peer.receive()["result"]["error"] == "INVALID_ARGS"
    peer.call(3, "no_such_tool", {})
    assert peer.receive()["result"]["error"] == "TOOL_NOT_FOUND"


def test_an_answer_echoing_a_lone_surrogate_still_reaches_the_client(peer: Peer) -> None:
    """A path with a lone surrogate (legal in JSON, not in UTF-8) is echoed in the answer; the
    answer must still be sent, escaped, rather than the request going unanswered."""
    peer.send_line(b'{"jsonrpc":"2.0","id":7,"method":"tools/call",'
                   b'"params":{"name":"read_file","arguments":{"path":"lone\\ud800.txt"}}}')
    answer = peer.receive()
    assert answer["id"] == 7 and answer["result"]["success"] is False


def test_requests_run_concurrently_and_answers_carry_their_ids(peer: Peer) -> None:
    # The first call can only succeed once the second has run: a server that answered one
    # request at a time would let the first give up waiting and fail.
    waiting = "for i in $(seq 200); do [ -e flag ] && break; sleep 0.05; done; cat flag"
    peer.call(1, "bash", {"command": waiting, "timeout_ms": 50_000})
    peer.call(2, "bash", {"command": "echo released > flag; echo second"})
    answers = {answer["id"]: answer["result"] for answer in (peer.receive(), peer.receive())}
    assert answers[2]["data"] == "second\n"
    assert answers[1] == {"success": True, "data": "released\n", "exit_code": 0}


def test_a_malformed_line_is_a_parse_error_and_serving_goes_on(peer: Peer) -> None:
    peer.send_line(b'{"jsonrpc": "2.0", "id": 1, "method": ')
    answer = peer.receive()
    assert answer["id"] is None
    assert answer["error"]["code"] == -32700
    peer.send_line(b"\xff\xfe not even utf-8")
    assert peer.receive()["error"]["code"] == -32700
    assert "tools" in peer.request(2, "tools/list")["result"]


def test_an_unknown_method_is_method_not_found(peer: Peer) -> None:
    answer = peer.request(5, "tools/destroy")
    assert answer["error"]["code"] == -32601
    assert "tools/destroy" in answer["error"]["message"]


@pytest.mark.parametrize(
    "message",
    [
        {"id": 1, "method": "tools/list"},  # no jsonrpc
        {"jsonrpc": "2.0", "id": 1, "method": 7},
        {"jsonrpc": "2.0", "id": {"x": 1}, "method": "tools/list"},
        [1, 2, 3],
    ],
)
def test_a_message_that_is_not_a_request_is_an_invalid_request(peer: Peer, message: Any) -> None:
    peer.send_line(json.dumps(message).encode())
    answer = peer.receive()
    assert answer["error"]["code"] == -32600
    assert answer["id"] in (None, 1)


def test_tools_call_without_a_tool_name_is_invalid_params(peer: Peer) -> None:
    answer = peer.request(3, "tools/call", {"arguments": {}})
    assert answer["error"]["code"] == -32602


def test_a_notification_gets_no_answer(peer: Peer) -> None:
    peer.send_line(b'{"jsonrpc": "2.0", "method": "tools/list"}')
    peer.send_line(b'{"jsonrpc": "2.0", "method": "no/such/method"}')
    assert peer.request(9, "tools/list")["id"] == 9


def test_initialize_names_the_server_and_its_versions(peer: Peer) -> None:
    result = peer.request(1, "initialize", {})["result"]
    assert result == {
        "name": "agentconf-reference",
        "version": __version__,
        "contract_version": CONTRACT_VERSION,
        "cancel_request": True,
    }


def test_shutdown_is_answered_then_the_server_exits(peer: Peer) -> None:
    assert peer.request(1, "shutdown")["result"] == {}
    assert peer.wait() == 0
    assert peer.lines.get(timeout=WAIT_S) is None


def test_end_of_input_lets_calls_in_flight_answer_then_exits_zero(peer: Peer) -> None:
    peer.call(1, "bash", {"command": "sleep 0.5; echo finished"})
    peer.close_input()
    assert peer.receive()["result"]["data"] == "finished\n"
    assert peer.wait() == 0


def test_sigterm_stops_the_server_and_the_commands_it_runs(peer: Peer, root: Path) -> None:
    peer.call(1, "bash", {"command": "echo $$ > pid.tmp; mv pid.tmp pid; sleep 300"})
    pid_file = root / "pid"
    for _ in range(WAIT_S * 20):
        if pid_file.exists():
            break
        time.sleep(0.05)
    pid = int(pid_file.read_text())
    try:
        peer.process.send_signal(signal.SIGTERM)
        assert peer.wait() == 128 + signal.SIGTERM
        for _ in range(250):
            if gone(pid):
                break
            time.sleep(0.02)
        assert gone(pid)
    finally:
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)


def test_only_protocol_lines_reach_stdout(peer: Peer) -> None:
    peer.call(1, "bash", {"command": "echo to-stdout; echo to-stderr >&2"})
    assert peer.receive()["result"]["success"]
    peer.request(2, "shutdown")
    assert peer.wait() == 0
    # Every line was parsed and validated by receive(); nothing else may follow.
    assert peer.lines.get(timeout=WAIT_S) is None


@pytest.mark.parametrize("problem", ["missing", "file"])
def test_a_bad_root_is_one_clear_line_and_exit_2(tmp_path: Path, problem: str) -> None:
    bad = tmp_path / "nothing-here"
    if problem == "file":
        bad.write_text("not a folder")
    completed = subprocess.run(
        [sys.executable, "-m", "agentconf", "serve", "--root", str(bad)],
        capture_output=True,
        timeout=WAIT_S,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    assert completed.returncode == 2
    assert completed.stdout == b""
    lines = completed.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert str(bad) in lines[0]
    assert "Traceback" not in lines[0]


def test_a_cancel_request_stops_the_call_answers_cancelled_and_the_next_call_is_served(
    peer: Peer, root: Path
) -> None:
    command = "sleep 300 & echo $! > sleeper.pid; touch started; wait"
    peer.call(5, "bash", {"command": command, "timeout_ms": 600_000})
    deadline = time.monotonic() + WAIT_S
    while not (root / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert (root / "started").exists(), peer.stderr()
    sleeper = int((root / "sleeper.pid").read_text())
    peer.send_line(json.dumps(
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 5}}
    ).encode())
    answer = peer.receive()
    assert answer["id"] == 5 and answer["result"]["error"] == "CANCELLED", answer
    deadline = time.monotonic() + WAIT_S  # a bound that only catches a survivor
    while not gone(sleeper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(sleeper), "the command's background sleep outlived the cancelled call"
    assert peer.request(6, "tools/list")["result"]["tools"]


def test_a_cancel_request_for_no_call_in_flight_is_ignored(peer: Peer) -> None:
    peer.send_line(b'{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 99}}')
    assert peer.request(7, "tools/list")["id"] == 7



MCP_START = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "a client that goes away", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


@pytest.mark.parametrize("transport", ["cmd", "mcp"])
def test_a_client_that_stops_reading_gets_one_line_and_exit_141_not_a_traceback(
    root: Path, transport: str
) -> None:
    mcp = transport == "mcp"
    process = subprocess.Popen(
        [sys.executable, "-m", "agentconf", "serve", *(["--mcp"] if mcp else []),
         "--root", str(root)],
        cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "HOME": str(root.parent)})
    assert process.stdin is not None and process.stdout is not None
    try:
        first = MCP_START if mcp else [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]
        process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in first))
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1  # it was serving
        process.stdout.close()  # the client stops reading its answers
        for request_id in range(2, 6):
            process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                            "method": "tools/list"}).encode() + b"\n")
            process.stdin.flush()
        process.stdin.close()
        process.wait(timeout=WAIT_S)  # a line or two on stderr: no pipe to fill meanwhile
        assert process.stderr is not None
        stderr = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=WAIT_S)
    text = stderr.decode(errors="replace")
    assert process.returncode == 128 + signal.SIGPIPE, text
    assert "Traceback" not in text and "Exception ignored" not in text, text
    assert text.count("the client closed its end of stdout") == 1, text
