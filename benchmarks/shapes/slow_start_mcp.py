"""A Python MCP server that is slow to answer its first request, as a framework-built one is:
it spends START_CPU_S of CPU (imports, a model of its tools, a config scan) before it serves.

    python benchmarks/shapes/slow_start_mcp.py ROOT            # keeps no session state
    python benchmarks/shapes/slow_start_mcp.py ROOT --guard    # a read guard: stateful

The tools are the reference's, served by the MCP SDK (agentconf.reference.serve_mcp), so every
verdict is the reference's and only the cost of a start differs: what `benchmarks/run.py --only
kinds` measures. Without --guard the server keeps nothing from one call to the next: its read
ledger records nothing and refuses nothing (no read-before-edit, no stale read), and tool_search
is off (a tool it reveals is state a later call would see), so its deferred tools are not served.
The reference has no switch for its read guard (a session feature is the contract's, not a
configuration), hence the ledger replaced here.
"""

import os
import sys
import time
from pathlib import Path

from agentconf.contract import Workspace
from agentconf.reference import create
from agentconf.reference.serve_mcp import run
from agentconf.reference.session import ReadLedger

START_CPU_S = 1.0


class _NoLedger(ReadLedger):
    """Remembers no read: every edit and overwrite is allowed, as on a server with no guard."""

    def record(self, path: Path, info: os.stat_result) -> None:
        pass

    def require_current(self, path: Path, info: os.stat_result, shown: str) -> None:
        pass


def _busy(seconds: float) -> None:
    """CPU, not a sleep: a real start competes with the checks for the cores."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: slow_start_mcp.py ROOT [--guard]", file=sys.stderr)
        return 2
    guard = "--guard" in argv[1:]
    _busy(START_CPU_S / 2 if guard else START_CPU_S)
    workspace = Workspace(root=Path(argv[0]))
    if guard:
        return run(create(workspace))
    system = create(workspace, disabled=("tool_search",))
    system.session.ledger = _NoLedger()
    return run(system)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
