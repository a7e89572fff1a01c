"""How the reproductions start fast-filesystem-mcp: `node dist/index.js --allow ROOT` (its only
way to be given a folder) in ROOT, HOME set to `home` when given (else ROOT). The client is
../../_repro/mcp_stdio.py (standard library only); a call waits for its answer for as long as
it takes.

    with Server(ROOT_DIR) as server:
        server.call("read_file", path=...)   # -> (is_error, text)

    python3 symlink_escape.py [path/to/fast-filesystem-mcp/dist/index.js]

Lines on stdout that are not JSON are skipped (kept in `noise`).
"""

import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, cache, installed, server_argument, verdict

# Where `agentconf matrix` (or the README's npm ci) installs it; another version's dist/index.js
# as the first argument shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "node_modules" / "fast-filesystem-mcp" / "dist"
                         / "index.js")


class Server(Client):
    timeout = math.inf
    whole_answer_when_empty = True

    def __init__(self, root: Path, server: Path = SERVER, home: Path | None = None) -> None:
        super().__init__(["node", str(installed(server)), "--allow", str(root)], cwd=root,
                         env={**os.environ, "HOME": str(home or root)})


__all__ = ["SERVER", "Server", "verdict"]
