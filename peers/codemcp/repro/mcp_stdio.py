"""A minimal MCP client over stdio (JSON-RPC, newline-delimited), standard library only, so a
maintainer can run each reproduction with nothing but Python and the installed server.

    with Server(root) as server:
        server.call("codemcp", subtool="ReadFile", path=..., chat_id=...)  # -> (is_error, text)

    python3 needs_git.py [path/to/venv/bin/codemcp]

The server runs in a temporary folder (its cwd, and HOME), as the kit runs it; every command
the reproductions send writes only there.
"""

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER = HERE.parent.name
# Where `agentconf matrix` installs it (a Python 3.12 venv of requirements.txt); another
# version's codemcp as the first argument shows the same reproduction on it.
SERVER = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    HERE.parents[2] / ".cache" / "peers" / PEER / "venv" / "bin" / "codemcp")


class Server:
    def __init__(self, root: Path, server: Path = SERVER) -> None:
        if not server.is_file():
            sys.exit(f"{server} is missing: install the peer first (see ../README.md)")
        self._process = subprocess.Popen(
            [str(server)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, cwd=root, start_new_session=True,
            env={**os.environ, "HOME": str(root)})
        self._id = 0
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                    "clientInfo": {"name": "repro", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *_: object) -> None:
        with contextlib.suppress(ProcessLookupError):  # the server and all it started
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)

    def send(self, message: dict) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def start(self, method: str, params: dict) -> int:
        self._id += 1
        self.send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        return self._id

    def wait(self, request_id: int, timeout: float = 30.0) -> dict | None:
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                return None
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("id") == request_id:
                return message

    def request(self, method: str, params: dict, timeout: float = 30.0) -> dict | None:
        return self.wait(self.start(method, params), timeout)

    def call(self, tool: str, timeout: float = 30.0, **arguments: object
             ) -> tuple[bool, str] | None:
        answer = self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)
        if answer is None:
            return None
        result = answer.get("result") or {}
        text = "".join(part.get("text", "") for part in result.get("content", []))
        return bool(result.get("isError")) or "error" in answer, text or (
            json.dumps(answer["error"]) if "error" in answer else "")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def verdict(departed: bool, what: str) -> None:
    print(("DEPARTS: " if departed else "not reproduced (conforms): ") + what)
    sys.exit(1 if departed else 0)
