"""`cmd:` adapter: newline-delimited JSON-RPC 2.0 over a subprocess's stdin and stdout.

One process per session, in its own process group, cwd = root, HOME/TMPDIR/AGENTCONF_ROOT in the
sandbox, stderr kept in a log file. A reader thread matches answers to requests by id, so several
calls can be in flight (`call_many`). Whatever the program does, the harness neither hangs nor
crashes: garbage lines, partial lines, answers with an unknown id and second answers are noted and
ignored; a missing answer is a timeout; then the whole process group is killed (SIGTERM, then
SIGKILL: seed 000's two-stage kill) and the failure is an `ImplementationFailure`.
"""

import contextlib
import itertools
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any

from agentconf import __version__
from agentconf.contract import CONTRACT_VERSION
from agentconf.contract.protocol import METHOD_CALL, METHOD_LIST

from ..errors import ContractViolation, ImplementationFailure
from .base import AdapterEnv

_STDERR_TAIL = 2000
_TERM_GRACE_S = 1.0
_EXIT_GRACE_S = 2.0


class _Pending:
    __slots__ = ("answer", "done")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.answer: dict[str, Any] | None = None


class RpcError(Exception):
    def __init__(self, error: Any) -> None:
        self.error = error
        code = error.get("code") if isinstance(error, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code = code


class CmdAdapter:
    def __init__(self, argv: list[str], env: AdapterEnv, label: str | None = None) -> None:
        self._argv = argv
        self._env = env
        self._label = label or f"cmd:{' '.join(argv)}"
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._exited = threading.Event()
        self.noise: list[str] = []  # lines that were not answers to anything: for diagnostics
        self._info: dict[str, Any] = {}
        log_dir = env.log_dir or env.tmp
        log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = Path(log_dir) / f"stderr-{os.getpid()}-{id(self)}.log"
        self._stderr: IO[bytes] = self.stderr_path.open("wb")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=env.root,
                env=_child_environ(env),
                start_new_session=True,  # its own process group, so a kill reaches its children
            )
        except OSError as error:
            self._stderr.close()
            raise ImplementationFailure(f"{self._label} could not start: {error}") from None
        self._reader = threading.Thread(target=self._read, name="agentconf-cmd-reader", daemon=True)
        self._reader.start()
        self._initialize()

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
        sent = [self._send(METHOD_CALL, {"name": name, "arguments": arguments})
                for name, arguments in calls]
        deadline = time.monotonic() + self._env.call_timeout_s
        answers = [self._wait(request_id, METHOD_CALL, deadline) for request_id in sent]
        results = []
        for answer in answers:
            if "error" in answer and "result" not in answer:
                raise ContractViolation(
                    f"{self._label} answered tools/call with {RpcError(answer['error'])} instead "
                    "of an envelope: a tool failure, even an unknown tool, must be an envelope "
                    "(RESULT-04, REGISTRY-04)"
                )
            results.append(answer.get("result"))
        return results

    def close(self) -> None:
        if self._process.stdin and not self._process.stdin.closed:
            with contextlib.suppress(OSError):
                self._process.stdin.close()  # end of input: a polite implementation exits
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=_EXIT_GRACE_S)
        self._kill_group()
        self._reader.join(timeout=_EXIT_GRACE_S)
        with contextlib.suppress(OSError):
            self._stderr.close()
        if self._process.stdout:
            with contextlib.suppress(OSError):
                self._process.stdout.close()

    # ---- protocol ----------------------------------------------------------------------------

    def _initialize(self) -> None:
        """Optional: an answer with name/version is used, an error or silence is fine."""
        request_id = self._send("initialize", {
            "client": {"name": "agentconf", "version": __version__},
            "contract_version": CONTRACT_VERSION,
            "root": str(self._env.root),
        })
        # Do not wait: an implementation that ignores it must still work. The answer, if one
        # comes, is picked up by `_read` and read by `name`/`version`.
        self._init_id = request_id

    def _request(self, method: str, params: Any, timeout: float) -> Any:
        request_id = self._send(method, params)
        answer = self._wait(request_id, method, time.monotonic() + timeout)
        if "error" in answer and "result" not in answer:
            raise RpcError(answer["error"])
        return answer.get("result")

    def _send(self, method: str, params: Any) -> int:
        request_id = next(self._ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        line = json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n"
        with self._lock:
            self._pending[request_id] = _Pending()
        try:
            with self._write_lock:
                assert self._process.stdin is not None
                self._process.stdin.write(line)
                self._process.stdin.flush()
        except (OSError, ValueError):
            self._process.poll()
            raise self._dead(f"stopped reading its input before {method}") from None
        return request_id

    def _wait(self, request_id: int, method: str, deadline: float) -> dict[str, Any]:
        with self._lock:
            pending = self._pending[request_id]
        leader_gone_at: float | None = None
        while not pending.done.wait(timeout=0.05):
            if self._exited.is_set() and not pending.done.is_set():
                raise self._dead(f"exited before answering {method}")
            # A child that inherited stdout keeps it open after the leader died: do not wait
            # for end of output then, only for what the reader may still have in hand.
            if leader_gone_at is None and self._process.poll() is not None:
                leader_gone_at = time.monotonic()
            if leader_gone_at is not None and time.monotonic() - leader_gone_at > _TERM_GRACE_S:
                raise self._dead(f"exited before answering {method}")
            if time.monotonic() >= deadline:
                self._kill_group()
                raise ImplementationFailure(
                    f"{self._label} did not answer {method} within "
                    f"{self._env.call_timeout_s:g} s; its process group was killed"
                    + self._stderr_note()
                )
        with self._lock:
            self._pending.pop(request_id, None)
        assert pending.answer is not None
        return pending.answer

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for raw in stdout:
                self._take(raw)
        except (OSError, ValueError):
            pass
        finally:
            self._exited.set()

    def _take(self, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace").strip()
        if not text:
            return
        try:
            message = json.loads(text)
        except ValueError:
            self._note(f"not JSON: {text[:200]}")
            return
        if not isinstance(message, dict) or ("result" not in message and "error" not in message):
            self._note(f"not a JSON-RPC answer: {text[:200]}")
            return
        request_id = message.get("id")
        with self._lock:
            pending = self._pending.get(request_id) if isinstance(request_id, int) else None
            if pending is None or pending.done.is_set():
                self._note(f"answer to no open request (id {request_id!r}): {text[:200]}")
                return
            pending.answer = message
            pending.done.set()
        result = message.get("result")
        if request_id == getattr(self, "_init_id", None) and isinstance(result, dict):
            server = result.get("serverInfo")
            info = server if isinstance(server, dict) else result
            self._info = {"name": info.get("name"), "version": info.get("version")}

    def _note(self, line: str) -> None:
        if len(self.noise) < 100:
            self.noise.append(line)

    # ---- process -----------------------------------------------------------------------------

    def _dead(self, what: str) -> ImplementationFailure:
        code = self._process.poll()
        status = f" (exit status {code})" if code is not None else ""
        self._kill_group()
        return ImplementationFailure(f"{self._label} {what}{status}" + self._stderr_note())

    def _stderr_note(self) -> str:
        with contextlib.suppress(OSError):
            self._stderr.flush()
        try:
            tail = self.stderr_path.read_bytes()[-_STDERR_TAIL:].decode("utf-8", "replace").strip()
        except OSError:
            tail = ""
        noise = f"\nlines that were not answers: {self.noise[:5]}" if self.noise else ""
        return (f"\nstderr (tail, full log {self.stderr_path}):\n{tail}" if tail else "") + noise

    def _kill_group(self) -> None:
        """SIGTERM to the whole group, a grace period, then SIGKILL; reaps the leader."""
        pgid = self._process.pid  # start_new_session: the group id is the leader's pid
        if self._process.poll() is None:
            _signal_group(pgid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=_TERM_GRACE_S)
        # Children may outlive the leader in its group: they are killed either way.
        _signal_group(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=_TERM_GRACE_S)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _child_environ(env: AdapterEnv) -> dict[str, str]:
    environ = dict(os.environ)
    environ.update({
        "AGENTCONF_ROOT": str(env.root),
        "HOME": str(env.home),
        "TMPDIR": str(env.tmp),
        # Caches go to TMPDIR, which is not judged; HOME is a canary, and writing there is not.
        "XDG_CACHE_HOME": str(env.tmp / ".cache"),
        "XDG_STATE_HOME": str(env.tmp / ".state"),
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    environ.update(env.extra_env)
    return environ


def open_cmd(argv: list[str], env: AdapterEnv, label: str | None = None) -> CmdAdapter:
    return CmdAdapter(argv, env, label)
