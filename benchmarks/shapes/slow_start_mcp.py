"""A Python MCP server that is slow to answer its first request, as a framework-built one is:
it spends START_CPU_S of CPU (imports, a model of its tools, a config scan) before it serves.

    python benchmarks/shapes/slow_start_mcp.py ROOT            # keeps no session state
    python benchmarks/shapes/slow_start_mcp.py ROOT --guard    # a read guard: stateful

The tools are the reference's, served by the MCP SDK (agentconf.reference.serve_mcp), so every
verdict is the reference's and only the cost of a start differs: what `benchmarks/run.py --only
kinds` measures. Without --guard the session features (read-before-edit, stale-read) are off,
so the server truly keeps nothing from one call to the next.
"""

import sys
import time
from pathlib import Path

from agentconf.contract import Workspace
from agentconf.reference import create
from agentconf.reference.serve_mcp import run

START_CPU_S = 1.0
SESSION_FEATURES = frozenset({"read_before_edit", "stale_read"})


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

    def enabled(feature: str) -> bool:
        return guard or feature not in SESSION_FEATURES

    return run(create(Workspace(root=Path(argv[0])), feature_enabled=enabled))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
