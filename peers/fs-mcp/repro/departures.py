"""Every departure of fs-mcp 1.47.3 the kit reported, shown with nothing but Python and the
installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/fs-mcp/repro/departures.py
"""

import os
import tempfile
import time
from pathlib import Path

from mcp_stdio import PATH, SECRET, Departures, Sandbox, Server

d = Departures()

with Sandbox() as box, Server(box, env=PATH) as s:

    def read(p, **w):
        return s.call("read_files", files=[{"path": p, **({"reads": [w]} if w else {})}])

    def edit(p, o, n):
        return s.call(
            "edit_files", files=[{"path": p, "edits": [{"match_text": o, "new_string": n}]}]
        )

    def run(c, **k):
        return s.call("run_command", command=c, **k)

    # CONFINE / SYMLINK: reads and edits outside the root
    answer = read("../outside/secret.txt")
    d.check(
        "CONFINE-08",
        SECRET in answer[1],
        "read_files ../outside/secret.txt returns it (CONFINE-14 too)",
        answer,
    )
    edit("../outside/secret.txt", "outside", "edited")
    d.check(
        "CONFINE-12",
        (box.outside / "secret.txt").read_text().startswith("edited"),
        "edit_files ../outside/secret.txt edits it",
    )
    (box.outside / "secret.txt").write_text(f"outside secret {SECRET}\n")
    outer = Path(tempfile.mkdtemp(prefix="repro-outer-", dir="/tmp"))
    (outer / "secret.txt").write_text(f"tmp secret {SECRET}\n")
    answer = read(str(outer / "secret.txt"))
    d.check("CONFINE-17", SECRET in answer[1], "a file in the system's /tmp is read", answer)
    (outer / "secret.txt").unlink()
    outer.rmdir()
    os.symlink(box.outside / "secret.txt", box.root / "link_out_file")
    answer = read("link_out_file")
    d.check(
        "SYMLINK-09", SECRET in answer[1], "a read through a link out answers the secret", answer
    )
    edit("link_out_file", "outside", "edited")
    d.check(
        "SYMLINK-10",
        (box.outside / "secret.txt").read_text().startswith("edited"),
        "an edit through a link out edits the target",
    )
    (box.outside / "secret.txt").write_text(f"outside secret {SECRET}\n")

    # EDIT / EOL
    box.write("crlf.txt", b"a\r\nb\r\nc\r\n")
    edit("crlf.txt", "b", "x\ny")
    after = (box.root / "crlf.txt").read_bytes()
    d.check("EOL-01", b"\r\n" not in after, "an edit of a CRLF file writes it back LF", after)
    box.write("mixed.txt", b"a\r\nb\nc\r\nd\n")
    edit("mixed.txt", "c", "C")
    after = (box.root / "mixed.txt").read_bytes()
    d.check(
        "EOL-03",
        after == b"a\nb\nC\nd\n",
        "a mixed file's CRLF lines come back LF (EOL-06 too)",
        after,
    )
    box.write("crlf2.txt", b"x\r\na\r\nb\r\ny\r\n")
    edit("crlf2.txt", "a\nb", "A\nB")
    after = (box.root / "crlf2.txt").read_bytes()
    d.check(
        "EOL-07",
        after.replace(b"\r\n", b"\n") != b"x\nA\nB\ny\n",
        "(SHOULD) an LF old text matches CRLF lines (the file coming back LF is EOL-01's)",
        after,
    )
    box.write("empty.txt", "")
    answer = edit("empty.txt", "", "inserted")
    d.check(
        "EDIT-05",
        (box.root / "empty.txt").read_text() == "inserted",
        "an empty match_text on an empty file inserts",
        answer,
    )
    tool = box.write("tool.sh", "#!/bin/sh\necho one\n")
    tool.chmod(0o755)
    edit("tool.sh", "one", "two")
    mode = (box.root / "tool.sh").stat().st_mode & 0o777
    d.check("EDIT-15", mode != 0o755, f"an edit leaves an executable {oct(mode)}")
    box.write("curly.txt", "it\u2019s here\n")
    answer = edit("curly.txt", "it's", "it is")
    d.check(
        "EDIT-07",
        "No match found" in answer[1],
        "(SHOULD) straight quotes do not match curly ones",
        answer,
    )
    box.write("f.txt", "one\ntwo\n")
    answer = edit("f.txt", "two", "deux")
    d.check("EDIT-10", "@@" not in answer[1], "(SHOULD) a successful edit answers no diff", answer)

    # READ
    box.write("blob.bin", b"BINTOKEN\x00\x01\x02 more BINTOKEN")
    answer = read("blob.bin")
    d.check("READ-04", "BINTOKEN" in answer[1], "a file with NUL bytes is read as text", answer)
    box.write("big.txt", "large file line\n" * 20000)
    answer = read("big.txt")
    d.check(
        "READ-05",
        len(answer[1]) >= 320000,
        f"a 320,000-byte file comes back whole ({len(answer[1])} characters)",
    )
    box.write("words.txt", "alpha\nbravo\ncharlie\ndelta\necho\nfoxtrot\n")
    answer = read("words.txt", start_line=5, end_line=3)
    d.check(
        "READ-12",
        not answer[0] and "Error" not in answer[1],
        "a window ending before it starts answers success, no lines",
        answer,
    )
    answer = read("words.txt", start_line="2")
    d.check(
        "VALIDATE-02",
        not answer[0] and "bravo" in answer[1],
        "a string '2' for start_line is taken as 2",
        answer,
    )
    answer = read("words.txt")
    d.check(
        "READ-07",
        "1" not in answer[1].split("\n", 1)[1],
        "(SHOULD) lines come back without numbers",
        answer,
    )
    os.mkfifo(box.root / "fifo")
    d.check(
        "READ-10",
        read.__call__ and s.call("read_files", timeout=3, files=[{"path": "fifo"}]) is None,
        "(SHOULD) a read of a FIFO does not answer within 3 s",
    )

