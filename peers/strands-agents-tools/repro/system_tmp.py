"""CONFINE-17: the system's temporary folder is outside a project like anything else, and the
file tools, which have no confinement (unconfined.py), write and read there: a file in a folder
of /tmp is rewritten and read back from a project folder elsewhere.

    BYPASS_TOOL_CONSENT=true .cache/peers/strands-agents-tools/venv/bin/python \
        peers/strands-agents-tools/repro/system_tmp.py
"""

import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

os.environ.setdefault("BYPASS_TOOL_CONSENT", "true")
from strands_tools import file_read, file_write


def use(name: str, **arguments: str) -> str:
    tool = {"file_read": file_read, "file_write": file_write}[name]
    result = getattr(tool, name)({"toolUseId": str(uuid.uuid4()), "input": arguments})
    return "".join(part.get("text", "") for part in result["content"])


# A project folder (made in the current folder) and a canary folder of /tmp beside it.
project = Path(tempfile.mkdtemp(prefix="project-", dir=Path.cwd()))
canary = Path(tempfile.mkdtemp(prefix="repro-canary-", dir="/tmp"))
try:
    (canary / "secret.txt").write_text("tmp secret\n")
    os.chdir(project)
    read = use("file_read", path=str(canary / "secret.txt"), mode="view")
    use("file_write", path=str(canary / "new.txt"), content="written from the project\n")
    leaked, written = "tmp secret" in read, (canary / "new.txt").exists()
    print(f"read {canary}/secret.txt: {read.strip()[:80]!r}; wrote {canary}/new.txt: {written}")
finally:
    os.chdir("/")
    shutil.rmtree(canary)
    shutil.rmtree(project)
print("DEPARTS: /tmp is read and written" if leaked or written else "not reproduced (conforms)")
sys.exit(1 if leaked or written else 0)
