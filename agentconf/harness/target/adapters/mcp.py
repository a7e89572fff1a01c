"""The `mcp:COMMAND` adapter: an MCP server over stdio, spoken to through the official `mcp` SDK.

The SDK is async and the Adapter protocol is sync, so each adapter owns a private event loop on a
thread of its own: one task holds the SDK `Client` open for the adapter's lifetime (anyio needs the
context entered and left by the same task), and every call is a coroutine submitted to that loop
and waited on with a timeout. `call_many` submits all its calls together, so they really are in
flight at once on the one connection.

MCP answers `{content, structuredContent, isError}`; the envelope is built from it here:
`success = not isError`, `data` = the text content joined, and `error` = a code when the server
gives one, either in structured content or as @clarvis does (@clarvis/agent-tools) in a JSON
envelope in the
text: `{"error": {"code": "path_escape", ...}}`. Without one, `error` is absent and the client
classifies `data` with the profile's `[[error_patterns]]`. Structured content is also kept whole
as `structured_content`, where a profile's `result` places may point.

A JSON-RPC error answer to `tools/call` (an unknown tool, arguments the server's SDK refused) is
not a crash: it becomes a failure envelope with `protocol_error: {code, message}` kept beside the
envelope fields, so RESULT-04 and REGISTRY-04 can judge it, and `error` set to TOOL_NOT_FOUND for a
name the server does not advertise or INVALID_ARGS for JSON-RPC "invalid params".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import secrets
import signal
import tempfile
import threading
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import IO, Any, TextIO, TypeVar, cast

import mcp_types as types
import pydantic
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from agentconf.contract.tools import ANNOTATION_HINTS, READ_ONLY_HINT
from agentconf.harness.target.adapters.base import (
    SESSION_VARIABLE,
    AdapterEnv,
    CallTimeout,
    kill_marked,
    name_stdout_noise,
    sandbox_variables,
)
from agentconf.harness.target.launch import setup_requests
from agentconf.harness.verdicts.errors import ImplementationFailure

_T = TypeVar("_T")

# The SDK's own shutdown closes stdin, then SIGTERMs and SIGKILLs the process group, each step
# bounded (about 4 s in all); this leaves room for it before the adapter kills outright.
_SHUTDOWN_GRACE_S = 6.0
# How often call_and_cancel asks whether to cancel now.
_READY_POLL_S = 0.02
_STDERR_TAIL_CHARS = 2000
# JSON-RPC 2.0 codes the mapping cares about.
_METHOD_NOT_FOUND = -32601
_INVALID_PARAMS = -32602


def expand_command(command: list[str], env: AdapterEnv) -> list[str]:
    """Fill the per-workspace placeholders spec.py documents; a no-op once they are filled."""
    values = {"{root}": str(env.root), "{home}": str(env.home), "{tmp}": str(env.tmp)}
    expanded = []
    for argument in command:
        for placeholder, value in values.items():
            argument = argument.replace(placeholder, value)
        expanded.append(argument)
    return expanded


def open_mcp(command: list[str], env: AdapterEnv, profile: Any = None) -> McpAdapter:
    """Start the MCP server `command` for one workspace, complete the handshake and send the
    profile's `[[setup.requests]]` (mapping and error patterns are the client's)."""
    if not command:
        raise ImplementationFailure("mcp: needs a command to start the server, e.g. mcp:node x.js")
    setup = setup_requests(profile, env.root, env.home, env.tmp) if profile is not None else []
    return McpAdapter(expand_command(command, env), env, setup)


class _StdoutNoise(logging.Filter):
    """The SDK logs a traceback for every stdout line of a server that is not JSON-RPC (42 KB
    for one chatty server): each becomes one plain line, once per server (base.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.owners: dict[int | None, str] = {}  # an adapter's loop thread -> its command

    def filter(self, record: logging.LogRecord) -> bool:
        server = self.owners.get(record.thread)
        error = record.exc_info[1] if record.exc_info else None
        if server is None or not record.getMessage().startswith("Failed to parse JSONRPC"):
            return True
        inputs = error.errors() if isinstance(error, pydantic.ValidationError) else []
        sample = inputs[0].get("input") if inputs else None
        name_stdout_noise(f"mcp:{server}", sample if isinstance(sample, str) else repr(sample))
        return False


_NOISE_FILTER = _StdoutNoise()
logging.getLogger("mcp.client.stdio").addFilter(_NOISE_FILTER)


class _LoopThread:
    """A private event loop on a daemon thread; sync code waits on its coroutines with timeouts."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self._thread.start()

    @property
    def ident(self) -> int | None:
        return self._thread.ident

    def submit(self, coroutine: Coroutine[Any, Any, _T]) -> concurrent.futures.Future[_T]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def run(self, coroutine: Coroutine[Any, Any, _T], timeout: float) -> _T:
        """The coroutine's result; TimeoutError (coroutine cancelled) when it takes longer."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=_SHUTDOWN_GRACE_S)
        if not self._thread.is_alive():
            self.loop.close()


class McpAdapter(CallTimeout):
    """One MCP server process and one SDK session, for one workspace."""

    name: str
    version: str | None

    def __init__(self, command: list[str], env: AdapterEnv,
                 setup: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        self._env = env
        self._command = command
        self._setup = setup or []
        self._marker = secrets.token_hex(8)
        self._stderr_path, self._stderr = _open_stderr_log(env)
        self._pid_path = self._stderr_path.with_suffix(".pid")
        self._client: Client | None = None
        self._advertised: set[str] | None = None
        self._closed = False
        # Lines on stdout the SDK could not parse as a JSON-RPC message: RESULT-09's evidence.
        self.stdout_noise: list[str] = []
        self._loop = _LoopThread(f"mcp:{Path(command[0]).name}")
        # Named by its command as the profile spells it: once per server, not per workspace.
        _NOISE_FILTER.owners[self._loop.ident] = " ".join(command).replace(
            str(env.root), "{root}").replace(str(env.home), "{home}").replace(str(env.tmp), "{tmp}")
        self._stop: asyncio.Event | None = None
        self._connected: asyncio.Future[None] = self._loop.loop.create_future()
        self._session_task = self._loop.submit(self._hold_session())
        self._wait_until_connected()
        self.name, self.version = self._server_identity()

    # ---------------------------------------------------------------- Adapter protocol

    def list_tools(self) -> list[dict[str, Any]]:
        tools = self._run("tools/list", self._list_tools(), self._env.call_timeout_s)
        self._advertised = {tool["name"] for tool in tools}
        return tools

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        _check_encodable(arguments)
        return self._run(
            f"tools/call {name}", self._call(name, arguments), self._env.call_timeout_s
        )

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        for _, arguments in calls:
            _check_encodable(arguments)

        async def together() -> list[dict[str, Any]]:
            return list(await asyncio.gather(*(self._call(name, args) for name, args in calls)))

        names = ", ".join(name for name, _ in calls)
        # One budget per call in flight: served one by one is slow, not hung (CONCUR).
        return self._run(f"tools/call [{names}]", together(),
                         self._env.call_timeout_s * len(calls))

    supports_cancel = True  # notifications/cancelled is part of MCP's base protocol

    def call_and_cancel(
        self, name: str, arguments: Any, ready: Callable[[], bool]
    ) -> dict[str, Any] | None:
        """Sends the call and, once `ready()` holds, abandons it: the SDK then sends
        `notifications/cancelled`, after which MCP expects no answer (None). An answer that
        came first is returned."""
        _check_encodable(arguments)
        budget = self._env.call_timeout_s

        async def cancelled() -> dict[str, Any] | None:
            client = self._live_client()
            task = asyncio.ensure_future(_guarded(client.session.call_tool(name, arguments)))
            deadline = asyncio.get_running_loop().time() + budget / 2
            while not task.done() and not ready() \
                    and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(_READY_POLL_S)
            if task.done():
                try:
                    return envelope_from_result(task.result())
                except MCPError as error:  # a JSON-RPC error answered it: an answer too
                    return envelope_from_protocol_error(error, advertised=True)
            task.cancel()
            # An error the server answers the cancelled request with, racing the cancel, is
            # the answer MCP allows (none): not a crash of the kit.
            with contextlib.suppress(asyncio.CancelledError, MCPError):
                await task
            return None

        return self._run(f"tools/call {name} (cancelled)", cancelled(), budget)

    @property
    def alive(self) -> bool:
        """The session is open: a server that may be kept for another test."""
        return not self._closed and self._client is not None and not self._session_task.done()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        stop = self._stop
        if stop is not None:
            self._loop.loop.call_soon_threadsafe(stop.set)
        try:
            self._session_task.result(_SHUTDOWN_GRACE_S)
        except concurrent.futures.TimeoutError:
            self._session_task.cancel()  # stuck short of its stop event, e.g. in the handshake
        except BaseException:
            pass  # how the session ended was reported when it ended
        self._kill()  # whatever the SDK's shutdown left of the process group
        kill_marked(SESSION_VARIABLE, self._marker)  # and what left the group (setsid daemons)
        self._loop.stop()
        _NOISE_FILTER.owners.pop(self._loop.ident, None)
        self._stderr.close()
        self._pid_path.unlink(missing_ok=True)

    def __enter__(self) -> McpAdapter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The server's process id, which is also its process group id (it leads a new session)."""
        try:
            return int(self._pid_path.read_text().strip())
        except (OSError, ValueError):
            return None

    @property
    def stderr_path(self) -> Path:
        return self._stderr_path

    # ---------------------------------------------------------------- the session

    async def _hold_session(self) -> None:
        """Open the session, report it connected, keep it open until close() (same task: anyio)."""
        self._stop = asyncio.Event()
        parameters = StdioServerParameters(
            command="/bin/sh",
            # exec keeps the pid, so the pid file names the server itself, and the SDK starts it
            # in a new session, so that pid is also the process group a hang is killed by.
            args=["-c", 'echo $$ >"$0" && exec "$@"', str(self._pid_path), *self._command],
            # The SDK adds its few safe defaults (PATH, USER...) to these.
            env=sandbox_variables(self._env, self._marker),
            cwd=self._env.root,
        )
        try:
            # legacy = the initialize handshake every stdio server speaks; no response cache, so
            # a repeated tools/list (REGISTRY-02) really asks the server again.
            async with Client(
                stdio_client(parameters, errlog=cast(TextIO, self._stderr)), mode="legacy",
                cache=None, message_handler=self._on_message,
            ) as client:
                self._client = client
                for method, params in self._setup:
                    await _setup_request(client, method, params)
                self._connected.set_result(None)
                await self._stop.wait()
        except BaseException as error:
            if not self._connected.done():
                self._connected.set_exception(error)
            raise
        finally:
            self._client = None

    async def _on_message(self, message: Any) -> None:
        """The SDK hands every incoming message here; a line it could not parse comes as the
        exception it raised (the rest the session handles itself)."""
        if isinstance(message, Exception) and len(self.stdout_noise) < 20:
            self.stdout_noise.append(_unparsed_line(message))

    def _wait_until_connected(self) -> None:
        try:
            self._loop.run(_await(self._connected), self._env.start_timeout_s)
        except TimeoutError:
            self._fail_to_start(f"no answer to initialize within {self._env.start_timeout_s:g} s")
        except Exception as error:
            self._fail_to_start(_describe(error))

    def _fail_to_start(self, reason: str) -> None:
        self._kill()  # a server stuck in the handshake would otherwise hold close() up
        self.close()
        raise ImplementationFailure(
            f"MCP server {' '.join(self._command)!r} did not start: {reason}{self._stderr_tail()}"
        )

    def _server_identity(self) -> tuple[str, str | None]:
        info = self._client.server_info if self._client is not None else None
        if info is None:
            return Path(self._command[0]).name, None
        return info.name, info.version

    def _run(self, what: str, coroutine: Coroutine[Any, Any, _T], timeout: float) -> _T:
        """Wait for one exchange; a hang or a dead server ends the session and raises."""
        if self._closed or self._client is None:
            coroutine.close()
            raise ImplementationFailure(
                f"{what}: the MCP server session is closed{self._stderr_tail()}"
            )
        try:
            return self._loop.run(coroutine, timeout)
        except TimeoutError:
            self._kill()
            self.close()
            raise ImplementationFailure(
                f"{what}: no answer within {timeout:g} s; the server's process group was killed"
                f"{self._stderr_tail()}"
            ) from None
        except _ServerGone as gone:
            self.close()
            raise ImplementationFailure(f"{what}: {gone}{self._stderr_tail()}") from None

    async def _list_tools(self) -> list[dict[str, Any]]:
        client = self._live_client()
        listed: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await _guarded(client.list_tools(cursor=cursor))
            listed.extend(_tool_entry(tool) for tool in page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return listed

    async def _call(self, name: str, arguments: Any) -> dict[str, Any]:
        client = self._live_client()
        try:
            if isinstance(arguments, dict):
                result = await _guarded(client.session.call_tool(name, arguments))
            else:
                result = await _guarded(_call_with_raw_arguments(client, name, arguments))
        except MCPError as error:
            if self._advertised is None:
                self._advertised = {tool["name"] for tool in await self._list_tools()}
            return envelope_from_protocol_error(
                error,
                advertised=name in self._advertised,
                object_arguments=isinstance(arguments, dict),
            )
        return envelope_from_result(result)

    def _live_client(self) -> Client:
        if self._client is None:
            raise _ServerGone("the MCP server session is closed")
        return self._client

    # ---------------------------------------------------------------- process and logs

    def _kill(self) -> None:
        pid = self.pid
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)

    def _stderr_tail(self) -> str:
        if not self._stderr.closed:
            self._stderr.flush()
        try:
            text = self._stderr_path.read_text(errors="replace").strip()
        except OSError:
            return ""
        if not text:
            return f" (its stderr, kept in {self._stderr_path}, is empty)"
        return f"\n--- server stderr ({self._stderr_path}) ---\n{text[-_STDERR_TAIL_CHARS:]}"


def _check_encodable(arguments: Any) -> None:
    """Raises UnicodeEncodeError for arguments that MCP's stdio transport cannot carry.

    The SDK writes each message as UTF-8 JSON without escapes, so a lone surrogate (a JSON string
    that is not Unicode text) makes its writer fail and the session end: it looked like the
    server had closed the connection. Raised before anything is sent, the suites can tell the
    transport's limit (n/a) from the server's behaviour, and the session lives on.
    """
    json.dumps(arguments, ensure_ascii=False, default=str).encode("utf-8")


class _ServerGone(Exception):
    """The connection to the server closed under a request: it exited or crashed."""


async def _guarded(request: Awaitable[_T]) -> _T:
    """Await one SDK request; a closed connection or a garbled answer is the server's failure."""
    try:
        return await request
    except MCPError as error:
        if error.code == types.CONNECTION_CLOSED:
            raise _ServerGone(f"the server closed the connection ({error.message})") from None
        raise
    except (asyncio.CancelledError, _ServerGone):
        raise
    except Exception as error:
        # An answer the SDK cannot read (not the declared result shape, output schema broken).
        raise _ServerGone(f"protocol error: {_describe(error)}") from None


async def _call_with_raw_arguments(
    client: Client, name: str, arguments: Any
) -> types.CallToolResult:
    """Send arguments that are not an object as they are, for the server to judge (VALIDATE)."""
    # The typed request refuses non-object arguments; model_construct skips that check so the
    # server sees exactly what the suite asked for.
    params = types.CallToolRequestParams.model_construct(name=name, arguments=arguments)
    request = types.CallToolRequest.model_construct(method="tools/call", params=params)
    with _quiet_serializer():
        return await client.session.send_request(request, types.CallToolResult)


async def _setup_request(client: Client, method: str, params: dict[str, Any]) -> None:
    """One `[[setup.requests]]` entry: a raw JSON-RPC request with params, its answer unread."""
    # A vendor method has no typed request; model_construct carries the params as they are.
    request: types.Request[Any, Any] = types.Request.model_construct(method=method, params=params)
    try:
        with _quiet_serializer():
            await client.session.send_request(request, _ANY_RESULT)
    except MCPError as error:
        raise ImplementationFailure(
            f"the setup request {method} ([[setup.requests]]) was answered with JSON-RPC error "
            f"{error.code}: {error.message}") from None


_ANY_RESULT: TypeAdapter[Any] = TypeAdapter(Any)


@contextlib.contextmanager
def _quiet_serializer() -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


async def _await(future: asyncio.Future[None]) -> None:
    await future


def _open_stderr_log(env: AdapterEnv) -> tuple[Path, IO[str]]:
    folder = env.log_dir or env.tmp
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix="mcp-server-", suffix=".stderr", dir=folder)
    return Path(name), os.fdopen(handle, "w+", encoding="utf-8", errors="replace")


def _describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in error.exceptions)
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


