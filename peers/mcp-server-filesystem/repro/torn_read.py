"""CONCUR-04: write_file truncates the file and then writes it (fs.writeFile), so a read_file
in between sees an empty file that was never written. 2025.7.1 and later write a temporary
file and rename it over the target; a read sees one whole version.

Two servers on the same root (the kit sends both calls to one server; two make the
reproduction need nothing but this client): one rewrites the file, the other reads it.

    python3 torn_read.py         # exit 1: a read answered a file that was never written whole
"""

import tempfile
import threading
from pathlib import Path

from mcp_stdio import Server, verdict

VERSIONS = ("A" * 65536, "B" * 65536)

with tempfile.TemporaryDirectory() as base:
    root = Path(base)
    target = str(root / "doc.txt")
    (root / "doc.txt").write_text(VERSIONS[0])
    done = threading.Event()

    def write() -> None:
        with Server(root) as writer:
            for round_ in range(400):
                writer.call("write_file", path=target, content=VERSIONS[round_ % 2])
        done.set()

    thread = threading.Thread(target=write)
    thread.start()
    torn = 0
    with Server(root) as reader:
        while not done.is_set():
            failed, text = reader.call("read_file", path=target)
            # An empty text comes back as the whole answer (mcp_stdio's fallback): '"text": ""'.
            torn += not failed and text not in VERSIONS
            if torn == 1 and not failed and text not in VERSIONS:
                print(f"read_file answered {text[:120]!r}")
    thread.join()
    verdict(torn > 0, f"{torn} reads during writes saw a file that was never written whole")
