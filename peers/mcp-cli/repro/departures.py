"""Every departure of mcp-cli 1.0.5 the kit reported, shown with nothing but Python and the
installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/mcp-cli/repro/departures.py

Every tool takes a workingDirectory (sent as the root, as the profile does). validatePath
(dist/server.js) checks `path.resolve(wd, p).startsWith(wd)` and the same against the allowed
paths: string prefixes, no realpath. Files are written with shelljs' ShellString.to, which
reports a failure through shell.error() and throws nothing: the tool answers success anyway.
Failures are answered as text "Error: ..." in an MCP success (isError is never set).
"""

import json
import os
import time

from mcp_stdio import SECRET, Departures, Sandbox, Server

d = Departures()


def parsed(answer):
    try:
        return json.loads(answer[1])
    except (TypeError, ValueError):
        return {}


with Sandbox() as box, Server(box) as s:
    wd = str(box.root)

    def read(p):
        return s.call("readFile", workingDirectory=wd, path=p)

    def write(p, c):
        return s.call("writeFile", workingDirectory=wd, path=p, content=c)

    def run(c, **k):
        return s.call("executeCommand", workingDirectory=wd, command=c, **k)

    # CONFINE / SYMLINK
    write("../root_evil/new.txt", "x")
    d.check(
        "CONFINE-04",
        (box.sibling / "new.txt").exists(),
        "writeFile ../root_evil/new.txt passes the prefix check",
    )
    answer = s.call("listDirectory", workingDirectory=wd, path=str(box.sibling))
    d.check("CONFINE-13", "new.txt" in answer[1], "listDirectory of the sibling lists it", answer)
    write("new/x/../../../root_evil/x.txt", "x")
    d.check(
        "CONFINE-11",
        (box.sibling / "x.txt").exists(),
        "missing folders, then .. to the sibling: written there (CONFINE-14 too)",
    )
    (box.sibling / "secret.txt").write_text(f"sibling {SECRET}\n")
    s.call(
        "moveFile", workingDirectory=wd, source="../root_evil/secret.txt", destination="moved.txt"
    )
    d.check(
        "CONFINE-16",
        (box.root / "moved.txt").exists(),
        "moveFile ../root_evil/secret.txt moves the sibling's file in",
    )
    answer = write("~/new.txt", "tilde")
    d.check(
        "CONFINE-03",
        '"success": true' in answer[1] and not (box.root / "~" / "new.txt").exists(),
        "writeFile ~/new.txt answers success and writes nothing (no folder '~' in the root: "
        "ShellString.to fails quietly)",
        answer,
    )
    answer = write("a\x00b.txt", "nul")
    d.check(
        "CONFINE-07",
        '"success": true' in answer[1],
        "a path with a NUL byte answers success",
        answer,
    )
    os.symlink(box.outside, box.root / "link_out")
    os.symlink(box.outside / "secret.txt", box.root / "link_out_file")
    os.symlink(box.outside / "created_by_escape.txt", box.root / "dangling_out")
    write("link_out_file", "x")
    d.check(
        "SYMLINK-01",
        (box.outside / "secret.txt").read_text() == "x",
        "a write through a file link out rewrites its target",
    )
    (box.outside / "secret.txt").write_text(f"outside secret {SECRET}\n")
    write("link_out/new.txt", "x")
    d.check(
        "SYMLINK-02",
        (box.outside / "new.txt").exists(),
        "a write through a folder link out lands outside",
    )
    answer = write("link_out/new/dir/f.txt", "x")
    d.check(
        "SYMLINK-03",
        '"success": true' in answer[1] and not (box.outside / "new").exists(),
        "link_out/new/dir/f.txt answers success and writes nothing (no refusal)",
        answer,
    )
    write("link_out/missing/../f.txt", "x")
    d.check(
        "SYMLINK-03",
        (box.outside / "f.txt").exists(),
        "link_out/missing/../f.txt is written outside",
    )
    write("dangling_out", "x")
    d.check(
        "SYMLINK-04",
        (box.outside / "created_by_escape.txt").exists(),
        "a write to a dangling link out creates its target",
    )
    answer = s.call("listDirectory", workingDirectory=wd, path="link_out")
    d.check("SYMLINK-06", "secret.txt" in answer[1], "listDirectory link_out lists outside", answer)
    answer = read("link_out_file")
    d.check(
        "SYMLINK-09", SECRET in answer[1], "a read through a link out answers the secret", answer
    )
    s.call("copyFile", workingDirectory=wd, source="link_out_file", destination="copied.txt")
    d.check(
        "SYMLINK-12",
        SECRET in (box.root / "copied.txt").read_text(),
        "copyFile link_out_file copies the file outside in",
    )
    for name in ("link_out", "link_out_file", "dangling_out"):
        (box.root / name).unlink()
    os.symlink("loop_b", box.root / "loop_a")
    os.symlink("loop_a", box.root / "loop_b")
    answer = write("loop_a", "x")
    d.check(
        "SYMLINK-05",
        '"success": true' in answer[1],
        "a write to a link loop answers success (nothing written)",
        answer,
    )
    os.symlink("gone/new.txt", box.root / "dangling_in")
    answer = write("dangling_in", "x")
    d.check(
        "SYMLINK-11",
        '"success": true' in answer[1] and not (box.root / "gone" / "new.txt").exists(),
        "a write through a dangling link inside answers success and lands nowhere",
        answer,
    )

    # VALIDATE-03, READ, LIST
    answer = s.call("writeFile", workingDirectory=wd, path="v.txt", content="c", Path="y.txt")
    d.check(
        "VALIDATE-03",
        (box.root / "v.txt").exists(),
        "an unknown argument is dropped and the write done",
        answer,
    )
    box.write("blob.bin", b"BINMARK\x00\x01\x02")
    answer = read("blob.bin")
    d.check("READ-04", "BINMARK" in answer[1], "a file with NUL bytes is read as text", answer)
    box.write("big.txt", "0123456789abcde\n" * 20000)
    answer = read("big.txt")
    d.check(
        "READ-05",
        len(parsed(answer).get("data", {}).get("content", "")) >= 320000,
        "a 320,000-byte file comes back whole",
    )
    box.write("empty.txt", "")
    answer = read("empty.txt")
    d.check(
        "READ-09",
        parsed(answer).get("data", {}).get("content") == "",
        "an empty file reads as content '' with nothing saying so",
        answer,
    )
    box.write("words.txt", "one\ntwo\n")
    answer = read("words.txt")
    d.check(
        "READ-07",
        parsed(answer).get("data", {}).get("content") == "one\ntwo\n",
        "(SHOULD) lines come back without numbers",
        answer,
    )
    answer = read("missing.txt")
    answer2 = read(".")
    d.check(
        "RESULT-02",
        answer[1] == answer2[1] == "Error: File does not exist",
        "a missing file and a folder are both 'Error: File does not exist': no code can be read "
        "apart",
        (answer, answer2),
    )
    d.check("RESULT-06", True, "(SHOULD) failures name no next step", answer)
    box.write("sub/b.txt", "b\n")
    answer = s.call("listDirectory", workingDirectory=wd, path="sub")
    d.check(
        "LIST-01", "sub/b.txt" not in answer[1], "names are relative to the folder listed", answer
    )
    for i in range(2600):
        box.write(f"many/{i:06d}-{'n' * 50}.txt", "")
    answer = s.call("listDirectory", workingDirectory=wd, path="many")
    d.check(
        "LIST-04",
        len(answer[1]) > 50200,
        f"a listing of 2,600 names is {len(answer[1])} characters, unbounded",
    )
    answer = write("new.txt", "hello\n")
    d.check("RESULT-05", True, "(SHOULD) a write answers JSON, no summary beside it", answer)
    box.write("f.txt", "old\n")
    write("f.txt", "new\n")
    d.check(
        "EDIT-13",
        (box.root / "f.txt").read_text() == "new\n",
        "(SHOULD) a file never read is overwritten",
    )

    # SHELL / TRUNCATE: shell.exec(`cd "<wd>" && <command>`), no bound, no timeout
    answer = run("seq 1 50000")
    d.check(
        "TRUNCATE-01",
        len(answer[1]) > 50200,
        f"an output of 288,894 characters answers {len(answer[1])} (TRUNCATE-02 to -05, "
        "SHELL-08, SHELL-12 alike)",
    )
    answer = run("echo before-signal; kill -KILL $$")
    d.check(
        "SHELL-11",
        parsed(answer).get("data", {}).get("code") == 0 or parsed(answer).get("success") is True,
        "a command killed by SIGKILL answers success, code 0",
        answer,
    )
    answer = run("cat", timeout=8)
    d.check("SHELL-09", answer is None, "(SHOULD) a command reading stdin does not answer in 8 s")

