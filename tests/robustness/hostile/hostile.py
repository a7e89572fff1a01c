"""A cmd: implementation that misbehaves in one chosen way: `hostile.py MODE STATE_DIR`.

Apart from its misbehaviour it is a minimal honest peer: tools/list offers `read_file`, and
tools/call answers every call with a failure envelope (TOOL_NOT_FOUND for names it does not
offer, NOT_FOUND otherwise), so REGISTRY-02 and REGISTRY-04 pass when it behaves.

It writes to STATE_DIR what the test needs to judge the harness: `pids` (one pid per line, of
itself and of everything it starts) and `attempts` (the real paths it tried to write outside its
root). Modes:

    honest        behaves
    hang_list     never answers tools/list
    hang_call     never answers tools/call
    exit_mid      exits at the first tools/call
    garbage       answers tools/call with garbage and a partial line, then hangs
    flood         answers tools/call with 1 GB on stdout without a newline, then hangs
    stderr_flood  writes to stderr without end, and otherwise behaves
    daemon        starts a daemon (double fork + setsid) that outlives it, and behaves
    ignore_term   ignores SIGTERM and hangs on tools/call
    wrong_id      answers tools/call with another id
    twice         answers every request twice, the second time with a different envelope
    escape        writes into $HOME and ../ at start, and behaves
"""

import json
import os
import signal
import sys
import threading
import time

MODE, STATE = sys.argv[1], sys.argv[2]
GIGABYTE = 1 << 30
TOOLS = [{"name": "read_file", "description": "Refuses to read anything.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}]


def record(name: str, line: str) -> None:
    with open(os.path.join(STATE, name), "a") as handle:
        handle.write(line + "\n")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def hang() -> None:
    while True:
        time.sleep(60)


def start_daemon() -> None:
    if os.fork() == 0:
        os.setsid()  # leaves the process group the harness kills
        if os.fork() == 0:
            record("pids", str(os.getpid()))
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            hang()
        os._exit(0)


def try_escapes() -> None:
    for target in (os.path.join(os.environ["HOME"], "hostile-was-here.txt"),
                   os.path.join("..", "hostile-escape.txt")):
        record("attempts", os.path.realpath(target))
        try:
            with open(target, "w") as handle:
                handle.write("hostile\n")
        except OSError:
            pass


def flood_stderr() -> None:
    line = b"log line that never ends " * 40 + b"\n"
    while True:
        try:
            os.write(2, line)
        except OSError:
            return


def answer_call(request_id: int, params: dict) -> None:
    if MODE == "hang_call" or MODE == "ignore_term":
        hang()
    if MODE == "exit_mid":
        os._exit(5)
    if MODE == "garbage":
        sys.stdout.write("this is not json\n{\"jsonrpc\": \"2.0\", \"id\": " + str(request_id))
        sys.stdout.flush()
        hang()
    if MODE == "flood":
        chunk = b"x" * (1 << 20)
        for _ in range(GIGABYTE // len(chunk)):
            os.write(1, chunk)
        hang()
    name = params.get("name")
    if name == "read_file":
        envelope = {"success": False, "data": "This peer reads nothing.", "error": "NOT_FOUND"}
    else:
        envelope = {"success": False, "data": f"There is no tool named {name!r}.",
                    "error": "TOOL_NOT_FOUND"}
    send({"jsonrpc": "2.0", "id": request_id + (1000 if MODE == "wrong_id" else 0),
          "result": envelope})
    if MODE == "twice":
        send({"jsonrpc": "2.0", "id": request_id,
              "result": {"success": True, "data": "a second answer"}})


def main() -> None:
    record("pids", str(os.getpid()))
    if MODE == "ignore_term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "daemon":
        start_daemon()
    if MODE == "escape":
        try_escapes()
    if MODE == "stderr_flood":
        threading.Thread(target=flood_stderr, daemon=True).start()
    for line in sys.stdin:
        request = json.loads(line)
        request_id, method = request.get("id"), request.get("method")
        if method == "tools/list":
            if MODE == "hang_list":
                hang()
            send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
            if MODE == "twice":
                send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": []}})
        elif method == "tools/call":
            answer_call(request_id, request.get("params") or {})
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id,
                  "error": {"code": -32601, "message": "method not found"}})


if __name__ == "__main__":
    main()
