"""Why the kit cannot judge it yet: WriteFile, EditFile and RM work only inside a git
repository whose root holds a codemcp.toml (access.py: get_git_base_dir,
check_edit_permission), and every change is committed to it; InitProject fails outside one
too. The kit's sandboxes are plain folders made fresh for each check: a profile can write
files into one ([setup.files]) but cannot make it a git repository with a first commit.
ReadFile needs only some chat_id (any string is taken) and works in a plain folder.

    python3 needs_git.py          # exit 1: in a plain folder a write is refused (a shape)
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base:
    root = Path(base)
    (root / "a.txt").write_text("alpha\n")
    (root / "codemcp.toml").write_text("")
    with Server(root) as server:
        init = server.call("codemcp", subtool="InitProject", path=str(root),
                           user_prompt="read a.txt", subject_line="feat: read a.txt")
        without = server.call("codemcp", subtool="ReadFile", path=str(root / "a.txt"))
        read = server.call("codemcp", subtool="ReadFile", path=str(root / "a.txt"),
                           chat_id="1-agentconf")
        write = server.call("codemcp", subtool="WriteFile", path=str(root / "b.txt"),
                            content="beta\n", description="write b", chat_id="1-agentconf")
for what, answer in (("InitProject", init), ("ReadFile without chat_id", without),
                     ("ReadFile", read), ("WriteFile", write)):
    print(f"{what}: {answer!r:.400}")
refused = write is not None and write[0] and "not a git repository" in write[1]
verdict(refused, "(a shape, not a departure) in a plain folder with a codemcp.toml, WriteFile "
        "fails 'not a git repository' (ReadFile works with any chat_id)")
