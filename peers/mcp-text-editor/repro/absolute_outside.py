"""mcp-text-editor 1.2.2, started in a root (its working folder, as the kit starts it): a
create_text_file of an absolute path outside that folder creates the file there. The kit's
unpublished run reported it as CONFINE-02's escapes; this shows it with nothing but Python and
the installed server.

    python3 absolute_outside.py     # exit 1: a file was created outside the root
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    HERE.parents[2] / ".cache" / "peers" / "mcp-text-editor" / "venv" / "bin" / "mcp-text-editor")

with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    process = subprocess.Popen([str(SERVER)], cwd=root, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={"PATH": os.environ.get("PATH", ""), "HOME": base})

    def request(number: int, method: str, params: dict) -> dict:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": number, "method": method,
                                        "params": params}) + "\n")
        process.stdin.flush()
        while True:
            message = json.loads(process.stdout.readline())
            if message.get("id") == number:
                return message

    try:
        request(1, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                  "clientInfo": {"name": "repro", "version": "1"}})
        assert process.stdin is not None
        process.stdin.write(json.dumps({"jsonrpc": "2.0",
                                        "method": "notifications/initialized"}) + "\n")
        process.stdin.flush()
        answer = request(2, "tools/call", {"name": "create_text_file", "arguments": {
            "file_path": str(outside / "new.txt"), "contents": "x\n"}})
        print("create_text_file <outside>/new.txt:", json.dumps(answer["result"])[:160])
    finally:
        process.kill()
        process.wait()
    created = (outside / "new.txt").exists()
print(("DEPARTS: " if created else "not reproduced (conforms): ")
      + "an absolute path outside its working folder was created")
sys.exit(1 if created else 0)
