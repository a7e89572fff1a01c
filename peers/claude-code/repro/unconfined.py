"""CONFINE-01/02/03/04/05/08/11/12/14/17, SYMLINK-02/03/09/10 (and SYMLINK-01's wording):
`claude mcp serve` serves Claude Code's tools without its permission layer, and the tools
themselves confine nothing
(Read's own description: "You can access any file directly ... Assume this tool is able to read
all files on the machine"). Its working folder is only where relative paths start: ../ and
absolute paths land outside it, ~ is the HOME folder, links out are followed, and Write creates
the folders a path names, outside too.

    python3 unconfined.py     # exit 1: files outside its folder were read, created and edited
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("outside secret\n")
    (root / "link_out").symlink_to(outside)
    (root / "link_file").symlink_to(outside / "secret.txt")
    with Server(root, Path(base, "scratch")) as server:
        home = Path(base, "scratch", "home")
        (home / "notes.txt").write_text("home secret\n")
        _, text = server.call("Read", file_path=str(root / ".." / "outside" / "secret.txt"))
        print("Read <root>/../outside/secret.txt:", text[:120])
        if "outside secret" in text:
            seen.append("a file beside the root was read through ../ (CONFINE-01)")
        _, text = server.call("Write", file_path=str(root / ".." / "escape.txt"), content="x")
        print("Write <root>/../escape.txt:", text[:120])
        if Path(base, "escape.txt").exists():
            seen.append("a file was created beside the root through ../ (CONFINE-01)")
        _, text = server.call("Write", file_path=str(outside / "new" / "dir" / "f.txt"),
                              content="x")
        if (outside / "new" / "dir" / "f.txt").exists():
            seen.append("an absolute path outside was written, its folders made (CONFINE-02, "
                        "-11)")
        _, text = server.call("Read", file_path="~/notes.txt")
        print("Read ~/notes.txt:", text[:120])
        if "home secret" in text:
            seen.append("~/ is the HOME folder, not a folder named ~ in the root (CONFINE-03)")
        _, text = server.call("Read", file_path=str(root / "link_file"))
        if "outside secret" in text:
            seen.append("a link to a file outside was read through (SYMLINK-09)")
        server.call("Read", file_path=str(root / "link_file"))
        _, text = server.call("Write", file_path=str(root / "link_file"), content="x")
        print("Write link_file (to ../outside/secret.txt) after a read:", text[:120])
        if "outside" not in text.lower().replace(str(root).lower(), ""):
            seen.append("a write through a file link out is refused as a link, not as outside "
                        f"the root (SYMLINK-01): {text[:60]!r}")
        server.call("Write", file_path=str(root / "link_out" / "through.txt"), content="x")
        if (outside / "through.txt").exists():
            seen.append("a file was created outside through a folder link (SYMLINK-02)")
        # A file outside its folder is edited only once read (by that path)
        server.call("Read", file_path=str(root / "link_out" / "secret.txt"))
        server.call("Edit", file_path=str(root / "link_out" / "secret.txt"),
                    old_string="outside", new_string="edited")
        if "edited secret" in (outside / "secret.txt").read_text():
            seen.append("a file outside was edited through a link (SYMLINK-10, CONFINE-12)")
        with tempfile.TemporaryDirectory(dir="/tmp") as system_tmp:
            _, text = server.call("Write", file_path=f"{system_tmp}/made.txt", content="x")
            if Path(system_tmp, "made.txt").exists():
                seen.append("a file was created in the system's /tmp (CONFINE-17)")
verdict(seen, "every path outside the root was refused")
