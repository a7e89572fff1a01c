"""CONCUR-04: file_write truncates the file, then writes it (open(path, "w")), so a file_read
running meanwhile answers an empty file: neither the old version nor the new one. One thread
rewrites a file with two alternating versions while the main thread reads it.

    .cache/peers/strands-agents-tools/venv/bin/python peers/strands-agents-tools/repro/torn_read.py
"""

import os
import shutil
import sys
import tempfile
import threading
import uuid

os.environ.setdefault("BYPASS_TOOL_CONSENT", "true")
from strands_tools import file_read, file_write


def use(tool: object, name: str, **arguments: str) -> str:
    result = getattr(tool, name)({"toolUseId": str(uuid.uuid4()), "input": arguments})
    return "".join(part.get("text", "") for part in result["content"])


root = tempfile.mkdtemp()
path = os.path.join(root, "doc.txt")
versions = ["a" * 20000 + "\n", "b" * 20000 + "\n"]
use(file_write, "file_write", path=path, content=versions[0])
done = threading.Event()


def rewrite() -> None:
    turn = 0
    while not done.is_set():
        use(file_write, "file_write", path=path, content=versions[turn % 2])
        turn += 1


writer = threading.Thread(target=rewrite)
writer.start()
torn = 0
try:
    for _ in range(300):
        text = use(file_read, "file_read", path=path, mode="view")
        if not any(version.strip() in text for version in versions):
            torn += 1
            if torn == 1:
                print(f"a read during the rewrites answered {text[:120]!r}")
finally:
    done.set()
    writer.join()
    shutil.rmtree(root)
print(f"{torn} of 300 reads saw neither version")
print("DEPARTS: torn reads" if torn else "not reproduced (conforms)")
sys.exit(1 if torn else 0)
