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
import os
import secrets
import signal
from collections import deque
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TextIO, TypeVar, cast

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from agentconf.harness.target.adapters.base import (
    SESSION_VARIABLE,
    AdapterEnv,
    CallTimeout,
    kill_marked,
    sandbox_variables,
)
from agentconf.harness.target.adapters.mcp_answers import (
    envelope_from_protocol_error,
    envelope_from_result,
    tool_entry,
    unparsed_line,
)
from agentconf.harness.target.adapters.mcp_runtime import (
    NOISE_FILTER,
    SHUTDOWN_GRACE_S,
    LoopThread,
    ServerGone,
    await_future,
    call_with_raw_arguments,
    check_encodable,
    describe,
    guarded,
    open_stderr_log,
    send_setup_request,
)
from agentconf.harness.target.launch import setup_requests
from agentconf.harness.verdicts.errors import ImplementationFailure

_T = TypeVar("_T")

# How often call_and_cancel asks whether to cancel now.
_READY_POLL_S = 0.02
_STDERR_TAIL_CHARS = 2000
# A server that dies before its handshake may have said why on stdout, not stderr (a missing
# prerequisite named there after a banner): the last lines of it, kept.
_STDOUT_TAIL_LINES = 15
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
        self._stderr_path, self._stderr = open_stderr_log(env)
        self._pid_path = self._stderr_path.with_suffix(".pid")
        self._client: Client | None = None
        self._advertised: set[str] | None = None
        self._closed = False
        # Lines on stdout the SDK could not parse as a JSON-RPC message: RESULT-09's evidence.
        self.stdout_noise: list[str] = []
        self._stdout_tail: deque[str] = deque(maxlen=_STDOUT_TAIL_LINES)
        self._loop = LoopThread(f"mcp:{Path(command[0]).name}")
        # Named by its command as the profile spells it: once per server, not per workspace.
        NOISE_FILTER.owners[self._loop.ident] = " ".join(command).replace(
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
        check_encodable(arguments)
        return self._run(
            f"tools/call {name}", self._call(name, arguments), self._env.call_timeout_s
        )

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        for _, arguments in calls:
            check_encodable(arguments)

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
        check_encodable(arguments)
        budget = self._env.call_timeout_s

        async def cancelled() -> dict[str, Any] | None:
            client = self._live_client()
            task = asyncio.ensure_future(guarded(client.session.call_tool(name, arguments)))
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
            self._session_task.result(SHUTDOWN_GRACE_S)
        except concurrent.futures.TimeoutError:
            self._session_task.cancel()  # stuck short of its stop event, e.g. in the handshake
        except BaseException:
            pass  # how the session ended was reported when it ended
        self._kill()  # whatever the SDK's shutdown left of the process group
        kill_marked(SESSION_VARIABLE, self._marker)  # and what left the group (setsid daemons)
        self._loop.stop()
        NOISE_FILTER.owners.pop(self._loop.ident, None)
        self._stderr.close()
        self._pid_path.unlink(missing_ok=True)

    def retire(self) -> None:
        """Ends a kept server the kit is done with, without the SDK's polite shutdown (stdin
        closed, then waiting for the exit): the checks it served were judged, and nothing it
        does on its way out is (target/reuse.py). A Python server on the SDK takes about 0.25 s
        to exit; a run that retires hundreds of servers waited that out every time."""
        if not self._closed:
            self._kill()
        self.close()

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
                    await send_setup_request(client, method, params)
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
        if isinstance(message, Exception):
            line = unparsed_line(message)
            self._stdout_tail.append(line)
            if len(self.stdout_noise) < 20:
                self.stdout_noise.append(line)

    def _wait_until_connected(self) -> None:
        try:
            self._loop.run(await_future(self._connected), self._env.start_timeout_s)
        except TimeoutError:
            self._fail_to_start(f"no answer to initialize within {self._env.start_timeout_s:g} s")
        except Exception as error:
            self._fail_to_start(describe(error))

    def _fail_to_start(self, reason: str) -> None:
        self._kill()  # a server stuck in the handshake would otherwise hold close() up
        self.close()
        said = "\n".join(line for line in self._stdout_tail if line.strip())
        stdout = f"\n--- server stdout, not protocol messages (last lines) ---\n{said}" \
            if said else ""
        raise ImplementationFailure(f"MCP server {' '.join(self._command)!r} did not start: "
                                    f"{reason}{self._stderr_tail()}{stdout}")

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
        # A kept server's stderr holds every earlier call's too: the evidence of this one shows
        # what it said during this one.
        before = self._stderr_size()
        try:
            return self._loop.run(coroutine, timeout)
        except TimeoutError:
            self._kill()
            self.close()
            raise ImplementationFailure(
                f"{what}: no answer within {timeout:g} s; the server's process group was killed"
                f"{self._stderr_tail(before)}"
            ) from None
        except ServerGone as gone:
            self.close()
            raise ImplementationFailure(f"{what}: {gone}{self._stderr_tail(before)}") from None

    async def _list_tools(self) -> list[dict[str, Any]]:
        client = self._live_client()
        listed: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await guarded(client.list_tools(cursor=cursor))
            listed.extend(tool_entry(tool) for tool in page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return listed

    async def _call(self, name: str, arguments: Any) -> dict[str, Any]:
        client = self._live_client()
        try:
            if isinstance(arguments, dict):
                result = await guarded(client.session.call_tool(name, arguments))
            else:
                result = await guarded(call_with_raw_arguments(client, name, arguments))
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
            raise ServerGone("the MCP server session is closed")
        return self._client

    # ---------------------------------------------------------------- process and logs

    def _kill(self) -> None:
        pid = self.pid
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)

    def _stderr_size(self) -> int:
        if not self._stderr.closed:
            self._stderr.flush()
        try:
            return self._stderr_path.stat().st_size
        except OSError:
            return 0

    def _stderr_tail(self, since: int = 0) -> str:
        """The end of the server's stderr from byte `since` on (0: all of it)."""
        self._stderr_size()  # flushed
        try:
            with self._stderr_path.open("rb") as log:
                log.seek(since)
                text = log.read().decode(errors="replace").strip()
        except OSError:
            return ""
        if not text:  # no path: a run's temporary folders are not kept for long
            return " (its stderr is empty)" if not since else (
                " (nothing on its stderr during this call)")
        during = " during this call" if since else ""
        return (f"\n--- server stderr{during} ({self._stderr_path}) ---\n"
                f"{text[-_STDERR_TAIL_CHARS:]}")


