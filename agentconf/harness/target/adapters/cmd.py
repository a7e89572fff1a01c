"""`cmd:` adapter: newline-delimited JSON-RPC 2.0 over a subprocess's stdin and stdout.

One process per session, in its own process group, cwd = root, HOME/TMPDIR/AGENTCONF_ROOT in the
sandbox. Whatever the program does, the harness neither hangs, crashes nor runs out of memory:

- garbage lines, partial lines, answers with an unknown id and second answers are noted and
  ignored; a line longer than `MAX_LINE_BYTES` (a 1 GB flood without a newline) is skipped as it
  streams, never held whole; a missing answer is a timeout;
- stderr is drained while the harness waits and kept in a log capped at `STDERR_KEEP_BYTES`, so
  an endless stream of logs fills neither the pipe (a blocked writer) nor the disk;
- a program that stops reading its input cannot block the harness: requests are written without
  blocking, under the same deadline as the answer;
- on a timeout or at the end of the session the whole process group gets SIGTERM, then SIGKILL
  (dskcode's two-stage kill), and so does every process that still carries this session's
  marker in its environment: a daemon that left the group with `setsid` is found through /proc.

There is no reader thread: the caller's thread reads while it waits (one `selectors` loop over
stdin, stdout and stderr). A thread would cost two wake-ups per call, which dominated a round
trip on a loaded machine; with one thread a round trip is a write, a select and a read.
"""

import contextlib
import itertools
import json
import os
import secrets
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from agentconf import __version__
from agentconf.contract import CONTRACT_VERSION
from agentconf.contract.protocol import METHOD_CALL, METHOD_CANCEL, METHOD_INITIALIZE, METHOD_LIST
from agentconf.harness.target.adapters import base
from agentconf.harness.target.adapters.base import (
    SESSION_VARIABLE,
    AdapterEnv,
    CallTimeout,
    kill_marked,
    sandbox_variables,
)
from agentconf.harness.target.launch import bytecode_env
from agentconf.harness.verdicts.errors import (
    CRASH,
    CancelUnsupported,
    ContractViolation,
    ImplementationFailure,
)

_STDERR_TAIL = 2000
_TERM_GRACE_S = 1.0
_EXIT_GRACE_S = 2.0
_CHUNK = 1 << 16
_POLL_S = 0.05  # how often a wait looks whether the leader died
_READY_POLL_S = 0.02  # how often call_and_cancel asks whether to cancel now
# An answer is an envelope: tools bound their output far below this. Longer is a flood.
MAX_LINE_BYTES = 32 * 1024 * 1024
STDERR_KEEP_BYTES = 4 * 1024 * 1024
_MAX_NOISE = 100
_REQUEST_CANCELLED = -32800  # JSON-RPC (LSP) RequestCancelled


