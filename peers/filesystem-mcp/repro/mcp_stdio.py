"""How the reproductions start filesystem-mcp: its venv's `filesystem-mcp ROOT` (where
`agentconf matrix` installs it), ROOT its one allowed folder and its cwd, HOME set to `home`
when given (else ROOT). The client is ../../_repro/mcp_stdio.py (standard library only); a
call waits for its answer for as long as it takes.

    with Server(ROOT_DIR) as server:
        server.call("read_file", path=...)   # -> (is_error, text)

    python3 dangling_link.py [path/to/venv/bin/filesystem-mcp]

Lines on stdout that are not JSON are skipped (kept in `noise`).
"""

import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, cache, installed, server_argument, verdict

# Where `agentconf matrix` installs it; another version's filesystem-mcp as the first argument
# shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "venv" / "bin" / "filesystem-mcp")


class Server(Client):
    timeout = math.inf
    whole_answer_when_empty = True

    def __init__(self, root: Path, server: Path = SERVER, home: Path | None = None) -> None:
        super().__init__([str(installed(server)), str(root)], cwd=root,
                         env={**os.environ, "HOME": str(home or root)})


__all__ = ["SERVER", "Server", "verdict"]
