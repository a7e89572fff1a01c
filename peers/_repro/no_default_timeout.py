"""SHELL-14 on a server whose run_command{command} takes no timeout and gives exec() none
(agent-infra-commands, mcp-server-commands): a command given no timeout is never stopped, so
`sleep 45` has no answer after 35 s (the contract's default is 30 s). Each peer's
repro/no_default_timeout.py runs it on its own server:

    import mcp_stdio  # first: it puts peers/ on sys.path, where _repro is
    from _repro.no_default_timeout import main

    main(mcp_stdio.Server)       # exit 1: no answer within 35 seconds
"""

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from _repro.mcp_stdio import Client, verdict


def main(server: Callable[[Path], Client]) -> NoReturn:
    """Start `server` in a temporary folder and ask it to run `sleep 45`; exit 1 when no answer
    came within 35 s."""
    parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=parent) as base, server(Path(base)) as client:
        answer = client.call("run_command", timeout=35, command="sleep 45")
    print(f"sleep 45: {answer!r}")
    verdict(answer is None, f"answered within 35 s: {answer is not None}")
