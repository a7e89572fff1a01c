"""How the reproductions start Claude Code's native binary, `claude mcp serve`: in ROOT (its
working folder, as the kit starts it) with HOME and TMPDIR in a scratch folder beside it and its
telemetry, error reports and nonessential traffic off. The client is ../../_repro/mcp_stdio.py
(standard library only); a call waits for its answer for as long as it takes, and a `timeout`
keyword is the tool's own argument (Bash's, in ms).

    with Server(ROOT_DIR, SCRATCH) as server:
        server.call("Read", file_path=...)   # -> (is_error, text)

    python3 unconfined.py [path/to/claude-code-linux-x64/claude]

Lines on stdout that are not JSON are skipped (kept in `noise`).
"""

import math
import os
import signal
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # peers/, where _repro is
from _repro.mcp_stdio import Client, cache, installed, server_argument, verdict

# Where `agentconf matrix` (or the README's npm ci) installs it; another build as the first
# argument shows the same reproduction on it.
SERVER = server_argument(cache(__file__) / "node_modules" / "@anthropic-ai"
                         / "claude-code-linux-x64" / "claude")
MARK = "CLAUDE_CODE_REPRO_SESSION"
QUIET = {"DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
         "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}


class Server(Client):
    protocol = "2025-06-18"
    timeout = math.inf
    whole_answer_when_empty = True

    def __init__(self, root: Path, scratch: Path, server: Path = SERVER) -> None:
        home, tmp = scratch / "home", scratch / "tmp"
        self._mark = uuid.uuid4().hex
        home.mkdir(parents=True, exist_ok=True)
        tmp.mkdir(parents=True, exist_ok=True)
        super().__init__([str(installed(server)), "mcp", "serve"], cwd=root,
                         env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                              "TMPDIR": str(tmp), MARK: self._mark, **QUIET})

    def close(self) -> None:
        # Its shells and what they started too, also those it moved to a session of their own
        # (a command backgrounded at its timeout): every process that inherited the mark.
        needle = f"{MARK}={self._mark}".encode()
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as handle:
                    if needle in handle.read().split(b"\0"):
                        os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        super().close()

    def call(self, tool: str, **arguments: object) -> tuple[bool, str]:
        answer = self.call_tool(tool, arguments)
        assert answer is not None  # no time limit: only an ended output comes back without
        return answer


__all__ = ["SERVER", "Server", "verdict"]
