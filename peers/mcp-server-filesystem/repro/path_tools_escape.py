"""CONFINE-16 and SYMLINK-12: its other path tools share read and write's validatePath, so
CVE-2025-53110's prefix check and CVE-2025-53109's swallowed symlink check reach them too.

- move_file moves a file of the root into the sibling `root_evil` (and out of it: a move
  from `root_evil` into the root removes the sibling's file), create_directory makes a folder
  there (CONFINE-16);
- read_multiple_files reads a file link out (SYMLINK-12): the link's real path is refused
  inside a try whose catch then validates only the link's parent, the root, and answers the
  link's own path, which fs then follows. (0.6.2 has no directory_tree.)

    python3 path_tools_escape.py     # exit 1: each departure it reproduced is printed
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

with tempfile.TemporaryDirectory() as base:
    root, sibling, outside = Path(base, "root"), Path(base, "root_evil"), Path(base, "outside")
    for folder in (root, sibling, outside):
        folder.mkdir()
    (root / "body.txt").write_text("moved out\n")
    (sibling / "secret.txt").write_text("the sibling's secret\n")
    (outside / "secret.txt").write_text("the outside secret\n")
    os.symlink(outside, root / "link_out")
    os.symlink(outside / "secret.txt", root / "link_out_file")
    with Server(root) as server:
        out = server.call("move_file", source=str(root / "body.txt"),
                          destination=str(sibling / "moved.txt"))
        back = server.call("move_file", source=str(sibling / "secret.txt"),
                           destination=str(root / "taken.txt"))
        made = server.call("create_directory", path=str(sibling / "made"))
        many = server.call("read_multiple_files", paths=[str(root / "link_out_file")])
    for name, answer in [("move_file root -> root_evil", out),
                         ("move_file root_evil -> root", back),
                         ("create_directory root_evil/made", made),
                         ("read_multiple_files link_out_file", many)]:
        print(f"{name}: {answer!r}")
    found = []
    if (sibling / "moved.txt").exists():
        found.append("move_file moved a file of the root into the sibling root_evil")
    if not (sibling / "secret.txt").exists():
        found.append("move_file moved the sibling's file into the root")
    if (sibling / "made").is_dir():
        found.append("create_directory made a folder in the sibling root_evil")
    if "the outside secret" in many[1]:
        found.append("read_multiple_files read a file through a link out")
    verdict(bool(found), "; ".join(found))
