"""A minimal MCP client over stdio (JSON-RPC, newline-delimited), standard library only, so a
maintainer can run each reproduction with nothing but Python and the installed server, and a
sandbox laid out as the kit lays one (a root, `outside/secret.txt` and `root_evil/` beside it,
a HOME with `.ssh/authorized_keys`).

    with Sandbox() as box, Server(box) as server:
        server.call("read_file", path="../outside/secret.txt")   # -> (is_error, text)

    python3 departures.py

The server runs with cwd = the root and HOME and TMPDIR in the sandbox, as the kit runs it.
Every path the reproductions send lands in the sandbox (or, where a departure is about the
system's /tmp, in a folder made there for it and removed).
"""

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER = HERE.parent.name
CACHE = HERE.parents[2] / ".cache" / "peers" / PEER  # where `agentconf matrix` installs it
SECRET = "agentconf-repro-secret-5f1c"


def command(root: Path) -> list[str]:
    """`codemcp`: the MCP server over stdio, started in the root (its cwd)."""
    server = CACHE / "venv" / "bin" / "codemcp"
    if not server.is_file():
        sys.exit(f"{server} is missing: install the peer first (see ../README.md)")
    return [str(server)]


# The root prepared as the profile's [setup].commands prepare it: a git repository with a
# codemcp.toml and a first commit whose trailer names the chat (codemcp writes only in one, and
# commits each change to the chat's commit: InitProject with reuse_head_chat_id goes on from it)
SETUP = [["git", "init", "-q"], ["git", "config", "user.email", "kit@example.invalid"],
         ["git", "config", "user.name", "agentconf"], ["git", "config", "commit.gpgsign", "false"],
         ["sh", "-c", ": > codemcp.toml"], ["git", "add", "codemcp.toml"],
         ["git", "commit", "-q", "-m", "chore: a project for codemcp", "-m",
          "codemcp-id: 1-agentconf"]]


class Sandbox:
    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="repro-"))
        self.root = self.base / "root"
        self.outside = self.base / "outside"
        self.sibling = self.base / "root_evil"
        self.home = self.base / "home"
        self.tmp = self.base / "tmp"
        for folder in (self.root, self.outside, self.sibling, self.home / ".ssh", self.tmp):
            folder.mkdir(parents=True)
        (self.outside / "secret.txt").write_text(f"outside secret {SECRET}\n")
        (self.home / ".ssh" / "authorized_keys").write_text(f"ssh-ed25519 {SECRET}\n")
        env = {**os.environ, "HOME": str(self.home), "TMPDIR": str(self.tmp)}
        for argv in SETUP:
            subprocess.run(argv, cwd=self.root, env=env, check=True, capture_output=True)

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *_: object) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def write(self, rel: str, data: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.write_bytes if isinstance(data, bytes) else path.write_text)(data)  # type: ignore[operator]
        return path


class Server:
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        argv = command(box.root)
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, cwd=box.root, start_new_session=True,
            env={**os.environ, "HOME": str(box.home), "TMPDIR": str(box.tmp), **(env or {})})
        self._id = 0
        self._answers: dict[object, dict] = {}  # answers read while waiting for another id
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        answer = self.request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                             "clientInfo": {"name": "repro", "version": "1"}})
        if answer is None:
            sys.exit(f"{' '.join(argv)} did not answer initialize: install the peer first "
                     "(see ../README.md)")
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
        if request_id in self._answers:
            return self._answers.pop(request_id)
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
            if isinstance(message, dict) and "id" in message and "method" not in message:
                self._answers[message["id"]] = message

    def request(self, method: str, params: dict, timeout: float = 30.0) -> dict | None:
        return self.wait(self.start(method, params), timeout)

    def tools(self) -> list[dict]:
        answer = self.request("tools/list", {}) or {}
        return (answer.get("result") or {}).get("tools", [])

    def call(self, tool: str, timeout: float = 30.0, **arguments: object
             ) -> tuple[bool, str] | None:
        """(is_error, text), or None when no answer came within `timeout` seconds."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)
        if answer is None:
            return None
        if "error" in answer:
            return True, json.dumps(answer["error"])
        result = answer.get("result") or {}
        text = "".join(part.get("text", "") for part in result.get("content", []))
        return bool(result.get("isError")), text


class Departures:
    """One line per departure looked for; exit 1 when any showed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def check(self, clause: str, departed: bool, what: str, answer: object = None) -> None:
        shown = "" if answer is None else f"  <- {str(answer)[:160]!r}"
        print(f"{'DEPARTS' if departed else 'conforms'}  {clause}: {what}{shown}")
        if departed:
            self.seen.append(clause)

    def finish(self) -> None:
        print(f"{len(self.seen)} departure(s) shown: {', '.join(dict.fromkeys(self.seen))}")
        sys.exit(1 if self.seen else 0)
