"""CONFINE-01..05, -08, -12, SYMLINK-*: the file tools take any path as given (after expanding
~), with no workspace root: run from a project folder, they read and write outside it. The tools
claim no confinement (editor's docs: "Use absolute paths ... or user-relative paths"); an agent
that needs one must add it. Shown here with a canary beside a temporary project folder.

    BYPASS_TOOL_CONSENT=true .cache/peers/strands-agents-tools/venv/bin/python \
        peers/strands-agents-tools/repro/unconfined.py
"""

import os
import sys
import tempfile
import uuid
from pathlib import Path

os.environ.setdefault("BYPASS_TOOL_CONSENT", "true")
from strands_tools import file_read, file_write

with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "project"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("outside secret\n")
    os.chdir(root)

    def use(name: str, **arguments: str) -> str:
        tool = {"file_read": file_read, "file_write": file_write}[name]
        result = getattr(tool, name)({"toolUseId": str(uuid.uuid4()), "input": arguments})
        return "".join(part.get("text", "") for part in result["content"])

    read = use("file_read", path="../outside/secret.txt", mode="view")
    use("file_write", path="../outside/new.txt", content="written from the project\n")
    leaked, written = "outside secret" in read, (outside / "new.txt").exists()
    print(f"read ../outside/secret.txt: {read.strip()!r}; wrote ../outside/new.txt: {written}")
    print("DEPARTS: no confinement" if leaked or written else "not reproduced (conforms)")
    sys.exit(1 if leaked or written else 0)
