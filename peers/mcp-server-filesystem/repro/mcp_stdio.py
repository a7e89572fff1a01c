"""How the reproductions start mcp-server-filesystem: `node dist/index.js ROOT` in ROOT, HOME
there too. The client is ../../_repro/mcp_stdio.py (standard library only); a call waits for
its answer for as long as it takes.

    with Server(ROOT_DIR) as server:
        server.call("read_file", path=...)   # -> (is_error, text)

    python3 symlink_escape.py [path/to/mcp-server-filesystem/dist/index.js]
"""

import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, cache, installed, server_argument, verdict

# Where `agentconf matrix` (or the README's npm ci) installs it; another version's dist/index.js
# as the first argument shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "node_modules" / "mcp-server-filesystem" / "dist"
                         / "index.js")


class Server(Client):
    timeout = math.inf
    whole_answer_when_empty = True

    def __init__(self, root: Path, server: Path = SERVER) -> None:
        super().__init__(["node", str(installed(server)), str(root)], cwd=root,
                         env={**os.environ, "HOME": str(root)})


__all__ = ["SERVER", "Server", "verdict"]
