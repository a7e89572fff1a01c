"""What the MCP adapter runs on besides the SDK's client: an event loop thread of its own, a
filter for the SDK's log of a noisy stdout, and the requests and guards its typed client
lacks (raw arguments, a setup request, a server that went away)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Awaitable, Coroutine
from pathlib import Path
from typing import IO, Any, TypeVar

import mcp_types as types
import pydantic
from mcp.client.client import Client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from agentconf.harness.target.adapters.base import (
    AdapterEnv,
    name_stdout_noise,
)
from agentconf.harness.verdicts.errors import ImplementationFailure

_T = TypeVar("_T")

# The SDK's own shutdown closes stdin, then SIGTERMs and SIGKILLs the process group, each step
# bounded (about 4 s in all); this leaves room for it before the adapter kills outright.
SHUTDOWN_GRACE_S = 6.0


class StdoutNoise(logging.Filter):
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


NOISE_FILTER = StdoutNoise()
logging.getLogger("mcp.client.stdio").addFilter(NOISE_FILTER)


class UnlistedToolCalls(logging.Filter):
    """The kit calls tools a server does not list on purpose (REGISTRY's unknown names, init
    --from's probes); the SDK warns of each ("Tool X not listed by server, cannot validate any
    structured content") onto the user's console: nothing they need to act on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "not listed by server, cannot validate" not in record.getMessage()


# The client session's logger, as the SDK names it (mcp/client/session.py).
for _name in ("client", "mcp.client.session"):
    logging.getLogger(_name).addFilter(UnlistedToolCalls())


class LoopThread:
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
        self._thread.join(timeout=SHUTDOWN_GRACE_S)
        if not self._thread.is_alive():
            self.loop.close()



def check_encodable(arguments: Any) -> None:
    """Raises UnicodeEncodeError for arguments that MCP's stdio transport cannot carry.

    The SDK writes each message as UTF-8 JSON without escapes, so a lone surrogate (a JSON string
    that is not Unicode text) makes its writer fail and the session end: it looked like the
    server had closed the connection. Raised before anything is sent, the suites can tell the
    transport's limit (n/a) from the server's behaviour, and the session lives on.
    """
    json.dumps(arguments, ensure_ascii=False, default=str).encode("utf-8")


class ServerGone(Exception):
    """The connection to the server closed under a request: it exited or crashed."""


async def guarded(request: Awaitable[_T]) -> _T:
    """Await one SDK request; a closed connection or a garbled answer is the server's failure."""
    try:
        return await request
    except MCPError as error:
        if error.code == types.CONNECTION_CLOSED:
            raise ServerGone(f"the server closed the connection ({error.message})") from None
        raise
    except (asyncio.CancelledError, ServerGone):
        raise
    except Exception as error:
        # An answer the SDK cannot read (not the declared result shape, output schema broken).
        raise ServerGone(f"protocol error: {describe(error)}") from None


async def call_with_raw_arguments(
    client: Client, name: str, arguments: Any
) -> types.CallToolResult:
    """Send arguments that are not an object as they are, for the server to judge (VALIDATE)."""
    # The typed request refuses non-object arguments; model_construct skips that check so the
    # server sees exactly what the suite asked for.
    params = types.CallToolRequestParams.model_construct(name=name, arguments=arguments)
    request = types.CallToolRequest.model_construct(method="tools/call", params=params)
    with quiet_serializer():
        return await client.session.send_request(request, types.CallToolResult)


async def send_setup_request(client: Client, method: str, params: dict[str, Any]) -> None:
    """One `[[setup.requests]]` entry: a raw JSON-RPC request with params, its answer unread."""
    # A vendor method has no typed request; model_construct carries the params as they are.
    request: types.Request[Any, Any] = types.Request.model_construct(method=method, params=params)
    try:
        with quiet_serializer():
            await client.session.send_request(request, ANY_RESULT)
    except MCPError as error:
        raise ImplementationFailure(
            f"the setup request {method} ([[setup.requests]]) was answered with JSON-RPC error "
            f"{error.code}: {error.message}") from None


ANY_RESULT: TypeAdapter[Any] = TypeAdapter(Any)


@contextlib.contextmanager
def quiet_serializer() -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


async def await_future(future: asyncio.Future[None]) -> None:
    await future


def open_stderr_log(env: AdapterEnv) -> tuple[Path, IO[str]]:
    folder = env.log_dir or env.tmp
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix="mcp-server-", suffix=".stderr", dir=folder)
    return Path(name), os.fdopen(handle, "w+", encoding="utf-8", errors="replace")


def describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in error.exceptions)
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

