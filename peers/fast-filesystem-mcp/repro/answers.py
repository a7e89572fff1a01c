"""EDIT-02, -03, -04, RESULT-02, -03; READ-06, -08: two answers a model is misled by.

- fast_edit_block of text that is not in the file (or is there twice) answers a success (MCP
  isError false) whose JSON says "status": "not_found" / "count_mismatch"; nothing is changed.
- fast_read_file {line_start, line_count} ignores line_count while auto_chunk is on (its
  default; enhanced-handlers.js chunkTextByLines): everything from line_start to the end comes
  back.

    python3 answers.py           # exit 1: both seen
"""

import json
import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base:
    root = Path(base)
    (root / "f.txt").write_text("hello\n")
    (root / "rows.txt").write_text("".join(f"row-{i}\n" for i in range(1, 11)))
    with Server(root) as server:
        failed, edit = server.call("fast_edit_block", path="f.txt", old_text="absent",
                                   new_text="x")
        _, window = server.call("fast_read_file", path="rows.txt", line_start=2, line_count=3)
    status = json.loads(edit).get("status") if not failed else None
    lines = json.loads(window)["content"].splitlines()
    print(f"edit of absent text: isError={failed}, status={status!r}")
    print(f"read line_start=2 line_count=3: {len(lines)} lines {lines[:2]}...{lines[-1:]}")
    verdict(not failed and len(lines) != 3,
            "an edit that changed nothing answered success, and a 3-line window came back "
            f"{len(lines)} lines")
