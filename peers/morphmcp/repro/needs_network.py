"""Why the kit cannot judge morphmcp 0.8.213: its file tool is a call to Morph's hosted model.

Started on a temporary root with a well-formed but unknown key and ALL_TOOLS=true, it lists
edit_file, codebase_search, github_codebase_search and reflex_list/_predict/_summary/_traces.
Run without a network (`unshare -n python3 needs_network.py`), edit_file answers "Morph Edit
Failed: Connection error." and the file is unchanged, and codebase_search "Error: Connection
error." (an answer without isError). With no key at all, or one of another form, both refuse
before any file is read. No tool reads, writes or lists a file on the machine alone.

    unshare -n python3 needs_network.py     # exit 1: the edit needed the network (0 if it landed)
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER = Path(sys.argv[1]) if len(sys.argv) > 1 else (
    HERE.parents[2] / ".cache" / "peers" / "morphmcp" / "node_modules" / "@morphllm"
    / "morphmcp" / "dist" / "index.js")

with tempfile.TemporaryDirectory() as base:
    root, home = Path(base, "root"), Path(base, "home")
    root.mkdir()
    home.mkdir()
    (root / "a.js").write_text("const a = 1;\n")
    process = subprocess.Popen(
        ["node", str(SERVER), str(root)], cwd=root, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
             "MORPH_API_KEY": "sk-agentconf-not-a-key", "ALL_TOOLS": "true"})

    def request(number: int, method: str, params: dict) -> dict:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": number, "method": method,
                                        "params": params}) + "\n")
        process.stdin.flush()
        while True:
            line = process.stdout.readline()
            if not line:
                sys.exit(f"the server closed its output before answering {method}")
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("id") == number:
                return message

    try:
        request(1, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                  "clientInfo": {"name": "repro", "version": "1"}})
        assert process.stdin is not None
        process.stdin.write(json.dumps({"jsonrpc": "2.0",
                                        "method": "notifications/initialized"}) + "\n")
        process.stdin.flush()
        tools = [tool["name"] for tool in request(2, "tools/list", {})["result"]["tools"]]
        print("tools:", ", ".join(tools))
        answer = request(3, "tools/call", {"name": "edit_file", "arguments": {
            "path": str(root / "a.js"), "code_edit": "const a = 2;",
            "instruction": "I am setting a to 2"}})
        text = "".join(part.get("text", "") for part in answer["result"]["content"])
        print("edit_file:", text)
    finally:
        process.kill()
        process.wait()
    unchanged = (root / "a.js").read_text() == "const a = 1;\n"
print(("NEEDS THE NETWORK: " if unchanged else "edited locally: ")
      + "the edit went to Morph's hosted model and did not land without it")
sys.exit(1 if unchanged else 0)