with Sandbox() as box, Server(box) as s:
    wd = str(box.root)
    start = time.time()
    answer = s.call(
        "executeCommand", timeout=8, workingDirectory=wd, command="sleep 60 & echo started"
    )
    d.check(
        "SHELL-10",
        answer is None,
        "(SHOULD) a background process keeping stdout open holds the call (no answer in 8 s)",
    )

with Sandbox() as box, Server(box) as s:
    wd = str(box.root)
    # SHELL-14: shell.exec has no timeout: a command given none runs past any default
    answer = s.call("executeCommand", timeout=35, workingDirectory=wd, command="sleep 45")
    d.check(
        "SHELL-14",
        answer is None,
        "a command given no timeout is not stopped: `sleep 45` has no answer after 35 s",
    )

with Sandbox() as box, Server(box) as s:
    wd = str(box.root)
    # CANCEL-01 and CANCEL-03: notifications/cancelled stops nothing, and shell.exec is
    # synchronous: the server answers nothing else while the command runs
    rid = s.start(
        "tools/call",
        {
            "name": "executeCommand",
            "arguments": {"workingDirectory": wd, "command": "sleep 6; touch after-cancel.txt"},
        },
    )
    time.sleep(1)
    s.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": rid, "reason": "repro"},
        }
    )
    answer = s.call("readFile", timeout=3, workingDirectory=wd, path="nothing.txt")
    d.check(
        "CANCEL-03",
        answer is None,
        "the next call after a cancelled command gets no answer while that command runs "
        "(shell.exec blocks the server)",
    )
    time.sleep(6)
    d.check(
        "CANCEL-01",
        (box.root / "after-cancel.txt").exists(),
        "the cancelled command ran to its end: after-cancel.txt was made 5 s after the cancel",
    )

with Sandbox() as box, Server(box) as s:
    wd = str(box.root)
    # CANCEL-02: a cancelled write is not stopped; ShellString.to writes as it goes
    box.write("big2.txt", "the old content\n")
    new = "".join(f"line {i} of the new content\n" for i in range(200_000))
    rid = s.start(
        "tools/call",
        {
            "name": "writeFile",
            "arguments": {"workingDirectory": wd, "path": "big2.txt", "content": new},
        },
    )
    s.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": rid, "reason": "repro"},
        }
    )
    s.wait(rid, timeout=30)
    d.check(
        "CANCEL-02",
        (box.root / "big2.txt").read_text() == new,
        "the cancelled write goes on to the end (a cancel the kit lands mid-write finds a "
        "partial file: fs.writeFileSync truncates first)",
    )

    (box.root / "folder").mkdir()
    answer = write("folder", "replaced a folder")
    d.check(
        "EDIT-17",
        '"success": true' in answer[1] and (box.root / "folder").is_dir(),
        "a write to a folder path answers success and writes nothing (shelljs reports the "
        "EISDIR through shell.error(), which no one reads)",
        answer,
    )

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
