"""How the reproductions start cli-mcp-server, and the sandbox they run it in, laid out as the
kit lays one (a root, `outside/secret.txt` and `root_evil/` beside it, a HOME with
`.ssh/authorized_keys`). The client and the sandbox are ../../_repro/mcp_stdio.py (standard
library only).

    with Sandbox() as box, Server(box) as server:
        server.call("run_command", command="false")   # -> (is_error, text)

    python3 departures.py

The server runs with cwd = the root and HOME and TMPDIR in the sandbox, as the kit runs it, and
with the profile's [env]: ALLOWED_DIR the root, every program and flag allowed, shell operators
on. Every path the reproductions send lands in the sandbox.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import SECRET, Client, Departures, Sandbox, alive, cache, installed

CACHE = cache(__file__)  # where `agentconf matrix` installs it


def command(root: Path) -> list[str]:
    """`cli-mcp-server`, started in the root (its cwd; ALLOWED_DIR names the same folder)."""
    return [str(installed(CACHE / "venv" / "bin" / "cli-mcp-server"))]


def configuration(root: Path) -> dict[str, str]:
    """Its configuration, as the profile's [env] sets it."""
    return {"ALLOWED_DIR": str(root), "ALLOWED_COMMANDS": "all", "ALLOWED_FLAGS": "all",
            "ALLOW_SHELL_OPERATORS": "true"}


class Server(Client):
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        super().__init__(command(box.root), cwd=box.root,
                         env=box.env({**configuration(box.root), **(env or {})}))


__all__ = ["SECRET", "Departures", "Sandbox", "Server", "alive"]
