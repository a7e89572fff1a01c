"""How the reproductions start mcp-filesystem-server: `command` below, with cwd the root of the
kit's sandbox (`Sandbox`, ../../_repro/mcp_stdio.py) and HOME and TMPDIR in it.

    with Sandbox() as box, Server(box) as s:
        s.call("read_file", path="a.txt")   # -> (is_error, text)

    python3 departures.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import SECRET, Client, Departures, Sandbox, cache, installed

CACHE = cache(__file__)  # where `agentconf matrix` installs it


def command(root: Path) -> list[str]:
    """`node server.js`: it takes no folder; relative paths start at its cwd, the root."""
    server = CACHE / "node_modules" / "mcp-filesystem-server" / "server.js"
    return ["node", str(installed(server))]


class Server(Client):
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        super().__init__(command(box.root), cwd=box.root, env=box.env(env))


__all__ = ["SECRET", "Departures", "Sandbox", "Server"]
