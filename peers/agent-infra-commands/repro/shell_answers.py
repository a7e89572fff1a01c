"""SHELL-02, SHELL-05, SHELL-11: what run_command answers for commands that fail, print
nothing or are killed (as mcp-server-commands, which it forks, does).

- A non-zero exit answers isError with Node's exec message "Command failed: <command>" and the
  output, never the exit status: `false` shows no 1, an unknown command no 127.
- A command that prints nothing answers no content at all: an empty answer.
- A command killed by a signal answers the same "Command failed: ..." without naming the signal
  (no SIGKILL, no 137); only its echo of the command could.

    python3 shell_answers.py      # exit 1: the departures are seen
"""

import os
import re
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base:
    root = Path(base)
    with Server(root) as server:
        answers = {command: server.call("run_command", command=command) for command in (
            "false", "agentconf-no-such-command-xyz", "true", "echo before-signal; kill -9 $$")}
for command, answer in answers.items():
    print(f"{command!r}: {answer!r}")
failed_false, text_false = answers["false"] or (False, "")
_, text_missing = answers["agentconf-no-such-command-xyz"] or (False, "")
_, text_true = answers["true"] or (False, "")
_, text_killed = answers["echo before-signal; kill -9 $$"] or (False, "")
no_status = (failed_false and not re.search(r"(?<!\d)1(?!\d)", text_false)
             and "127" not in text_missing)
silent = text_true.strip() == ""
unnamed = not re.search(r"SIGKILL|(?<!\d)137(?!\d)", text_killed)
verdict(no_status or silent or unnamed,
        f"exit status never shown: {no_status}; no output answers nothing: {silent}; "
        f"a killed command's signal not named: {unnamed}")
