"""CONCUR-04, a race the kit catches in some runs only: a Read that runs while a Write of the same
file does is sometimes refused ("its symlink resolution changed after permission was checked"):
Write replaces the file by a rename, so the file Read opens is not the one it checked. The
contract wants every such read to succeed with one whole version.

Each round sends one Write of a new version and eight Reads of the same file at once (pipelined
on stdin, as the kit's concurrent calls are; the server runs them together), then collects the
answers. A Read that failed, or whose content holds no version or several, departs.

    python3 read_during_write.py [path/to/claude]     # exit 1: a departing Read was seen
"""

import re
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

ROUNDS = 200
READS = 8


def version(k: int) -> str:
    """As the kit's check writes them: 50 lines of 100 tokens (25 kB)."""
    return (f"<v{k}>" * 100 + "\n") * 50

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    doc = root / "doc.txt"
    doc.write_text(version(0))
    refused: list[str] = []
    torn = reads = 0
    with Server(root, Path(base, "scratch")) as server:
        server.call("Read", file_path=str(doc))  # Write wants the file read first
        for k in range(1, ROUNDS + 1):
            batch = [("Write", {"file_path": str(doc), "content": version(k)})]
            batch += [("Read", {"file_path": str(doc)})] * READS
            for tool, failed, text in server.call_together(batch):
                if tool != "Read":
                    continue
                reads += 1
                if failed:
                    refused.append(text)
                elif len(set(re.findall(r"<v(\d+)>", text))) != 1:
                    torn += 1
            server.call("Read", file_path=str(doc))  # the next Write is not refused as stale
    print(f"{len(refused)} of {reads} Reads during a Write were refused; {torn} saw no whole "
          "version")
    if refused:
        print("for example: " + refused[0][:200])
        seen.append(f"CONCUR-04: {len(refused)} of {reads} concurrent Reads were refused")
    if torn:
        seen.append(f"CONCUR-04: {torn} of {reads} concurrent Reads saw no whole version")
verdict(seen, "every Read during a Write saw one whole version")
