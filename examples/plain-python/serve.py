"""plain-python-tools over stdio: one JSON-RPC 2.0 message per line in, one answer per line out.

    python3 serve.py ROOT        (or AGENTCONF_ROOT=ROOT python3 serve.py)

Every tools/call runs in a thread of its own, so calls overlap and answers go out as they finish,
matched by id. At the end of input the program waits a moment for calls still running, kills
any command they started, and exits.
"""

import json
import os
import sys
import threading
from typing import Any

from plain import NAME, VERSION
from plain.dispatch import call, listing
from plain.workspace import Workspace

END_GRACE_S = 1.0
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601


class Channel:
    """stdout, shared by the call threads: one whole line at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=True) + "\n"
        with self._lock:
            sys.stdout.buffer.write(line.encode("ascii"))
            sys.stdout.buffer.flush()


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AGENTCONF_ROOT", "")
    if not root:
        print("usage: serve.py ROOT (or set AGENTCONF_ROOT)", file=sys.stderr)
        return 2
    try:
        ws = Workspace(root)
    except OSError as error:
        print(f"serve.py: cannot use {root!r} as the workspace: {error.strerror}", file=sys.stderr)
        return 2
    channel = Channel()
    running: list[threading.Thread] = []
    for line in sys.stdin.buffer:
        if line.strip():
            thread = _handle(ws, channel, line)
            if thread is not None:
                running.append(thread)
                running = [thread for thread in running if thread.is_alive()]
    for thread in running:
        thread.join(END_GRACE_S)
    ws.kill_shells()
    sys.stdout.flush()
    os._exit(0)  # threads still blocked (a FIFO without a writer) must not hold the exit


def _handle(ws: Workspace, channel: Channel, line: bytes) -> threading.Thread | None:
    try:
        message = json.loads(line)
    except ValueError:
        channel.send({"id": None, "error": {"code": PARSE_ERROR, "message": "not JSON"}})
        return None
    if not isinstance(message, dict):
        channel.send({"id": None, "error": {"code": INVALID_REQUEST, "message": "not a request"}})
        return None
    method, request_id = message.get("method"), message.get("id")
    if "id" not in message:
        return None  # a notification: nothing to answer
    if method == "tools/call":
        params = message.get("params")
        params = params if isinstance(params, dict) else {}

        def work() -> None:
            answer = call(ws, params.get("name"), params.get("arguments", {}))
            channel.send({"id": request_id, "result": answer})

        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        return thread
    if method == "tools/list":
        channel.send({"id": request_id, "result": {"tools": listing()}})
    elif method == "initialize":
        channel.send({"id": request_id, "result": {"name": NAME, "version": VERSION}})
    elif method == "shutdown":
        channel.send({"id": request_id, "result": {}})
    else:
        channel.send({"id": request_id,
                      "error": {"code": METHOD_NOT_FOUND, "message": f"no method {method!r}"}})
    return None


if __name__ == "__main__":
    sys.exit(main())
