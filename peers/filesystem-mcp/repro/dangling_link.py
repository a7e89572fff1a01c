"""SYMLINK-04: resolve_allowed_path checks a path that does not exist by its parent folder
(`parent.resolve() / path.name`), and a dangling link does not "exist": a link in the root
pointing outside passes the check as the root's own file, and write_file's open(target, "w")
follows the link and creates its target outside the root.

    python3 dangling_link.py     # exit 1: a file was created outside the root
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (root / "dangling_out").symlink_to(outside / "created_by_escape.txt")
    with Server(root) as server:
        failed, text = server.call("write_file", path="dangling_out", content="escaped\n")
    created = (outside / "created_by_escape.txt").exists()
    print(f"write_file dangling_out answered isError={failed}: {text[:160]!r}")
    verdict(created, "writing to a dangling link created its target outside the root")
