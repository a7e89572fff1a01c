"""A minimal MCP client over stdio (JSON-RPC, newline-delimited), standard library only, so a
maintainer can run each reproduction with nothing but Python and the installed binary.

    with Server(ROOT_DIR) as server:
        server.call("Read", file_path=...)   # -> (is_error, text)

    python3 unconfined.py [path/to/claude-code-linux-x64/claude]

The server is Claude Code's native binary, `claude mcp serve`, started in ROOT (its working
folder, as the kit starts it) with HOME and TMPDIR in a scratch folder beside it and its
telemetry, error reports and nonessential traffic off. Lines on stdout that are not JSON are
skipped (kept in `noise`).
"""

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Where `agentconf matrix` (or the README's npm ci) installs it; another build as the first
# argument shows the same reproduction on it.
SERVER = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    HERE.parents[2] / ".cache" / "peers" / "claude-code" / "node_modules" / "@anthropic-ai"
    / "claude-code-linux-x64" / "claude")
MARK = "CLAUDE_CODE_REPRO_SESSION"
QUIET = {"DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
         "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}


class Server:
    def __init__(self, root: Path, scratch: Path, server: Path = SERVER) -> None:
        if not server.is_file():
            sys.exit(f"{server} is missing: install the peer first (see ../README.md)")
        home, tmp = scratch / "home", scratch / "tmp"
        self._mark = uuid.uuid4().hex
        home.mkdir(parents=True, exist_ok=True)
        tmp.mkdir(parents=True, exist_ok=True)
        self._process = subprocess.Popen(
            [str(server), "mcp", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, cwd=root, start_new_session=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                 "TMPDIR": str(tmp), MARK: self._mark, **QUIET})
        self._id = 0
        self.noise: list[str] = []
        self._request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                     "clientInfo": {"name": "repro", "version": "1"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *_: object) -> None:
        # Its shells and what they started too, also those it moved to a session of their own
        # (a command backgrounded at its timeout): every process that inherited the mark.
        needle = f"{MARK}={self._mark}".encode()
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as handle:
                    if needle in handle.read().split(b"\0"):
                        os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        self._process.wait()

    def _send(self, message: dict) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def _request(self, method: str, params: dict) -> dict:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self._process.stdout is not None
        while True:
            line = self._process.stdout.readline()
            if not line:
                sys.exit(f"the server closed its output before answering {method}")
            try:
                message = json.loads(line)
            except ValueError:
                self.noise.append(line.rstrip("\n"))
                continue
            if isinstance(message, dict) and message.get("id") == self._id:
                return message

    def call(self, tool: str, **arguments: object) -> tuple[bool, str]:
        return _answer(self._request("tools/call", {"name": tool, "arguments": arguments}))

    def call_together(self, calls: list[tuple[str, dict]]) -> list[tuple[str, bool, str]]:
        """Sends every call before reading any answer (the server runs them together); each
        call's tool, is_error and text, in the order sent."""
        first = self._id + 1
        for tool, arguments in calls:
            self._id += 1
            self._send({"jsonrpc": "2.0", "id": self._id, "method": "tools/call",
                        "params": {"name": tool, "arguments": arguments}})
        assert self._process.stdout is not None
        answers: dict[int, dict] = {}
        while len(answers) < len(calls):
            line = self._process.stdout.readline()
            if not line:
                sys.exit("the server closed its output before answering")
            try:
                message = json.loads(line)
            except ValueError:
                self.noise.append(line.rstrip("\n"))
                continue
            if isinstance(message, dict) and isinstance(message.get("id"), int):
                answers[message["id"]] = message
        return [(tool, *_answer(answers[first + n])) for n, (tool, _) in enumerate(calls)]


def _answer(answer: dict) -> tuple[bool, str]:
    result = answer.get("result") or {}
    text = "".join(part.get("text", "") for part in result.get("content", []))
    return bool(result.get("isError")) or "error" in answer, text or json.dumps(answer)


def verdict(seen: list[str], what: str) -> None:
    """Exit 1 when any departure in `seen` showed, 0 when none did."""
    for line in seen:
        print("DEPARTS: " + line)
    if not seen:
        print("not reproduced (conforms): " + what)
    sys.exit(1 if seen else 0)
