"""How the reproductions start mcp-shell-server: `command` below, with cwd the root of the
kit's sandbox (`Sandbox`, ../../_repro/mcp_stdio.py) and HOME and TMPDIR in it.

    with Sandbox() as box, Server(box) as s:
        s.call("shell_execute", command=[...])   # -> (is_error, text)

    python3 departures.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import SECRET, Client, Departures, Sandbox, cache, installed

CACHE = cache(__file__)  # where `agentconf matrix` installs it


def command(root: Path) -> list[str]:
    """`mcp-shell-server`, started in the root (its cwd, where shell_execute runs programs)."""
    return [str(installed(CACHE / "venv" / "bin" / "mcp-shell-server"))]


# The programs it may run, as the profile's [env] sets them
ALLOW = {"ALLOW_COMMANDS": "echo,printf,cat,head,tr,pwd,touch,true,false,sleep,kill"}


class Server(Client):
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        super().__init__(command(box.root), cwd=box.root, env=box.env(env))


__all__ = ["ALLOW", "SECRET", "Departures", "Sandbox", "Server"]
