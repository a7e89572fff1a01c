"""`cmd:` adapter: newline-delimited JSON-RPC 2.0 over a subprocess's stdin and stdout.

One process per session, in its own process group, cwd = root, HOME/TMPDIR/AGENTCONF_ROOT in the
sandbox. Whatever the program does, the harness neither hangs, crashes nor runs out of memory:

- garbage lines, partial lines, answers with an unknown id and second answers are noted and
  ignored; a line longer than `MAX_LINE_BYTES` (pipes.py; a 1 GB flood without a newline) is
  skipped as it streams, never held whole; a missing answer is a timeout;
- stderr is drained while the harness waits and kept in a log capped at `STDERR_KEEP_BYTES`
  (pipes.py), so an endless stream of logs fills neither the pipe (a blocked writer) nor the disk;
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
import signal
import subprocess
import time
from collections.abc import Callable
from typing import Any

from agentconf import __version__
from agentconf.contract import CONTRACT_VERSION
from agentconf.contract.protocol import METHOD_CALL, METHOD_CANCEL, METHOD_INITIALIZE, METHOD_LIST
from agentconf.harness.target.adapters import base
from agentconf.harness.target.adapters.base import (
    AdapterEnv,
)
from agentconf.harness.target.adapters.pipes import PipedProcess, signal_group
from agentconf.harness.verdicts.errors import (
    CRASH,
    CancelUnsupported,
    ContractViolation,
    ImplementationFailure,
)

_TERM_GRACE_S = 1.0
_EXIT_GRACE_S = 2.0
_POLL_S = 0.05  # how often a wait looks whether the leader died
_READY_POLL_S = 0.02  # how often call_and_cancel asks whether to cancel now
_MAX_NOISE = 100
_REQUEST_CANCELLED = -32800  # JSON-RPC (LSP) RequestCancelled


class RpcError(Exception):
    def __init__(self, error: Any) -> None:
        self.error = error
        code = error.get("code") if isinstance(error, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code = code


class CmdAdapter(PipedProcess):
    def __init__(self, argv: list[str], env: AdapterEnv, label: str | None = None,
                 setup: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        self._ids = itertools.count(1)
        self._answers: dict[int, dict[str, Any]] = {}
        self._open: set[int] = set()
        # Lines on stdout that are no protocol message at all (not JSON): RESULT-09's evidence.
        self.stdout_noise: list[str] = []
        self._info: dict[str, Any] = {}
        super().__init__(argv, env, label)  # the process starts here
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

    def retire(self) -> None:
        """Ends a kept server the kit is done with, without waiting for a polite exit: the checks
        it served were judged, and nothing it does on its way out is (target/reuse.py)."""
        if not self._killed and self._process.poll() is None:
            signal_group(self._process.pid, signal.SIGKILL)
        self.close()

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


def open_cmd(argv: list[str], env: AdapterEnv, label: str | None = None,
             setup: list[tuple[str, dict[str, Any]]] | None = None) -> CmdAdapter:
    return CmdAdapter(argv, env, label, setup)
