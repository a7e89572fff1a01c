"""Why the kit cannot judge it yet: shell_execute takes an argv and never runs a shell. `sh` and
`bash` are refused by its default security policy (DANGEROUS_COMMANDS in command_validator.py)
even when ALLOW_COMMANDS lists them, and `;`, `&&` are refused as shell operators. The kit's
bash scenarios are shell command lines (`echo out; exit 3`, `kill -KILL $$`, `sleep 60 &`), and a
profile can send them to an argv tool only through a shell (`argv = ["sh", "-c", "{command}"]`).

    python3 no_shell.py           # exit 1: no command line of the kit's can run
"""

import os
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

parent = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
with tempfile.TemporaryDirectory(dir=parent) as base, Server(Path(base)) as server:
    answers = {
        "sh -c": server.call("shell_execute", command=["sh", "-c", "echo hello"]),
        "bash -c": server.call("shell_execute", command=["bash", "-c", "echo hello"]),
        "argv ;": server.call("shell_execute", command=["echo", "a", ";", "exit", "3"]),
        "argv |": server.call("shell_execute", command=["echo", "hello", "|", "cat"]),
    }
for what, answer in answers.items():
    print(f"{what}: {answer!r}")
refused = all(answer is not None and answer[0] for key, answer in answers.items()
              if key != "argv |")
verdict(refused, "(a shape, not a departure) sh -c and bash -c are refused although allowed, "
        "and ';' is refused: no shell command line runs")
