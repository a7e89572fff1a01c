"""How the reproductions start fsguard-mcp, and the sandbox they run it in, laid out as the kit
lays one (a root, `outside/secret.txt` and `root_evil/` beside it, a HOME with
`.ssh/authorized_keys`). The client and the sandbox are ../../_repro/mcp_stdio.py (standard
library only).

    with Sandbox() as box, Server(box) as server:
        server.call("fs_read", path="../outside/secret.txt")   # -> (is_error, text)

    python3 departures.py

The server runs with cwd = the root, FSGUARD_ROOT the root, and HOME and TMPDIR in the
sandbox, as the kit runs it. Every path the reproductions send lands in the sandbox.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import SECRET, Client, Departures, Sandbox, cache, installed

CACHE = cache(__file__)  # where `agentconf matrix` installs it


def command(root: Path) -> list[str]:
    """`fsguard-mcp`, started in the root; FSGUARD_ROOT names the same folder."""
    return [str(installed(CACHE / "venv" / "bin" / "fsguard-mcp"))]


class Server(Client):
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        super().__init__(command(box.root), cwd=box.root,
                         env=box.env({"FSGUARD_ROOT": str(box.root), **(env or {})}))


__all__ = ["SECRET", "Departures", "Sandbox", "Server"]
