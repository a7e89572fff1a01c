"""Seen by the kit's first run as a CANCEL-03 error, which was the kit's (it read the file
before overwriting it though no read is needed; fixed), but the read itself is this server's: a
whole fast_read_file of a file over 2 MB (CLAUDE_MAX_CHUNK_SIZE) never answers. 70,000 lines
(2.1 MB) answer in under a second; 80,000 lines (2.4 MB) not in a minute. Not charged to any
clause today (READ-05's large file is smaller).

    python3 slow_read.py         # exit 1: the read took more than 10 s (killed after 30 s)
"""

import os
import tempfile
import threading
import time
from pathlib import Path

from mcp_stdio import Server, verdict

LINES = 80_000
parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base:
    root = Path(base)
    (root / "big.txt").write_text("".join(f"line {n} of the new content\n" for n in range(LINES)))
    with Server(root) as server:
        size = (root / "big.txt").stat().st_size
        answered: list[str] = []
        reader = threading.Thread(target=lambda: answered.append(
            server.call("fast_read_file", path="big.txt")[1]), daemon=True)
        started = time.monotonic()
        reader.start()
        reader.join(30)
        took = time.monotonic() - started
    print(f"fast_read_file of a {size}-byte file: "
          + (f"answered in {took:.1f} s" if answered else f"no answer in {took:.0f} s"))
    verdict(not answered or took > 10, f"one read of {size} bytes took {took:.0f} s or more")
