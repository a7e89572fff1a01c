"""SHELL-04, SHELL-10, SHELL-11, RESULT-06: what `run` answers when a command times out, leaves a
background process, or is killed.

- `sleep 30` with timeoutSeconds 1: "EXIT_CODE: unknown" and isError; nothing says it timed out
  (its "Command timed out after ..." text is only a fallback for an empty answer, never used).
- `sleep 30 & echo started` with timeoutSeconds 3: the call waits for the background sleep
  (its output pipe stays open) until the timeout, then answers isError for a command that
  exited 0.
- `echo before-signal; kill -KILL $$`: "EXIT_CODE: unknown": no signal named, no 137.
- A failed command's answer ("EXIT_CODE: 42", its output) names no next step.

    python3 shell_answers.py      # exit 1: the departures are seen
"""

import os
import re
import tempfile
import time
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    timed_out = server.call("run", command="sleep 30", timeoutSeconds=1)
    started = time.monotonic()
    background = server.call("run", command="sleep 30 & echo started", timeoutSeconds=3)
    waited = time.monotonic() - started
    killed = server.call("run", command="echo before-signal; kill -KILL $$")
    failed = server.call("run", command="echo out; exit 42")
print(f"sleep 30, timeoutSeconds 1: {timed_out!r}")
print(f"sleep 30 & echo started: {background!r} after {waited:.1f} s")
print(f"kill -KILL $$: {killed!r}")
print(f"exit 42: {failed!r}")
silent_timeout = timed_out is not None and not re.search(r"(?i)time", timed_out[1])
held = background is not None and background[0] and waited >= 2.5
unnamed = killed is not None and not re.search(r"SIGKILL|KILL|(?<!\d)137(?!\d)", killed[1])
verdict(silent_timeout or held or unnamed,
        f"a timeout is not said: {silent_timeout}; a background process holds the call and "
        f"turns it into a failure: {held}; a killed command's signal is not named: {unnamed}")