# ---------------------------------------------------------------- MCP answers -> envelope dicts


def _tool_entry(tool: types.Tool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description or "",
        "input_schema": tool.input_schema,
    }
    annotations = _annotations(tool.annotations)
    if annotations:
        entry["annotations"] = annotations
    hint = annotations.get(READ_ONLY_HINT)
    # MCP only says read-only or not; not-read-only tools must run alone, which is ToolKind.OTHER.
    if hint is not None:
        entry["kind"] = "read" if hint else "other"
    return entry


def _annotations(annotations: types.ToolAnnotations | None) -> dict[str, bool]:
    """The hints the server declares, as MCP spells them; an undeclared hint is left out, so a
    tool without hints is n/a for the ANNOTATION clauses rather than judged on MCP's defaults."""
    if annotations is None:
        return {}
    wire = annotations.model_dump(by_alias=True, exclude_none=True)
    return {hint: wire[hint] for hint in ANNOTATION_HINTS if isinstance(wire.get(hint), bool)}


def envelope_from_result(result: types.CallToolResult) -> dict[str, Any]:
    """MCP's `{content, structuredContent, isError}` as an envelope dict."""
    data = "\n".join(_block_text(block) for block in result.content)
    envelope: dict[str, Any] = {"success": not result.is_error, "data": data}
    structured = result.structured_content
    code = _code_from_structured(structured) or _code_from_text(data)
    if code is not None:
        envelope["error"] = code
    if isinstance(structured, dict):
        # A server that returns the contract's envelope as structured content keeps its extras.
        for field in ("summary", "diff", "issues", "denial", "exit_code"):
            if field in structured:
                envelope[field] = structured[field]
    if structured is not None:
        # Kept whole for a profile's [tools.<tool>].result places (harness/session/answers.py).
        envelope["structured_content"] = structured
    return envelope


