"""A small black-box client for the Node example: start it, speak JSON-RPC lines, read answers.

Kept apart from the harness's own `cmd:` adapter on purpose: these tests check the example over
the bare protocol, so a bug in the harness cannot hide a bug in the example, or the reverse.
"""

import json
import os
import queue
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SERVER_SCRIPT = REPO / "examples" / "node" / "agentconf-tools.mjs"
NODE = shutil.which("node")
ANSWER_TIMEOUT_S = 20.0


class NodeServer:
    """One running server (one session) rooted at `root`."""

    def __init__(self, root: Path, home: Path) -> None:
        assert NODE is not None
        env = {**os.environ, "HOME": str(home), "TMPDIR": str(home)}
        env.pop("AGENTCONF_ROOT", None)
        self.process = subprocess.Popen(
            [NODE, str(SERVER_SCRIPT), str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=root,
            env=env,
            start_new_session=True,
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.answers: dict[Any, dict[str, Any]] = {}
        self.order: list[Any] = []  # ids in the order their answers arrived
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(json.loads(raw))

    def send_line(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def send(self, method: str, params: Any = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send_line(json.dumps(message).encode())
        return self._next_id

    def next_message(self, timeout: float = ANSWER_TIMEOUT_S) -> dict[str, Any]:
        message = self.lines.get(timeout=timeout)
        self.order.append(message.get("id"))
        self.answers[message.get("id")] = message
        return message

    def answer(self, request_id: Any, timeout: float = ANSWER_TIMEOUT_S) -> dict[str, Any]:
        while request_id not in self.answers:
            self.next_message(timeout)
        return self.answers[request_id]

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.call_raw(tool, arguments)

    def call_raw(self, name: Any, arguments: Any) -> dict[str, Any]:
        answer = self.answer(self.send("tools/call", {"name": name, "arguments": arguments}))
        assert "result" in answer, f"a protocol error instead of an envelope: {answer}"
        return answer["result"]

    def end_input(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def close(self) -> None:
        with suppress(OSError):
            self.end_input()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@contextmanager
def running(root: Path, home: Path) -> Iterator[NodeServer]:
    server = NodeServer(root, home)
    try:
        yield server
    finally:
        server.close()
