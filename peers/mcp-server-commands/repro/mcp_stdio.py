"""How the reproductions start mcp-server-commands: `node build/index.js` with a temporary
folder as its cwd and HOME, as the kit runs it (every command they send writes only there).

    python3 shell_answers.py [path/to/mcp-server-commands/build/index.js]
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, alive, cache, installed, server_argument, verdict

# Where `agentconf matrix` (or the README's npm ci) installs it; another version's
# build/index.js as the first argument shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "node_modules" / "mcp-server-commands" / "build"
                         / "index.js")


class Server(Client):
    def __init__(self, root: Path, server: Path = SERVER) -> None:
        super().__init__(["node", str(installed(server))], cwd=root,
                         env={**os.environ, "HOME": str(root)})


__all__ = ["SERVER", "Server", "alive", "verdict"]
