"""A minimal MCP client over stdio (JSON-RPC, newline-delimited), standard library only, so a
maintainer can run each reproduction with nothing but Python and the installed server. Each
peer's repro/mcp_stdio.py says how its server is started (argv, cwd, env) in a `Server` that is
a `Client`; its scripts import from there.

    class Server(Client):                                   # a peer's repro/mcp_stdio.py
        def __init__(self, root: Path, server: Path = SERVER) -> None:
            super().__init__(["node", str(installed(server)), str(root)], cwd=root,
                             env={**os.environ, "HOME": str(root)})

    with Server(root) as server:
        server.call("read_file", path="a.txt")              # -> (is_error, text)
        server.call("run", timeout=5, command="cat")        # -> None: no answer in 5 s
        asked = server.start("tools/call", {"name": "run", "arguments": {...}})
        server.cancel(asked)                                # notifications/cancelled
        server.wait(asked, timeout=3)                       # -> its answer, or None

The server runs in a session of its own, and leaving the `with` kills its whole process group:
the server and every process it started. Lines on its stdout that are not JSON are kept in
`noise` (RESULT-09). An answer to another request than the one awaited is kept for its own
`wait`.

Also here: the kit's sandbox layout (`Sandbox`), and how a reproduction says what it showed
(`verdict`, `Departures`). This folder is no peer (it has no peer.toml).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

Message = dict[str, Any]
SECRET = "agentconf-repro-secret-5f1c"


def cache(script: str) -> Path:
    """Where `agentconf matrix` installs the peer whose repro/ holds `script` (a __file__)."""
    repro = Path(script).resolve().parent
    return repro.parents[2] / ".cache" / "peers" / repro.parent.name


def server_argument(default: Path) -> Path:
    """The script's first argument (another version's server shows the same reproduction on
    it), or where the peer is installed."""
    return Path(sys.argv[1]).absolute() if len(sys.argv) > 1 else default


def installed(server: Path) -> Path:
    """`server`, or exit saying it is missing."""
    if not server.is_file():
        sys.exit(f"{server} is missing: install the peer first (see ../README.md)")
    return server


class Client:
    """One MCP server over its stdin and stdout, initialized and ready for tools/call."""

    protocol = "2024-11-05"
    # Seconds a call waits for its answer unless told otherwise; math.inf: for as long as it
    # takes (then a call only comes back with no answer when the server's output ends, and
    # exits saying so).
    timeout: float = 30.0
    # An answer without text reads as its whole JSON (else as its error's, or "").
    whole_answer_when_empty = False

    def __init__(self, argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> None:
        self.argv = [str(part) for part in argv]
        self._process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, cwd=cwd, env=dict(env), start_new_session=True)
        self.pid = self._process.pid
        self.noise: list[str] = []
        self._id = 0
        self._answers: dict[object, Message] = {}  # answers read while waiting for another id
        self._lines: queue.Queue[str | None] = queue.Queue()  # None: its stdout ended
        self._ended = False
        threading.Thread(target=self._read, daemon=True).start()
        answer = self.request("initialize", {"protocolVersion": self.protocol, "capabilities": {},
                                             "clientInfo": {"name": "repro", "version": "1"}})
        if answer is None:
            self.close()
            sys.exit(f"{' '.join(self.argv)} did not answer initialize: install the peer first "
                     "(see ../README.md)")
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Kill the server and all it started (its process group), and reap it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def send(self, message: Message) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def start(self, method: str, params: Message) -> int:
        """Send a request without waiting for its answer; its id."""
        self._id += 1
        self.send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        return self._id

    def cancel(self, request_id: int, reason: str = "cancelled by the client") -> None:
        self.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": request_id, "reason": reason}})

    def wait(self, request_id: int, timeout: float | None = None) -> Message | None:
        """The answer to `request_id`, or None when none came within `timeout` seconds (the
        client's own by default) or the server's output ended first."""
        if request_id in self._answers:
            return self._answers.pop(request_id)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while not self._ended:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=None if math.isinf(left) else max(left, 0))
            except queue.Empty:
                return None
            if line is None:
                self._ended = True
                break
            try:
                message = json.loads(line)
            except ValueError:
                self.noise.append(line.rstrip("\n"))
                continue
            if not isinstance(message, dict):
                continue
            if message.get("id") == request_id:
                return message
            if "id" in message and "method" not in message:
                self._answers[message["id"]] = message
        return None

    def request(self, method: str, params: Message, timeout: float | None = None
                ) -> Message | None:
        return self.wait(self.start(method, params), timeout)

    def tools(self) -> list[Message]:
        answer = self.request("tools/list", {}) or {}
        tools: list[Message] = (answer.get("result") or {}).get("tools", [])
        return tools

    def call_tool(self, tool: str, arguments: Mapping[str, object],
                  timeout: float | None = None) -> tuple[bool, str] | None:
        """(is_error, text), or None when no answer came within `timeout` seconds."""
        answer = self.request("tools/call", {"name": tool, "arguments": dict(arguments)},
                              timeout)
        return self._outcome(tool, answer, timeout)

    def call(self, tool: str, *, timeout: float | None = None, **arguments: object
             ) -> tuple[bool, str] | None:
        """call_tool with the tool's arguments as keywords; `timeout` is the client's wait."""
        return self.call_tool(tool, arguments, timeout)

    def call_together(self, calls: Sequence[tuple[str, Mapping[str, object]]],
                      timeout: float | None = None) -> list[tuple[str, bool, str]]:
        """Sends every call before reading any answer (the server runs them together); each
        call's tool, is_error and text, in the order sent. Exits when one is not answered."""
        asked = [self.start("tools/call", {"name": tool, "arguments": dict(arguments)})
                 for tool, arguments in calls]
        outcomes = []
        for (tool, _), request_id in zip(calls, asked, strict=True):
            outcome = self._outcome(tool, self.wait(request_id, timeout), timeout)
            if outcome is None:
                sys.exit(f"no answer to {tool} within {timeout or self.timeout} s")
            outcomes.append((tool, *outcome))
        return outcomes

    def _outcome(self, tool: str, answer: Message | None, timeout: float | None
                 ) -> tuple[bool, str] | None:
        if answer is None:
            if math.isinf(self.timeout if timeout is None else timeout):
                sys.exit(f"the server closed its output before answering {tool}")
            return None
        result = answer.get("result") or {}
        text = "".join(part.get("text", "") for part in result.get("content", []))
        if not text:
            text = (json.dumps(answer) if self.whole_answer_when_empty else
                    json.dumps(answer["error"]) if "error" in answer else "")
        return bool(result.get("isError")) or "error" in answer, text


class Sandbox:
    """A temporary folder laid out as the kit lays one: a root, `outside/secret.txt` and
    `root_evil/` beside it, a HOME with `.ssh/authorized_keys`, a TMPDIR. `setup` commands
    run in the root first (as a profile's [setup].commands do)."""

    def __init__(self, setup: Sequence[Sequence[str]] = ()) -> None:
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
        for argv in setup:
            subprocess.run(argv, cwd=self.root, env=self.env(), check=True, capture_output=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_: object) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """This process's environment with HOME and TMPDIR in the sandbox, and `extra`."""
        return {**os.environ, "HOME": str(self.home), "TMPDIR": str(self.tmp), **(extra or {})}

    def write(self, rel: str, data: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data)
        return path


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def verdict(departed: bool | list[str], what: str) -> NoReturn:
    """Exit 1 when the departure showed (`departed` true, or a line per departure that did),
    0 when it did not."""
    if isinstance(departed, list):
        for line in departed:
            print("DEPARTS: " + line)
        if not departed:
            print("not reproduced (conforms): " + what)
    else:
        print(("DEPARTS: " if departed else "not reproduced (conforms): ") + what)
    sys.exit(1 if departed else 0)


class Departures:
    """One line per departure looked for; exit 1 when any showed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def check(self, clause: str, departed: bool, what: str, answer: object = None) -> None:
        shown = "" if answer is None else f"  <- {str(answer)[:160]!r}"
        print(f"{'DEPARTS' if departed else 'conforms'}  {clause}: {what}{shown}")
        if departed:
            self.seen.append(clause)

    def finish(self) -> NoReturn:
        print(f"{len(self.seen)} departure(s) shown: {', '.join(dict.fromkeys(self.seen))}")
        sys.exit(1 if self.seen else 0)
