"""CONCUR-04: CodingTools.write_file truncates the file, then writes it, so a read_file running
meanwhile answers an empty or partial file: neither the old version nor the new one whole. One
thread rewrites a file with two alternating versions while the main thread reads it.

    .cache/peers/agno-coding/venv/bin/python peers/agno-coding/repro/torn_read.py
"""

import shutil
import sys
import tempfile
import threading
from pathlib import Path

from agno.tools.coding import CodingTools

root = Path(tempfile.mkdtemp())
tools = CodingTools(base_dir=root, all=True)
versions = [("a" * 400 + "\n") * 50, ("b" * 400 + "\n") * 50]
tools.write_file("doc.txt", versions[0])
done = threading.Event()


def rewrite() -> None:
    turn = 0
    while not done.is_set():
        tools.write_file("doc.txt", versions[turn % 2])
        turn += 1


writer = threading.Thread(target=rewrite)
writer.start()
torn = 0
try:
    for _ in range(300):
        text = tools.read_file("doc.txt")
        if not any(text.count(v[:400]) == 50 for v in versions):
            torn += 1
            if torn == 1:
                print(f"a read during the rewrites answered {text[:120]!r}")
finally:
    done.set()
    writer.join()
    shutil.rmtree(root)
print(f"{torn} of 300 reads saw neither version whole")
print("DEPARTS: torn reads" if torn else "not reproduced (conforms)")
sys.exit(1 if torn else 0)