def envelope_from_protocol_error(
    error: MCPError, *, advertised: bool, object_arguments: bool = True
) -> dict[str, Any]:
    """A JSON-RPC error answer to tools/call, as a failure envelope that still says what it was.

    The code is only what the error itself settles: a name the server does not advertise is
    TOOL_NOT_FOUND, "invalid params" (or any refusal of arguments that were not an object, which
    MCP's schema forbids) is INVALID_ARGS; anything else is left to the profile's patterns.
    """
    envelope: dict[str, Any] = {
        "success": False,
        "data": error.message or f"JSON-RPC error {error.code}",
        "protocol_error": {"code": error.code, "message": error.message},
    }
    if not advertised or error.code == _METHOD_NOT_FOUND:
        envelope["error"] = "TOOL_NOT_FOUND"
    elif error.code == _INVALID_PARAMS or not object_arguments:
        envelope["error"] = "INVALID_ARGS"
    return envelope


def _unparsed_line(error: Exception) -> str:
    """The line a parse error was about (pydantic keeps it as the error's input), else the error."""
    with contextlib.suppress(Exception):
        line = error.errors()[0]["input"]  # type: ignore[attr-defined]
        if isinstance(line, str | bytes):
            return str(line if isinstance(line, str) else line.decode("utf-8", "replace"))[:200]
    return (str(error).splitlines() or [type(error).__name__])[0][:200]


def _block_text(block: Any) -> str:
    if isinstance(block, types.TextContent):
        return block.text
    mime = getattr(block, "mime_type", None) or getattr(
        getattr(block, "resource", None), "mime_type", None
    )
    return f"[{block.type} content{f': {mime}' if mime else ''}]"


def _code_from_structured(structured: Any) -> str | None:
    if not isinstance(structured, dict):
        return None
    return _code_of(structured.get("error"))


def _code_from_text(text: str) -> str | None:
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    try:
        parsed = json.loads(stripped)
    except ValueError:
        return None
    return _code_of(parsed.get("error")) if isinstance(parsed, dict) else None


def _code_of(error: Any) -> str | None:
    if isinstance(error, str) and error:
        return error
    if isinstance(error, dict) and isinstance(error.get("code"), str) and error["code"]:
        return error["code"]
    return None
