"""Every departure of cli-mcp-server 0.2.5 the kit reported, shown with nothing but Python and
the installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/cli-mcp-server/repro/departures.py

run_command is judged as the contract's bash. Every answer of this server is an MCP success
(isError false) except an unknown tool's: a failure is told in words (the profile's
[tools.bash] result.failure), so each line below says what the answer's words are.
"""

import time

from mcp_stdio import Departures, Sandbox, Server, alive

d = Departures()
LIMIT = 50_000  # the contract's max_output_chars, which the profile keeps

with Sandbox() as box, Server(box) as s:

    def run(command: str, timeout: float = 30.0):
        return s.call("run_command", timeout=timeout, command=command)

    # TRUNCATE-01..05, SHELL-08: output is never bounded
    answer = run("printf 'HEAD-MARK\\n'; seq 1 50000; printf 'TAIL-MARK\\n'")
    d.check("TRUNCATE-01", answer is not None and len(answer[1]) > LIMIT + 200,
            f"seq 1 50000 comes back whole: {len(answer[1]) if answer else 0} characters, no "
            f"marker, nothing cut", answer and answer[1][-60:])
    answer = run("yes 'ééééééééé' | head -n 50000")
    d.check("TRUNCATE-04", answer is not None and len(answer[1]) > LIMIT + 200,
            f"50,000 lines of two-byte text come back whole ({len(answer[1]) if answer else 0} "
            f"characters)")
    answer = run("seq 1 50000; seq 1 50000; echo LAST-LINE")
    d.check("SHELL-08", answer is not None and len(answer[1]) > LIMIT + 200,
            f"far more output than the limit comes back whole ({len(answer[1]) if answer else 0} "
            f"characters)")

    # SHELL-12: stdout and stderr both far over the limit: both come back whole (the kit's own
    # check floods from /dev/zero, a path this server refuses: made here inside the root)
    flood = "yes xxxxxxxxx | head -c 250000"
    answer = run(f"{{ echo OUT-START; {flood}; echo; echo OUT-END; }}; "
                 f"{{ echo ERR-START; {flood}; echo; echo ERR-END; }} 1>&2")
    d.check("SHELL-12", answer is not None and len(answer[1]) > LIMIT + 400,
            f"stdout and stderr of 250,000 characters each come back whole, sharing no budget "
            f"({len(answer[1]) if answer else 0} characters)")

    # SHELL-02: a missing program is never a shell's exit 127: with no shell operator there is
    # no shell (shlex.split, then subprocess.run(argv)): the spawn error, no exit status
    answer = run("agentconf-no-such-command-xyz")
    d.check("SHELL-02", answer is not None and "127" not in answer[1],
            "a missing command answers Python's spawn error, no exit status (a shell: 127)",
            answer)
    # ... and a shell builtin alone is looked for as a program
    answer = run("exit 3")
    d.check("SHELL-02", answer is not None and "return code: 3" not in answer[1],
            "`exit 3` alone is no exit: there is no program named exit", answer)

    # ... a subshell alone is no subshell: '(' is no operator of its, so `(exit 7)` is split by
    # shlex and "(exit" looked for as a program: no exit status 7
    answer = run("(exit 7)")
    d.check("SHELL-02", answer is not None and "7" not in answer[1].replace("(exit 7", ""),
            "`(exit 7)` alone answers a spawn error, no status 7", answer)

    # SHELL-05: a builtin alone (`:`) is looked for as a program: a command with no output fails
    answer = run(":")
    d.check("SHELL-05", answer is not None and answer[1].startswith("Error: Command execution"),
            "`:` alone fails: there is no program named ':'", answer)

    # SHELL-11: a command killed by a signal shows Python's negative return code, neither the
    # signal's name nor the shell's 128 + n
    answer = run("echo before-signal; kill -KILL $$")
    said = (answer or (False, ""))[1].replace("kill -KILL", "")
    d.check("SHELL-11", answer is not None and "KILL" not in said.upper() and "137" not in said,
            "a command killed by SIGKILL answers 'return code: -9': no KILL, no 137", answer)

    # SHELL-09 (SHOULD): a command's stdin is the server's own (subprocess.run with no stdin):
    # `cat` waits on the JSON-RPC stream, and the call never answers
    answer = run("cat", timeout=8)
    d.check("SHELL-09", answer is None, "`cat` has no end of input: no answer within 8 s")

    # SHELL-10 (SHOULD): '&' is no operator of its: `sleep 1 & echo started` runs sleep with
    # the arguments '&', 'echo', 'started'
    answer = run("sleep 1 & echo started")
    d.check("SHELL-10", answer is not None and "invalid time interval" in answer[1],
            "`sleep 1 & echo started` runs sleep with '&' and 'echo' as its arguments", answer)

with Sandbox() as box, Server(box) as s:
    # SHELL-10 (SHOULD): a background process holding the output keeps the call from answering
    answer = s.call("run_command", timeout=8, command="(sleep 20; echo late) & echo started")
    d.check("SHELL-10", answer is None,
            "`(sleep 20; echo late) & echo started` has no answer within 8 s")

with Sandbox() as box, Server(box) as s:
    # CANCEL-01, CANCEL-03: a cancelled command runs on; the server answers nothing until it
    # ends (subprocess.run blocks its event loop)
    (box.root / "cancel").mkdir()
    asked = s.start("tools/call", {"name": "run_command", "arguments": {
        "command": "sleep 25 & echo $! > cancel/background.pid; echo $$ > cancel/shell.pid; wait"}})
    pid_files = [box.root / "cancel" / name for name in ("background.pid", "shell.pid")]
    for _ in range(100):
        if all(p.is_file() and p.read_text().strip() for p in pid_files):
            break
        time.sleep(0.1)
    s.cancel(asked)
    time.sleep(3)
    pids = [int(p.read_text()) for p in pid_files if p.is_file() and p.read_text().strip()]
    living = [pid for pid in pids if alive(pid)]
    d.check("CANCEL-01", bool(living),
            f"3 s after the cancellation the command's processes still run: {living} of {pids}")
    began = time.monotonic()
    answer = s.call("run_command", timeout=10, command="echo served-after-the-cancel")
    d.check("CANCEL-03", answer is None,
            f"the next command has no answer within 10 s of the cancellation ({answer!r}, "
            f"{time.monotonic() - began:.1f} s)")

with Sandbox() as box, Server(box) as s:
    tool = next(t for t in s.tools() if t["name"] == "run_command")
    d.check("REGISTRY-05", "kind" not in tool, "(SHOULD) run_command declares no kind")
    d.check("ANNOTATION-04", not (tool.get("annotations") or {}),
            "(SHOULD) run_command declares no behaviour hints")
    answer = s.call("no_such_tool")
    d.check("RESULT-06", answer is not None and answer[1] == "Unknown tool: no_such_tool",
            "(SHOULD) an unknown tool's failure names no tool to use instead", answer)

d.finish()
