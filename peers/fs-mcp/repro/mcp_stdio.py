"""How the reproductions start fs-mcp: `command` below, with cwd the root of the
kit's sandbox (`Sandbox`, ../../_repro/mcp_stdio.py) and HOME and TMPDIR in it.

    with Sandbox() as box, Server(box) as s:
        s.call("read_files", files=[...])   # -> (is_error, text)

    python3 departures.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import SECRET, Client, Departures, Sandbox, cache, installed

CACHE = cache(__file__)  # where `agentconf matrix` installs it


def command(root: Path) -> list[str]:
    """`fs-mcp --no-http ROOT`: stdio only (no UI, no HTTP server), the root its one allowed
    folder; the venv's bin folder first on PATH for rg (Server's env)."""
    return [str(installed(CACHE / "venv" / "bin" / "fs-mcp")), "--no-http", str(root)]


PATH = {"PATH": f"{CACHE / 'venv' / 'bin'}:/usr/local/bin:/usr/bin:/bin"}


class Server(Client):
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        super().__init__(command(box.root), cwd=box.root, env=box.env(env))


__all__ = ["PATH", "SECRET", "Departures", "Sandbox", "Server"]
