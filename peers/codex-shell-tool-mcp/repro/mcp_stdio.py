"""How the reproductions start @openai/codex-shell-tool-mcp: `node bin/mcp-server.js` in a
temporary folder (its cwd, and HOME), as the kit runs it; every command the reproductions send
writes only there. The client is ../../_repro/mcp_stdio.py (standard library only).

    with Server(root) as server:
        server.call("shell", command="true", workdir=str(root))   # -> (is_error, text)

    python3 shell_answers.py [path/to/@openai/codex-shell-tool-mcp/bin/mcp-server.js]

Before any call it sends the codex/sandbox-state/update request the profile sends (policy
danger-full-access: the Linux sandbox binary is not in this package); without it every command
fails "codex-linux-sandbox was required but not provided".
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, cache, installed, server_argument, verdict

# Where `agentconf matrix` (or the README's npm ci) installs it; another version's
# bin/mcp-server.js as the first argument shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "node_modules" / "@openai" / "codex-shell-tool-mcp"
                         / "bin" / "mcp-server.js")


class Server(Client):
    def __init__(self, root: Path, server: Path = SERVER) -> None:
        super().__init__(["node", str(installed(server))], cwd=root,
                         env={**os.environ, "HOME": str(root)})
        self.request("codex/sandbox-state/update", {
            "sandboxPolicy": {"type": "danger-full-access"}, "sandboxCwd": str(root)})


__all__ = ["SERVER", "Server", "verdict"]
