"""`agentconf serve --root DIR`: the reference tool system over the `cmd:` stdio protocol.

Newline-delimited JSON-RPC 2.0, as `agentconf.contract.protocol` says: `tools/list` answers
`{"tools": [...]}`, `tools/call` answers the envelope, `initialize` the server's name and versions,
`shutdown` an empty result before the server exits. Authors in other languages get a working peer
to compare against.

- Requests run concurrently: each line becomes a task, answers carry their ids and may come out
  of order; one lock keeps answer lines whole.
- A line that is not JSON gets a parse error (-32700, id null) and the server keeps serving; an
  unknown method gets -32601. A request without an id is a notification and gets no answer.
- Only protocol lines reach stdout: the protocol writes to a private copy of fd 1, and fd 1 itself
  is pointed at stderr, so a stray print anywhere in the process cannot corrupt the stream.
- `$/cancelRequest` {id} (a notification) cancels that tools/call: its tool stops (a command's
  process group is killed) and the call is answered with a CANCELLED envelope. `initialize` says
  so with `"cancel_request": true`.
- End of input, `shutdown` or SIGTERM: the calls in flight finish (SIGTERM cancels them, which
  kills their process groups), then the server exits.
"""

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import IO, Any, Protocol

from agentconf import __version__
from agentconf.contract import CONTRACT_VERSION
from agentconf.contract.protocol import (
    JSONRPC_INTERNAL_ERROR,
    JSONRPC_INVALID_PARAMS,
    JSONRPC_INVALID_REQUEST,
    JSONRPC_METHOD_NOT_FOUND,
    JSONRPC_PARSE_ERROR,
    METHOD_CALL,
    METHOD_CANCEL,
    METHOD_INITIALIZE,
    METHOD_LIST,
    METHOD_SHUTDOWN,
)

from .results import fail

log = logging.getLogger(__name__)

SERVER_NAME = "agentconf-reference"
# A write_file call carries the whole file in one line; anything longer is refused, not buffered.
MAX_LINE_BYTES = 64 * 1024 * 1024
EXIT_SIGTERM = 128 + signal.SIGTERM
# The client closed its end of stdout: nobody is left to answer. The shell's status for a
# program that died of SIGPIPE, with one line on stderr instead of a traceback per answer.
EXIT_CLIENT_GONE = 128 + signal.SIGPIPE
CLIENT_GONE = "the client closed its end of stdout: stopping"


class ToolSystem(Protocol):
    def list_tools(self) -> list[dict[str, Any]]: ...

    def call_tool(self, name: str, arguments: Any) -> Awaitable[dict[str, Any]]: ...


class LineTooLong:
    """Put in the line queue in place of a line longer than MAX_LINE_BYTES."""


Line = bytes | LineTooLong | None  # None: end of input


class RequestError(Exception):
    """A request the protocol cannot answer with a result; becomes a JSON-RPC error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Server:
    def __init__(self, system: ToolSystem, out: IO[bytes]) -> None:
        self._system = system
        self._out = out
        self._write_lock = threading.Lock()
        self._in_flight: set[asyncio.Task[None]] = set()
        # tools/call requests in flight by id, and the ids a $/cancelRequest has cancelled.
        self._calls: dict[Any, asyncio.Task[None]] = {}
        self._cancelled: set[Any] = set()
        self._shutdown = asyncio.Event()
        self.client_gone = False
        self._methods: dict[str, Callable[[Any], Awaitable[Any]]] = {
            METHOD_INITIALIZE: self._initialize,
            METHOD_LIST: self._list,
            METHOD_CALL: self._call,
            METHOD_CANCEL: self._cancel_request,
            METHOD_SHUTDOWN: self._request_shutdown,
        }

    async def serve(self, lines: "asyncio.Queue[Line]") -> None:
        """Answers every line until end of input or shutdown, then waits for calls in flight."""
        while not self._shutdown.is_set():
            line = await _next_line(lines, self._shutdown)
            if line is None:
                break
            if isinstance(line, LineTooLong):
                message = f"Parse error: a line longer than {MAX_LINE_BYTES} bytes was skipped."
                self._send_error(None, JSONRPC_PARSE_ERROR, message)
            elif line.strip():
                task = asyncio.create_task(self._handle(line))
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)
        await self.drain()

    async def drain(self) -> None:
        while self._in_flight:
            await asyncio.gather(*self._in_flight, return_exceptions=True)

    def abort(self) -> None:
        """Stops reading and cancels the calls in flight (their tools clean up on cancel)."""
        self._shutdown.set()
        for task in self._in_flight:
            task.cancel()

    async def _handle(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError as error:  # also UnicodeDecodeError
            self._send_error(None, JSONRPC_PARSE_ERROR, f"Parse error: not a JSON line ({error}).")
            return
        request_id = message.get("id") if isinstance(message, dict) else None
        if not _valid_id(request_id):
            request_id = None
        try:
            method, params = _request_parts(message)
            handler = self._methods.get(method)
            if handler is None:
                raise RequestError(JSONRPC_METHOD_NOT_FOUND, f"Method not found: {method}")
            result = await self._cancellable(method, request_id, message, handler(params))
        except RequestError as error:
            if _is_notification(message):
                return
            self._send_error(request_id, error.code, error.message)
            return
        except Exception as error:  # a bug here must not end the server
            log.exception("request failed")
            self._send_error(request_id, JSONRPC_INTERNAL_ERROR, f"Internal error: {error!r}")
            return
        if not _is_notification(message):
            self._send({"jsonrpc": "2.0", "id": request_id, "result": result})

    async def _cancellable(
        self, method: str, request_id: Any, message: Any, answer: Awaitable[Any]
    ) -> Any:
        """The handler's result; a tools/call stopped by $/cancelRequest answers CANCELLED."""
        if method != METHOD_CALL or _is_notification(message) or request_id is None:
            return await answer
        task = asyncio.current_task()
        assert task is not None
        self._calls[request_id] = task
        try:
            return await answer
        except asyncio.CancelledError:
            if request_id not in self._cancelled:
                raise  # shutdown or SIGTERM: the server is going away
            task.uncancel()
            return fail("CANCELLED", "The call was cancelled before it finished.").to_wire()
        finally:
            self._calls.pop(request_id, None)
            self._cancelled.discard(request_id)

    async def _cancel_request(self, params: Any) -> None:
        """`$/cancelRequest` {id}: stop that call; its tools clean up as on any cancellation."""
        request_id = params.get("id") if isinstance(params, dict) else None
        task = self._calls.get(request_id) if _valid_id(request_id) else None
        if task is not None and not task.done():
            self._cancelled.add(request_id)
            task.cancel()

    async def _initialize(self, _params: Any) -> dict[str, Any]:
        return {
            "name": SERVER_NAME,
            "version": __version__,
            "contract_version": CONTRACT_VERSION,
            "cancel_request": True,
        }

    async def _list(self, _params: Any) -> dict[str, Any]:
        return {"tools": self._system.list_tools()}

    async def _call(self, params: Any) -> dict[str, Any]:
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            raise RequestError(
                JSONRPC_INVALID_PARAMS,
                'Invalid params: tools/call takes {"name": string, "arguments": object}.',
            )
        # Arguments of the wrong type are the tool system's to judge: INVALID_ARGS, in an envelope.
        return await self._system.call_tool(params["name"], params.get("arguments", {}))

    async def _request_shutdown(self, _params: Any) -> dict[str, Any]:
        self._shutdown.set()
        return {}

    def _send_error(self, request_id: Any, code: int, message: str) -> None:
        error = {"code": code, "message": message}
        self._send({"jsonrpc": "2.0", "id": request_id, "error": error})

    def _send(self, message: dict[str, Any]) -> None:
        # ASCII escapes carry every string, a lone surrogate echoed from a request included.
        data = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"
        with self._write_lock:
            if self.client_gone:
                return
            try:
                self._out.write(data)
                self._out.flush()
            except BrokenPipeError:
                self.client_gone = True
                discard_stdout(self._out.fileno())
                log.warning(CLIENT_GONE)
                self.abort()


