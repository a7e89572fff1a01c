"""CANCEL-02: a cancelled fast_write_file is not stopped, and it truncates the file before it
writes it (fs.writeFile, as in torn_read.py), so right after the cancellation the file holds
neither its old content nor the new one: part of the new text, or nothing.

One server: write the old content, ask fast_write_file for a big new one, send
notifications/cancelled as soon as the file's size moves (as the kit does), and read the file at
once. The race is the server's: some rounds catch it, some do not.

    python3 cancelled_write.py   # exit 1: a round found the file neither old nor new
"""

import tempfile
import time
from pathlib import Path

from mcp_stdio import Server, verdict

OLD = "the old content\n"
NEW = "".join(f"line {number} of the new content\n" for number in range(200_000))
ROUNDS = 20

torn = 0
with tempfile.TemporaryDirectory() as base:
    root = Path(base)
    target = root / "big.txt"
    with Server(root) as server:
        for _ in range(ROUNDS):
            target.write_text(OLD)
            asked = server.start("tools/call", {
                "name": "fast_write_file", "arguments": {"path": str(target), "content": NEW}})
            deadline = time.monotonic() + 10
            while target.stat().st_size == len(OLD) and time.monotonic() < deadline:
                time.sleep(0.001)
            server.cancel(asked)  # notifications/cancelled, "cancelled by the client"
            content = target.read_text()
            if content not in (OLD, NEW):
                torn += 1
                if torn == 1:
                    print(f"after the cancellation big.txt held {len(content)} characters: "
                          f"neither the old {len(OLD)} nor the new {len(NEW)}")
            server.call("fast_list_allowed_directories")  # the cancelled call's answer drains
            time.sleep(0.5)
verdict(torn > 0, f"{torn} of {ROUNDS} cancelled writes left a file that was never whole")
