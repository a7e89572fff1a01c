"""Bash's departures:

- SHELL-04, SHELL-07: a command that printed something before its timeout, or ignores SIGTERM,
  is not stopped at its timeout: it is moved to the background and the call answers success
  (with "backgroundTaskId" and "timedOutAfterMs"), while the command keeps running.
- SHELL-05: a command with no output answers {"stdout": "", "stderr": "", ...}: it says nothing
  of there being no output.
- TRUNCATE-06: output is cut silently at 30,000 bytes: 20,000 "é" (40,000 bytes, under the
  30,000 characters of its listing's maxResultSizeChars) come back as 15,000, with no marker.
- SHELL-11: a command killed by a signal answers "Exit code 1" (SIGKILL, SIGHUP) or
  "Exit code 144" (SIGTERM): the signal is never named.

    python3 shell.py     # exit 1: any of them shows
"""

import json
import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    with Server(root, Path(base, "scratch")) as server:
        failed, text = server.call("Bash", command="trap '' TERM; sleep 30", timeout=500)
        print("trap '' TERM; sleep 30 with a timeout of 500 ms:", text[:200])
        if not failed:
            seen.append("SHELL-07: a command that ignores SIGTERM answered success at its "
                        "timeout, moved to the background")
        failed, text = server.call("Bash", command="echo before-timeout; sleep 30", timeout=800)
        print("echo before-timeout; sleep 30 with a timeout of 800 ms:", text[:120])
        if not failed:
            seen.append("SHELL-04: a command over its timeout after some output answered "
                        "success, moved to the background")
        failed, text = server.call("Bash", command="true")
        print("true:", text)
        if json.loads(text).get("stdout") == "" and "output" not in text.replace(
                "noOutputExpected", ""):
            seen.append("SHELL-05: a command with no output answers an empty stdout, saying "
                        "nothing of it")
        failed, text = server.call("Bash", command="python3 -c \"print('é' * 20000, end='')\"")
        out = json.loads(text)["stdout"]
        print(f"20000 é printed: {len(out)} came back")
        if len(out) < 20000:
            seen.append(f"TRUNCATE-06: 20000 é (under its 30000) came back as {len(out)}, "
                        "no marker" if "truncat" not in text.lower() else "")
        for signal in ("KILL", "TERM", "HUP"):
            failed, text = server.call("Bash", command=f"echo before; kill -{signal} $$")
            print(f"kill -{signal} $$:", repr(text[:80]))
            if signal not in text and f"SIG{signal}" not in text:
                seen.append(f"SHELL-11: a command killed by SIG{signal} answered {text[:20]!r}, "
                            "naming no signal")
verdict(seen, "the shell stopped the command at its timeout and named the signals")