class RpcError(Exception):
    def __init__(self, error: Any) -> None:
        self.error = error
        code = error.get("code") if isinstance(error, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code = code


class _StderrLog:
    """The implementation's stderr: the first STDERR_KEEP_BYTES on disk, the tail in memory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[bytes] = path.open("wb")
        self.kept = 0
        self.dropped = 0
        self._tail = b""

    def take(self, chunk: bytes) -> None:
        room = STDERR_KEEP_BYTES - self.kept
        if room > 0:
            self._file.write(chunk[:room])
            self.kept += min(room, len(chunk))
        self.dropped += max(0, len(chunk) - max(room, 0))
        self._tail = (self._tail + chunk)[-_STDERR_TAIL:]

    def tail(self) -> str:
        text = self._tail.decode("utf-8", "replace").strip()
        if self.dropped:
            text += f"\n[{self.dropped} more bytes of stderr were not kept]"
        return text

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._file.close()


class _Lines:
    """Splits stdout into lines without ever holding more than MAX_LINE_BYTES of one line."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._size = 0
        self._skipping = False
        self.skipped = 0
        self.unfinished = 0  # bytes since the last newline, kept or not

    def feed(self, chunk: bytes) -> list[bytes]:
        lines = []
        while chunk:
            head, newline, chunk = chunk.partition(b"\n")
            self.unfinished = 0 if newline else self.unfinished + len(head)
            if not self._skipping:
                self._parts.append(head)
                self._size += len(head)
            if self._size > MAX_LINE_BYTES:
                self._skipping, self._parts, self._size = True, [], 0
            if newline:
                if self._skipping:
                    self.skipped += 1
                else:
                    lines.append(b"".join(self._parts))
                self._skipping, self._parts, self._size = False, [], 0
        return lines


class CmdAdapter(CallTimeout):
    def __init__(self, argv: list[str], env: AdapterEnv, label: str | None = None,
                 setup: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        self._env = env
        self._label = label or f"cmd:{' '.join(argv)}"
        self._ids = itertools.count(1)
        self._answers: dict[int, dict[str, Any]] = {}
        self._open: set[int] = set()
        self._outgoing = bytearray()
        self._lines = _Lines()
        self._eof = False
        self._killed = False
        self.noise: list[str] = []  # lines that were not answers to anything: for diagnostics
        # Lines on stdout that are no protocol message at all (not JSON): RESULT-09's evidence.
        self.stdout_noise: list[str] = []
        self._info: dict[str, Any] = {}
        self._marker = secrets.token_hex(8)
        log_dir = env.log_dir or env.tmp
        log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = Path(log_dir) / f"stderr-{os.getpid()}-{id(self)}.log"
        self._stderr = _StderrLog(self.stderr_path)
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=env.root,
                env=_child_environ(env, self._marker),
                start_new_session=True,  # its own process group, so a kill reaches its children
            )
        except OSError as error:
            self._stderr.close()
            raise ImplementationFailure(f"{self._label} could not start: {error}") from None
        assert self._process.stdin and self._process.stdout and self._process.stderr
        self._selector = selectors.DefaultSelector()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector.register(self._process.stdout, selectors.EVENT_READ)
        self._selector.register(self._process.stderr, selectors.EVENT_READ)
        self._initialize()
        for method, params in setup or []:
            self._setup_request(method, params)

    # ---- Adapter -----------------------------------------------------------------------------

    @property
    def name(self) -> str:
        name = self._info.get("name")
        return str(name) if name else self._label

    @property
    def version(self) -> str | None:
        version = self._info.get("version")
        return str(version) if version is not None else None

    def list_tools(self) -> list[dict[str, Any]]:
        try:
            result = self._request(METHOD_LIST, None, self._env.call_timeout_s)
        except RpcError as error:
            raise ImplementationFailure(
                f"{self._label} answered tools/list with {error} instead of a listing"
            ) from None
        tools = result.get("tools") if isinstance(result, dict) else None
        if not isinstance(tools, list):
            raise ImplementationFailure(
                f"{self._label} answered tools/list without a `tools` array: {str(result)[:200]}"
            )
        return tools

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return self.call_many([(name, arguments)])[0]

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        # Concurrent calls share one budget that grows with their number: an implementation
        # that serves them one by one is not hanging, and a loaded machine is not a departure.
        deadline = time.monotonic() + self._env.call_timeout_s * len(calls)
        sent = [self._send(METHOD_CALL, {"name": name, "arguments": arguments})
                for name, arguments in calls]
        answers = [self._wait(request_id, METHOD_CALL, deadline) for request_id in sent]
        # A missing result stays None: the client judges it as an answer that is not an envelope.
        results: list[Any] = []
        for answer in answers:
            if "error" in answer and "result" not in answer:
                raise ContractViolation(
                    f"{self._label} answered tools/call with {RpcError(answer['error'])} instead "
                    "of an envelope: a tool failure, even an unknown tool, must be an envelope "
                    "(RESULT-04, REGISTRY-04)", **CRASH
                )
            results.append(answer.get("result"))
        return results

    @property
    def supports_cancel(self) -> bool:
        """Whether the implementation said, answering initialize, that it honours
        `$/cancelRequest` (`"cancel_request": true`); waits for that answer within a call's
        timeout, since it is read along with the others."""
        deadline = time.monotonic() + self._env.call_timeout_s
        while self._init_id in self._open and not (self._killed or self._eof) \
                and time.monotonic() < deadline:
            self._pump(min(deadline, time.monotonic() + _POLL_S))
        return self._info.get("cancel_request") is True

    def call_and_cancel(
        self, name: str, arguments: Any, ready: Callable[[], bool]
    ) -> dict[str, Any] | None:
        """Sends the call, then `$/cancelRequest` for it once `ready()` holds; answers the
        envelope the implementation gives the cancelled request (CANCELLED, or its result when it
        had finished)."""
        if not self.supports_cancel:
            raise CancelUnsupported(f"{self._label} does not declare `cancel_request` in its "
                                    "initialize answer")
        deadline = time.monotonic() + self._env.call_timeout_s
        request_id = self._send(METHOD_CALL, {"name": name, "arguments": arguments})
        while request_id not in self._answers and not ready() and time.monotonic() < deadline:
            if self._killed or self._eof:
                raise self._dead(f"exited before answering {METHOD_CALL}")
            self._pump(min(deadline, time.monotonic() + _READY_POLL_S))
        if request_id not in self._answers:
            self._notify(METHOD_CANCEL, {"id": request_id})
        answer = self._wait(request_id, METHOD_CALL, time.monotonic() + self._env.call_timeout_s)
        if "error" in answer and "result" not in answer:
            # LSP's way (RequestCancelled, -32800): an answer to the cancel, kept with what it was.
            error = RpcError(answer["error"])
            return {"success": False, "data": str(error),
                    "protocol_error": {"code": error.code, "message": str(error)},
                    **({"error": "CANCELLED"} if error.code == _REQUEST_CANCELLED else {})}
        return answer.get("result")

    @property
    def alive(self) -> bool:
        """Still running and spoken to: a session that may be kept for another test."""
        stdin = self._process.stdin
        return not (self._killed or self._eof) and self._process.poll() is None \
            and stdin is not None and not stdin.closed

    def close(self) -> None:
        stdin = self._process.stdin
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):
                stdin.close()  # end of input: a polite implementation exits
        # Wait for a polite exit, draining its output meanwhile so a chatty one is not stuck.
        deadline = time.monotonic() + _EXIT_GRACE_S
        while not (self._killed or self._eof) and self._process.poll() is None \
                and time.monotonic() < deadline:
            self._pump(min(deadline, time.monotonic() + 0.05))
        if not self._killed:  # its output ended: it is exiting, or a child holds the pipe
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=max(0.0, deadline - time.monotonic()))
        self._kill_group()
        self._selector.close()
        for stream in (self._process.stdout, self._process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._stderr.close()

    # ---- protocol ----------------------------------------------------------------------------

    def _initialize(self) -> None:
        """Optional: an answer with name/version is used, an error or silence is fine."""
        # Not waited for: an implementation that ignores it must still work. An answer, if one
        # comes, is read with the next ones and fills `name`/`version`.
        self._init_id = self._send(METHOD_INITIALIZE, {
            "client": {"name": "agentconf", "version": __version__},
            "contract_version": CONTRACT_VERSION,
            "root": str(self._env.root),
        })

    def _setup_request(self, method: str, params: dict[str, Any]) -> None:
        """One `[[setup.requests]]` entry, sent before any tool call; an error ends the start."""
        try:
            self._request(method, params, self._env.start_timeout_s)
        except RpcError as error:
            self._kill_group()
            raise ImplementationFailure(
                f"{self._label}: the setup request {method} ([[setup.requests]]) was answered "
                f"with {error}") from None

    def _request(self, method: str, params: Any, timeout: float) -> Any:
        request_id = self._send(method, params)
        answer = self._wait(request_id, method, time.monotonic() + timeout)
        if "error" in answer and "result" not in answer:
            raise RpcError(answer["error"])
        return answer.get("result")

    def _send(self, method: str, params: Any) -> int:
        if self._killed:
            raise self._dead(f"was stopped before {method}")
        request_id = next(self._ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        # ASCII escapes carry any string, lone surrogates included, through a UTF-8 pipe.
        self._outgoing += json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n"
        self._open.add(request_id)
        self._flush()
        return request_id

    def _notify(self, method: str, params: Any) -> None:
        """A notification: no id, no answer."""
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        self._outgoing += json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n"
        self._flush()

    def _flush(self) -> None:
        """Writes what the pipe takes now; the rest goes out while waiting (never blocks)."""
        stdin = self._process.stdin
        if not self._outgoing or stdin is None or stdin.closed:
            return
        try:
            written = os.write(stdin.fileno(), self._outgoing)
        except BlockingIOError:
            written = 0
        except OSError:
            self._outgoing.clear()
            self._eof = self._eof or self._process.poll() is not None
            return
        del self._outgoing[:written]
        watching = self._selector.get_map().get(stdin.fileno()) is not None
        if self._outgoing and not watching:
            self._selector.register(stdin, selectors.EVENT_WRITE)
        elif not self._outgoing and watching:
            self._selector.unregister(stdin)

    def _wait(self, request_id: int, method: str, deadline: float) -> dict[str, Any]:
        next_poll = time.monotonic() + _POLL_S
        while request_id not in self._answers:
            if self._killed or self._eof:
                raise self._dead(f"exited before answering {method}")
            now = time.monotonic()
            # A child that inherited stdout keeps it open after the leader died: do not wait
            # for end of output then, only for what is already in the pipe.
            if now >= next_poll:
                next_poll = now + _POLL_S
                if self._process.poll() is not None:
                    while request_id not in self._answers and not self._eof \
                            and time.monotonic() < deadline \
                            and self._pump(time.monotonic() + _POLL_S):
                        pass  # its last words, if any, are still in the pipe
                    if request_id not in self._answers:
                        raise self._dead(f"exited before answering {method}")
                    continue
            if now >= deadline:
                self._kill_group()
                raise ImplementationFailure(
                    f"{self._label} did not answer {method} within "
                    f"{self._env.call_timeout_s:g} s; its process group was killed"
                    + self._stderr_note()
                )
            self._pump(min(deadline, next_poll))
        self._open.discard(request_id)
        return self._answers.pop(request_id)

    def _pump(self, until: float) -> bool:
        """One round of select: writes pending requests, reads answers and stderr.

        Returns whether anything was ready."""
        try:
            ready = self._selector.select(max(0.0, until - time.monotonic()))
        except (OSError, ValueError):
            self._eof = True
            return False
        for key, events in ready:
            stream = key.fileobj
            if events & selectors.EVENT_WRITE:
                self._flush()
                continue
            try:
                chunk = os.read(key.fd, _CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if stream is self._process.stderr:
                if chunk:
                    self._stderr.take(chunk)
                else:
                    self._selector.unregister(stream)
            elif chunk:
                for line in self._lines.feed(chunk):
                    self._take(line)
            else:
                self._selector.unregister(stream)
                self._eof = True
        return bool(ready)

    def _take(self, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace").strip()
        if not text:
            return
        try:
            message = json.loads(text)
        except ValueError:
            self._note(f"not JSON: {text[:200]}")
            base.name_stdout_noise(self._label, text)
            if len(self.stdout_noise) < _MAX_NOISE:
                self.stdout_noise.append(text[:200])
            return
        if not isinstance(message, dict) or ("result" not in message and "error" not in message):
            self._note(f"not a JSON-RPC answer: {text[:200]}")
            return
        request_id = message.get("id")
        if not isinstance(request_id, int) or isinstance(request_id, bool) \
                or request_id not in self._open or request_id in self._answers:
            self._note(f"answer to no open request (id {request_id!r}): {text[:200]}")
            return
        if request_id == self._init_id:
            self._open.discard(request_id)
            result = message.get("result")
            if isinstance(result, dict):
                server = result.get("serverInfo")
                info = server if isinstance(server, dict) else result
                self._info = {"name": info.get("name"), "version": info.get("version"),
                              "cancel_request": result.get("cancel_request")}
            return
        self._answers[request_id] = message

    def _note(self, line: str) -> None:
        if len(self.noise) < _MAX_NOISE:
            self.noise.append(line)

    # ---- process -----------------------------------------------------------------------------

    def _dead(self, what: str) -> ImplementationFailure:
        code = self._process.poll()
        if code is None and self._eof:  # its output ended: give its exit status a moment
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._process.wait(timeout=_TERM_GRACE_S / 2)
        status = f" (exit status {code})" if code is not None else ""
        self._kill_group()
        return ImplementationFailure(f"{self._label} {what}{status}" + self._stderr_note())

    def _stderr_note(self) -> str:
        # Whatever stderr still holds is the likeliest explanation: read it first.
        with contextlib.suppress(OSError, ValueError):
            while self._selector.get_map() and self._drain_stderr():
                pass
        tail = self._stderr.tail()
        skipped = self._lines.skipped
        notes = []
        if tail:
            notes.append(f"\nstderr (tail, log {self.stderr_path}):\n{tail}")
        if skipped:
            notes.append(f"\n{skipped} stdout line(s) longer than {MAX_LINE_BYTES} bytes skipped")
        if self._lines.unfinished:
            notes.append(f"\n{self._lines.unfinished} bytes on stdout since the last newline "
                         f"(a line longer than {MAX_LINE_BYTES} bytes is not kept)")
        if self.noise:
            notes.append(f"\nlines that were not answers: {self.noise[:5]}")
        return "".join(notes)

    def _drain_stderr(self) -> bool:
        stream = self._process.stderr
        if stream is None or stream.closed:
            return False
        try:
            chunk = os.read(stream.fileno(), _CHUNK)
        except (BlockingIOError, OSError):
            return False
        self._stderr.take(chunk)
        return bool(chunk) and self._stderr.kept < STDERR_KEEP_BYTES

    def _kill_group(self) -> None:
        """SIGTERM to the whole group, a grace period, then SIGKILL; then the runaways."""
        if self._killed:
            return
        self._killed = True
        pgid = self._process.pid  # start_new_session: the group id is the leader's pid
        if self._process.poll() is None:
            _signal_group(pgid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=_TERM_GRACE_S)
        # Children may outlive the leader in its group: they are killed either way.
        _signal_group(pgid, signal.SIGKILL)
        kill_marked(SESSION_VARIABLE, self._marker)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=_TERM_GRACE_S)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _child_environ(env: AdapterEnv, marker: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**inherited, **bytecode_env(), **sandbox_variables(env, marker)}


def open_cmd(argv: list[str], env: AdapterEnv, label: str | None = None,
             setup: list[tuple[str, dict[str, Any]]] | None = None) -> CmdAdapter:
    return CmdAdapter(argv, env, label, setup)
