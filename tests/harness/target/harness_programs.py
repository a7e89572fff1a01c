"""Tiny stdio programs for the cmd: adapter's tests, written into a test's temp dir and run there.

`SERVER` speaks the protocol correctly unless its first argument names one way to misbehave.
"""

import sys
import textwrap
from pathlib import Path

SERVER = textwrap.dedent('''
    import json, os, subprocess, sys, time
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    root = os.environ["AGENTCONF_ROOT"]
    tools = [{"name": "read_file", "description": "read", "kind": "read",
              "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]

    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n")
        sys.stdout.flush()

    if mode == "crash_at_start":
        sys.stderr.write("fatal: cannot open the database\\n")
        sys.exit(3)
    if mode == "grandchild":
        # A child that keeps stdout open and would outlive us; the group kill must reach it.
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    for line in sys.stdin:
        request = json.loads(line)
        rid, method = request.get("id"), request.get("method")
        params = request.get("params") or {}
        if method == "initialize":
            if mode == "named":
                send({"jsonrpc": "2.0", "id": rid, "result": {"name": "toy", "version": "1.2"}})
            else:
                send({"jsonrpc": "2.0", "id": rid,
                      "error": {"code": -32601, "message": "method not found"}})
            continue
        if method == "tools/list":
            if mode == "list_error":
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "no"}})
            else:
                send({"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}})
            continue
        # tools/call
        if mode == "hang":
            time.sleep(600)
        if mode in ("crash", "grandchild"):
            sys.stderr.write("Traceback: something broke in read_file\\n")
            sys.stderr.flush()
            os._exit(7)
        if mode == "garbage":
            sys.stdout.write("this is not json\\n{\\"partial\\": \\n[1, 2]\\n")
            sys.stdout.flush()
            time.sleep(600)
        if mode == "wrong_id":
            send({"jsonrpc": "2.0", "id": rid + 1000, "result": {"success": True, "data": "x"}})
            continue
        if mode == "rpc_error":
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "unknown"}})
            continue
        path = os.path.join(root, params.get("arguments", {}).get("path", ""))
        if mode == "slow_sleep" and "slow" in path:
            time.sleep(0.3)
        try:
            with open(path) as handle:
                answer = {"success": True, "data": handle.read()}
        except OSError as error:
            answer = {"success": False, "data": str(error), "error": "NOT_FOUND"}
        if mode == "twice":
            send({"jsonrpc": "2.0", "id": rid, "result": answer})
        if mode == "partial_then_exit":
            sys.stdout.write('{"jsonrpc": "2.0", "id": ' + str(rid) + ', "resu')
            sys.stdout.flush()
            sys.exit(0)
        send({"jsonrpc": "2.0", "id": rid, "result": answer})
''')


def write_server(folder: Path) -> list[str]:
    """argv that runs the server from `folder`; append a mode."""
    script = folder / "server.py"
    script.write_text(SERVER)
    return [sys.executable, str(script)]
