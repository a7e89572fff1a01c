"""CONCUR-04: save_file truncates the file, then writes it (Path.write_text), so a read_file
running meanwhile answers an empty file: neither the old version nor the new one. One thread
rewrites a file with two alternating versions while the main thread reads it.

    .cache/peers/agno/venv/bin/python peers/agno/repro/torn_read.py
"""

import shutil
import sys
import tempfile
import threading
from pathlib import Path

from agno.tools.file import FileTools

root = Path(tempfile.mkdtemp())
tools = FileTools(base_dir=root)
versions = ["a" * 20000 + "\n", "b" * 20000 + "\n"]
tools.save_file(versions[0], "doc.txt")
done = threading.Event()


def rewrite() -> None:
    turn = 0
    while not done.is_set():
        tools.save_file(versions[turn % 2], "doc.txt")
        turn += 1


writer = threading.Thread(target=rewrite)
writer.start()
torn = 0
try:
    for _ in range(300):
        text = tools.read_file("doc.txt")
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
