"""How the reproductions start @agent-infra/mcp-server-commands (a fork of mcp-server-commands):
`node dist/index.cjs` with a temporary folder as its cwd and HOME, as the kit runs it (every
command they send writes only there).

    server.call("run_command", command="true")        # -> (is_error, text)
    server.call("run_command", timeout=5, command="cat")  # -> None: no answer in 5 s

    python3 shell_answers.py [path/to/@agent-infra/mcp-server-commands/dist/index.cjs]

It prints on stdout, its JSON-RPC channel ("Commands MCP Server running on stdio", "execute
command result ..."): lines that are not JSON are kept in `noise` (RESULT-09).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, alive, cache, installed, server_argument, verdict

# Where `agentconf matrix` (or the README's npm ci) installs it; another version's
# dist/index.cjs as the first argument shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "node_modules" / "@agent-infra"
                         / "mcp-server-commands" / "dist" / "index.cjs")


class Server(Client):
    def __init__(self, root: Path, server: Path = SERVER) -> None:
        super().__init__(["node", str(installed(server))], cwd=root,
                         env={**os.environ, "HOME": str(root)})


__all__ = ["SERVER", "Server", "alive", "verdict"]