def _request_parts(message: Any) -> tuple[str, Any]:
    if (
        not isinstance(message, dict)
        or message.get("jsonrpc") != "2.0"
        or not isinstance(message.get("method"), str)
        or ("id" in message and not _valid_id(message["id"]))
    ):
        raise RequestError(
            JSONRPC_INVALID_REQUEST,
            'Invalid request: expected {"jsonrpc": "2.0", "id": integer or string, "method": ...}.',
        )
    return message["method"], message.get("params")


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _is_notification(message: Any) -> bool:
    return isinstance(message, dict) and "id" not in message and "method" in message


async def _next_line(lines: "asyncio.Queue[Line]", shutdown: asyncio.Event) -> Line:
    """The next line, or None at end of input or once shutdown was asked for."""
    getting = asyncio.ensure_future(lines.get())
    stopping = asyncio.ensure_future(shutdown.wait())
    done, _ = await asyncio.wait({getting, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if getting in done:
        return getting.result()
    getting.cancel()
    return None


def read_lines(
    source: IO[bytes], loop: asyncio.AbstractEventLoop, lines: "asyncio.Queue[Line]"
) -> None:
    """Runs in a thread: blocking reads work for any stdin (pipe, file, terminal)."""
    try:
        while line := source.readline(MAX_LINE_BYTES):
            item: Line = line
            if not line.endswith(b"\n") and len(line) == MAX_LINE_BYTES:
                _skip_rest_of_line(source)
                item = LineTooLong()
            loop.call_soon_threadsafe(lines.put_nowait, item)
    except (OSError, ValueError):
        log.exception("reading stdin failed")
    except RuntimeError:  # the loop closed under a line just read: the server stopped first
        return
    finally:
        # The loop may already be gone when a shutdown ended the server before end of input.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(lines.put_nowait, None)


def _skip_rest_of_line(source: IO[bytes]) -> None:
    while (rest := source.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
        pass


async def serve_stdio(system: ToolSystem, source: IO[bytes], out: IO[bytes]) -> int:
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[Line] = asyncio.Queue()
    server = Server(system, out)
    aborted = False

    def on_signal() -> None:
        nonlocal aborted
        aborted = True
        server.abort()

    loop.add_signal_handler(signal.SIGTERM, on_signal)
    reader = threading.Thread(target=read_lines, args=(source, loop, lines), daemon=True)
    reader.start()
    await server.serve(lines)
    if server.client_gone:
        return EXIT_CLIENT_GONE
    return EXIT_SIGTERM if aborted else 0


def discard_stdout(fd: int) -> None:
    """What is still buffered for a client that is gone, and anything written later, goes to
    /dev/null (Python's own advice for SIGPIPE), so no flush at exit prints a traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def protocol_stdout() -> IO[bytes]:
    """A private copy of stdout for protocol lines; fd 1 itself then goes to stderr."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def run(system: ToolSystem) -> int:
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING,
        format="agentconf serve: %(levelname)s %(message)s"
    )
    out = protocol_stdout()
    # A private reader of fd 0: the reader thread may still be blocked in it at exit, and
    # finalising sys.stdin while a daemon thread holds its lock aborts the interpreter.
    source = open(os.dup(0), "rb")  # noqa: SIM115  (closed by the process exit, see above)
    try:
        return asyncio.run(serve_stdio(system, source, out))
    finally:
        out.close()
