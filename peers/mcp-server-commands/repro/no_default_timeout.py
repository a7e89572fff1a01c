"""SHELL-14: a command given no timeout is never stopped. run_command gives exec() no
timeout and the tool takes none, so a command runs for as long as it runs: `sleep 45` has no
answer after 35 s (the contract's default is 30 s). The check is the one agent-infra-commands
(a fork) fails too: ../../_repro/no_default_timeout.py, run here on this server.

    python3 no_default_timeout.py     # exit 1: no answer within 35 seconds
"""

import mcp_stdio  # first: it puts peers/ on sys.path, where _repro is
from _repro.no_default_timeout import main

main(mcp_stdio.Server)
