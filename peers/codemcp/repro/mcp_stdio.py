"""How the reproductions start codemcp: `command` below, with cwd the root of the
kit's sandbox (`Sandbox`, ../../_repro/mcp_stdio.py) and HOME and TMPDIR in it.

    with Sandbox() as box, Server(box) as s:
        s.call("codemcp", subtool=...)   # -> (is_error, text)

    python3 departures.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro import mcp_stdio as shared
from _repro.mcp_stdio import SECRET, Client, Departures, cache, installed

CACHE = cache(__file__)  # where `agentconf matrix` installs it


def command(root: Path) -> list[str]:
    """`codemcp`: the MCP server over stdio, started in the root (its cwd)."""
    return [str(installed(CACHE / "venv" / "bin" / "codemcp"))]


# The root prepared as the profile's [setup].commands prepare it: a git repository with a
# codemcp.toml and a first commit whose trailer names the chat (codemcp writes only in one, and
# commits each change to the chat's commit: InitProject with reuse_head_chat_id goes on from it)
SETUP = [["git", "init", "-q"], ["git", "config", "user.email", "kit@example.invalid"],
         ["git", "config", "user.name", "agentconf"], ["git", "config", "commit.gpgsign", "false"],
         ["sh", "-c", ": > codemcp.toml"], ["git", "add", "codemcp.toml"],
         ["git", "commit", "-q", "-m", "chore: a project for codemcp", "-m",
          "codemcp-id: 1-agentconf"]]


class Sandbox(shared.Sandbox):
    def __init__(self) -> None:
        super().__init__(setup=SETUP)


class Server(Client):
    def __init__(self, box: Sandbox, env: dict[str, str] | None = None) -> None:
        super().__init__(command(box.root), cwd=box.root, env=box.env(env))


__all__ = ["SECRET", "Departures", "Sandbox", "Server"]
