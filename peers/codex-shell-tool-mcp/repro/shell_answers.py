"""SHELL-10, SHELL-11, RESULT-06: three answers of its shell tool.

- `sleep 30 & echo started`: the call answers after about 4 s with exit_code 0 and an empty
  output; the "started" the command printed is lost.
- `echo before-signal; kill -KILL $$`: a JSON-RPC error -32603 "sandbox error: command was
  killed by a signal": no signal named, no 137, and the output before it is lost.
- a tool it does not have: the JSON-RPC error "tool not found", naming neither the tool asked
  for nor the one it has.

    python3 shell_answers.py      # exit 1: the departures are seen
"""

import json
import os
import re
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    root = str(Path(base))
    background = server.call("shell", command="sleep 30 & echo started", workdir=root,
                             timeout_ms=20000)
    killed = server.call("shell", command="echo before-signal; kill -KILL $$", workdir=root)
    unknown = server.call("no_such_tool")
print(f"sleep 30 & echo started: {background!r}")
print(f"kill -KILL $$: {killed!r}")
print(f"no_such_tool: {unknown!r}")
lost = background is not None and "started" not in background[1]
unnamed = killed is not None and not re.search(r"SIGKILL|KILL|(?<!\d)137(?!\d)", killed[1]) \
    and "before-signal" not in killed[1]
bare = unknown is not None and "no_such_tool" not in unknown[1] and "shell" not in unknown[1]
print(json.dumps({"background output lost": lost, "signal unnamed, output lost": unnamed,
                  "unknown tool unnamed": bare}))
verdict(lost or unnamed or bare, "a background command's output is lost, a killed command's "
        "signal and output are not shown, or an unknown tool's answer names no tool")