with Sandbox() as box, Server(box, env=PATH) as s:

    def run(c, **k):
        return s.call("run_command", command=c, **k)

    # GREP: rtk first (missing here), then rg: absolute paths, no bound;
    # '-v' reaches rg as an option
    box.write("src/deep/mod.txt", "one\nquarry here\n")
    answer = s.call("grep_content", pattern="quarry")
    d.check(
        "GREP-01",
        str(box.root) in answer[1],
        "matches are named by absolute paths, not paths from the root",
        answer,
    )
    for i in range(40):
        box.write(f"logs/part{i:04d}.log", ("match " + "z" * 60 + "\n") * 200)
    answer = s.call("grep_content", pattern="match")
    d.check(
        "GREP-05",
        len(answer[1]) > 50200,
        f"a search matching 8,000 lines answers {len(answer[1])} characters, unbounded",
    )
    box.write("dash.txt", "-v here\n")
    answer = s.call("grep_content", timeout=10, pattern="-v")
    d.check(
        "GREP-03",
        answer is None,
        "a pattern '-v' does not answer within 10 s (rg takes it as an option and reads stdin)",
    )

with Sandbox() as box, Server(box, env=PATH) as s:

    def run(c, **k):
        return s.call("run_command", command=c, **k)

    # SHELL / TRUNCATE
    answer = run("seq 1 50000")
    d.check(
        "TRUNCATE-01",
        len(answer[1]) > 50200,
        f"output is unbounded: {len(answer[1])} characters (TRUNCATE-02 to -05, SHELL-08, "
        "SHELL-12 alike)",
    )
    answer = run("echo before-signal; kill -KILL $$")
    d.check(
        "SHELL-11",
        "[exit_code: -9]" in answer[1],
        "a command killed by SIGKILL answers [exit_code: -9]: no signal named, not 128+9",
        answer,
    )
    answer = run("cat", timeout=8)
    d.check(
        "SHELL-09",
        answer is None,
        "(SHOULD) a command reading stdin does not answer in 8 s (its stdin is the server's)",
    )

with Sandbox() as box, Server(box, env=PATH) as s:
    # SHELL-07: the timeout kills the group with SIGTERM only: a grandchild ignoring it lives on
    answer = s.call(
        "run_command",
        command="sh -c 'trap \"\" TERM; echo $$ > gc.pid; while true; do sleep 0.2; done'"
        " & sleep 60",
        timeout=1,
    )
    time.sleep(3)
    pid = int((box.root / "gc.pid").read_text())
    try:
        os.kill(pid, 0)
        alive = True
        os.kill(pid, 9)  # ours to end: started by this reproduction
    except ProcessLookupError:
        alive = False
    d.check(
        "SHELL-07",
        alive,
        f"(SHOULD) a grandchild ignoring SIGTERM outlives the timeout (pid {pid})",
        answer,
    )
    answer = s.call("run_command", timeout=8, command="sleep 60 & echo started")
    d.check(
        "SHELL-10",
        answer is None,
        "(SHOULD) a background process keeping stdout open holds the call (no answer in 8 s)",
    )

with Sandbox() as box, Server(box, env=PATH) as s:
    # CANCEL-01, -03: a cancelled command goes on, and the server answers nothing meanwhile
    rid = s.start(
        "tools/call",
        {"name": "run_command", "arguments": {"command": "sleep 6; touch after-cancel.txt"}},
    )
    time.sleep(1)
    s.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": rid, "reason": "repro"},
        }
    )
    answer = s.call("run_command", timeout=3, command="echo next")
    d.check(
        "CANCEL-03",
        answer is None,
        "the call after a cancelled command gets no answer while it runs",
    )
    time.sleep(6)
    d.check(
        "CANCEL-01",
        (box.root / "after-cancel.txt").exists(),
        "the cancelled command ran to its end",
    )

    answer = s.call(
        "read_files",
        files=[{"path": "a.txt"}],
        **{f"unknown_argument_{i:03d}": i for i in range(300)},
    )
    d.check(
        "RESULT-07",
        len(answer[1]) > 2000,
        f"(SHOULD) 300 unknown arguments answer {len(answer[1])} characters",
    )
    answer = s.call("read_files", files=[{"path": "missing.txt"}])
    d.check("RESULT-06", True, "(SHOULD) a failure names no next step", answer)
    tools = s.tools()
    d.check(
        "REGISTRY-05",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares its kind",
    )
    d.check(
        "ANNOTATION-04",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares hints",
    )

d.finish()
