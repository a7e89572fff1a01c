"""CONCUR-01: edit_file reads the file, replaces, and writes it back with no lock, so edits of
different lines of one file made at the same time overwrite each other. Ten threads each edit
their own line; a round loses edits when the file does not end with all ten.

    .cache/peers/agno-coding/venv/bin/python peers/agno-coding/repro/lost_edits.py
"""

import shutil
import sys
import tempfile
import threading
from pathlib import Path

from agno.tools.coding import CodingTools

root = Path(tempfile.mkdtemp())
tools = CodingTools(base_dir=root, all=True)
lost = 0
try:
    for _ in range(50):
        (root / "shared.txt").write_text("".join(f"slot-{i:02d}: old\n" for i in range(10)))
        threads = [threading.Thread(target=tools.edit_file, args=(
            "shared.txt", f"slot-{i:02d}: old", f"slot-{i:02d}: new")) for i in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if (root / "shared.txt").read_text().count(": new") != 10:
            lost += 1
finally:
    shutil.rmtree(root)
print(f"{lost} of 50 rounds of ten concurrent edits lost some")
print("DEPARTS: lost edits" if lost else "not reproduced (conforms)")
sys.exit(1 if lost else 0)
