"""CVE-2025-53110 (CONFINE-04, -11, -13, -14; SYMLINK-02): the allowed-directory check is a
string prefix test (`normalizedRequested.startsWith(dir)`), so a sibling folder whose name
starts with the root's (`root_evil` beside `root`) passes it: a write there lands outside.

    python3 prefix_escape.py         # exit 1: a file was created in the sibling folder
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

with tempfile.TemporaryDirectory() as base:
    root, sibling = Path(base, "root"), Path(base, "root_evil")
    root.mkdir()
    sibling.mkdir()
    with Server(root) as server:
        failed, text = server.call("write_file", path=str(sibling / "x.txt"), content="x")
        _, listing = server.call("list_directory", path=str(sibling))
    print(f"write_file {sibling / 'x.txt'} answered {text!r}; list_directory of it: {listing!r}")
    verdict((sibling / "x.txt").exists(), "a write to a sibling folder sharing the root's prefix "
            "landed outside the root")
