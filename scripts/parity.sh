#!/usr/bin/env bash
# Pipes every check of the suites through `agentconf serve` (cmd:) and `agentconf serve --mcp`
# (mcp:) and compares each with the in-process run: the full form of
# tests/runner/test_stdio_parity.py, whose CI form pipes the transport-facing categories only.
# Kept servers (reuse = "worker", retired after any check that shapes the session): about five
# minutes over MCP on 2 cores (benchmarks/run.py: 306 s for every check), less over cmd:.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
AGENTCONF_FULL_PARITY=1 exec .venv/bin/python -m pytest -q -n 2 \
  tests/runner/test_stdio_parity.py "$@"
