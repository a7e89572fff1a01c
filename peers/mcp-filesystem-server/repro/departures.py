"""Every departure of mcp-filesystem-server 1.0.3 the kit reported, shown with nothing but
Python and the installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/mcp-filesystem-server/repro/departures.py
"""

import os
import tempfile
import time
from pathlib import Path

from mcp_stdio import SECRET, Departures, Sandbox, Server

d = Departures()

with Sandbox() as box, Server(box) as s:
    # CONFINE-01/02/04/05, CONFINE-03, CONFINE-08, CONFINE-13, CONFINE-17: no confinement at all
    s.call("write_file", path="../escape.txt", content="x")
    d.check(
        "CONFINE-01",
        (box.base / "escape.txt").exists(),
        "write_file ../escape.txt lands beside the root",
    )
    s.call("write_file", path=str(box.outside / "new.txt"), content="x")
    d.check(
        "CONFINE-02",
        (box.outside / "new.txt").exists(),
        "write_file of an absolute path outside writes it",
    )
    answer = s.call("read_file", path="~/.ssh/authorized_keys")
    d.check(
        "CONFINE-03",
        SECRET in answer[1],
        "read_file ~/.ssh/authorized_keys reads HOME's file",
        answer,
    )
    s.call("write_file", path=str(box.sibling / "new.txt"), content="x")
    d.check(
        "CONFINE-04",
        (box.sibling / "new.txt").exists(),
        "write_file into the sibling <root>_evil writes it",
    )
    (box.root / "a").mkdir()
    s.call("write_file", path="a/../../escape2.txt", content="x")
    d.check("CONFINE-05", (box.base / "escape2.txt").exists(), "a/../../escape2.txt lands outside")
    s.call("write_file", path="missing/deeper/../../../evil.txt", content="x")
    d.check(
        "CONFINE-11",
        (box.base / "evil.txt").exists(),
        "missing/deeper/../../../evil.txt lands outside (CONFINE-14: any path that leads out does)",
    )
    s.call(
        "edit_file",
        path="../outside/secret.txt",
        edits=[{"oldText": "outside", "newText": "edited"}],
        dryRun=False,
    )
    d.check(
        "CONFINE-12",
        (box.outside / "secret.txt").read_text().startswith("edited"),
        "edit_file ../outside/secret.txt edits it",
    )
    (box.outside / "secret.txt").write_text(f"outside secret {SECRET}\n")
    answer = s.call("read_file", path="/etc/passwd")
    d.check("CONFINE-08", "root:" in answer[1], "read_file /etc/passwd answers it", answer)
    answer = s.call("list_directory", path="../outside")
    d.check("CONFINE-13", "secret.txt" in answer[1], "list_directory ../outside lists it", answer)
    answer = s.call("search_files", path="../outside", pattern="secret", searchContents=True)
    d.check(
        "RESULT-08",
        str(box.base) in answer[1],
        "search_files ../outside answers absolute paths outside the root",
        answer,
    )
    outer = Path(tempfile.mkdtemp(prefix="repro-outer-", dir="/tmp"))
    s.call("write_file", path=str(outer / "new.txt"), content="x")
    d.check(
        "CONFINE-17",
        (outer / "new.txt").exists(),
        f"write_file {outer}/new.txt writes in the system's /tmp",
    )
    (outer / "new.txt").unlink(missing_ok=True)
    outer.rmdir()
    # CONFINE-16 / SYMLINK-12: path tools too
    s.call("move_file", source="../outside/secret.txt", destination="moved.txt")
    d.check(
        "CONFINE-16",
        (box.root / "moved.txt").exists() and not (box.outside / "secret.txt").exists(),
        "move_file ../outside/secret.txt moves the file out of outside/",
    )
    (box.root / "moved.txt").rename(box.outside / "secret.txt")

    # SYMLINK-01/02/03/04/06/07/09/10: links out are followed
    os.symlink(box.outside, box.root / "link_out")
    os.symlink(box.outside / "secret.txt", box.root / "link_out_file")
    os.symlink(box.outside / "created_by_escape.txt", box.root / "dangling_out")
    s.call("write_file", path="link_out_file", content="x")
    d.check(
        "SYMLINK-01",
        (box.outside / "secret.txt").read_text() == "x",
        "a write through a file link out rewrites its target",
    )
    (box.outside / "secret.txt").write_text(f"outside secret {SECRET}\n")
    s.call("write_file", path="link_out/new2.txt", content="x")
    d.check(
        "SYMLINK-02",
        (box.outside / "new2.txt").exists(),
        "a write through a folder link out lands outside",
    )
    answer = s.call("write_file", path="link_out/new/dir/f.txt", content="x")
    d.check(
        "SYMLINK-03",
        "부모 디렉토리가 존재하지 않습니다" in answer[1],
        "link_out/new/dir/f.txt is refused as a missing parent folder (NOT_FOUND), never as "
        "outside",
        answer,
    )
    s.call("write_file", path="link_out/missing/../f.txt", content="x")
    d.check(
        "SYMLINK-03",
        (box.outside / "f.txt").exists(),
        "link_out/missing/../f.txt is written outside (.. taken lexically, then the link followed)",
    )
    s.call("write_file", path="dangling_out", content="x")
    d.check(
        "SYMLINK-04",
        (box.outside / "created_by_escape.txt").exists(),
        "a write to a dangling link out creates its target outside",
    )
    answer = s.call("list_directory", path="link_out")
    d.check(
        "SYMLINK-06", "secret.txt" in answer[1], "list_directory link_out lists outside", answer
    )
    answer = s.call("search_files", path="link_out", pattern="secret", searchContents=True)
    d.check(
        "SYMLINK-07", "secret.txt" in answer[1], "search_files link_out searches outside", answer
    )
    answer = s.call("read_file", path="link_out_file")
    d.check(
        "SYMLINK-09", SECRET in answer[1], "read_file through a link out answers the secret", answer
    )
    s.call(
        "edit_file",
        path="link_out/secret.txt",
        edits=[{"oldText": "outside", "newText": "edited"}],
        dryRun=False,
    )
    d.check(
        "SYMLINK-10",
        (box.outside / "secret.txt").read_text().startswith("edited"),
        "edit_file through a link out edits outside",
    )
    for name in ("link_out", "link_out_file", "dangling_out"):
        (box.root / name).unlink()

    # EDIT and EOL: applyFileEdits
    def edit(rel, before, old, new):
        box.write(rel, before)
        answer = s.call(
            "edit_file", path=rel, edits=[{"oldText": old, "newText": new}], dryRun=False
        )
        return answer, (box.root / rel).read_bytes()

    answer, after = edit("e1.txt", "x = 1\nx = 1\n", "x = 1", "y")
    d.check(
        "EDIT-03",
        not answer[0] and after == b"y\nx = 1\n",
        "an old text found twice: the first is replaced, no failure",
        answer,
    )
    answer, after = edit("e2.txt", "    indented\n", "  indented", "x")
    d.check(
        "EDIT-02",
        not answer[0],
        "an old text with the wrong indentation is matched line by line, trimmed",
        after,
    )
    answer, after = edit("e3.txt", "body\n", "", "inserted")
    d.check(
        "EDIT-05",
        after == b"insertedbody\n",
        "an empty old text inserts new text at the start",
        after,
    )
    answer, after = edit("e4.txt", "price: X\n", "X", "$1 $& $$ $'")
    d.check(
        "EDIT-12",
        after != b"price: $1 $& $$ $'\n",
        "new text goes through String.replace's $ patterns",
        after,
    )
    answer, after = edit("e5.txt", b"alpha\r\nbeta\r\ngamma\r\n", "beta", "BETA")
    d.check(
        "EOL-01", after == b"alpha\nBETA\ngamma\n", "a CRLF file comes back LF after an edit", after
    )
    answer, after = edit("e6.txt", b"a\r\nb\nc\r\nd\n", "c", "C")
    d.check("EOL-03", b"\r\n" not in after, "a mixed file's other lines lose their CR", after)
    answer, after = edit("e6b.txt", b"keep\r\nx\r\n", "x", "y")
    d.check(
        "EOL-06",
        after == b"keep\ny\n",
        "bytes outside the replaced span change (every CRLF)",
        after,
    )
    answer, after = edit("e7.txt", b"same\r\nline\r\n", "same", "same")
    d.check("EDIT-06", after == b"same\nline\n", "a no-op edit rewrites CRLF as LF", after)
    answer, after = edit("e8.bin", b"alpha \xff\xfe\x00 tail\n", "alpha", "omega")
    d.check(
        "EDIT-18",
        after != b"alpha \xff\xfe\x00 tail\n",
        "an edit of a file that is not UTF-8 rewrites it with U+FFFD",
        after,
    )
    answer, after = edit("e9.txt", "it\u2019s here\n", "it's here", "it is here")
    d.check("EDIT-07", answer[0], "(SHOULD) straight quotes do not match curly ones", answer)
    answer, after = edit("e10.txt", "a\nb\n", "b", "c")
    d.check(
        "EDIT-10",
        True,
        "(SHOULD) the diff is in the answer's text, fenced; MCP has no diff field",
        answer,
    )
    box.write("e11.txt", "one\n")
    answer = s.call("write_file", path="e11.txt", content="two\n")
    d.check("RESULT-05", True, "(SHOULD) a write answers one text, no summary beside it", answer)
    answer, after = edit("e12.txt", b"one\r\ntwo\r\nthree\r\n", "two\nthree", "2\n3")
    d.check(
        "EOL-07",
        after.replace(b"\r\n", b"\n") != b"one\n2\n3\n",
        "(SHOULD) an LF old text matches CRLF lines (the file coming back LF is EOL-01's)",
        after,
    )

    # READ
    box.write("blob.bin", b"BINMARK\x00\x01\x02")
    answer = s.call("read_file", path="blob.bin")
    d.check(
        "READ-04",
        not answer[0] and "BINMARK" in answer[1],
        "a file with NUL bytes is read as text",
        answer,
    )
    box.write("big.txt", "0123456789abcde\n" * 20000)
    answer = s.call("read_file", path="big.txt")
    d.check(
        "READ-05",
        not answer[0] and len(answer[1]) >= 320000,
        f"a 320,000-byte file comes back whole ({len(answer[1])} characters)",
    )
    box.write("empty.txt", "")
    answer = s.call("read_file", path="empty.txt")
    d.check(
        "READ-09", answer == (False, ""), "an empty file reads as '' with nothing saying so", answer
    )
    box.write("words.txt", "one\ntwo\n")
    answer = s.call("read_file", path="words.txt")
    d.check(
        "READ-07", answer[1] == "one\ntwo\n", "(SHOULD) lines come back without numbers", answer
    )
    os.mkfifo(box.root / "fifo")
    d.check(
        "READ-10",
        s.call("read_file", timeout=3, path="fifo") is None,
        "(SHOULD) a read of a FIFO does not answer within 3 s",
    )

with Sandbox() as box, Server(box) as s:  # a fresh server: the FIFO read above still hangs
    # GREP: a name-or-content substring search answering file paths
    box.write("src/hay.txt", "a\nb\nc\nd\nneedle here\n")
    answer = s.call("search_files", path=".", pattern="needle", searchContents=True)
    d.check(
        "GREP-01",
        ":5" not in answer[1] and "needle here" not in answer[1],
        "a match is answered as a file path, no line number, no line",
        answer,
    )
    box.write("dash.txt", "uses -e here\n")
    answer = s.call("search_files", path=".", pattern="-e", searchContents=True)
    # GREP-03 is not this server's: the kit's check wants the line echoed (GREP-01's subject)
    d.check(
        "GREP-03",
        "dash.txt" not in answer[1],
        "'-e' is searched for as text: the file holding it is found",
        answer,
    )
    answer = s.call("search_files", path=".", pattern="(unclosed", searchContents=True)
    d.check(
        "GREP-06",
        not answer[0],
        "(SHOULD) the pattern is a substring: an invalid regex is no failure",
        answer,
    )
    box.write("one.txt", "hit\n")
    answer = s.call("search_files", path="one.txt", pattern="hit", searchContents=True)
    d.check("GREP-08", "one.txt" not in answer[1], "(SHOULD) a file as path finds nothing", answer)
    answer = s.call("search_files", path="nope", pattern="hit", searchContents=True)
    d.check(
        "GREP-08",
        not answer[0],
        "(SHOULD) a missing path answers 'No matches found', no NOT_FOUND",
        answer,
    )

    # LIST
    box.write("sub/b.txt", "b\n")
    answer = s.call("list_directory", path="sub")
    d.check(
        "LIST-01", "sub/b.txt" not in answer[1], "names are relative to the folder listed", answer
    )
    for i in range(2600):
        box.write(f"many/{i:06d}-{'n' * 50}.txt", "")
    answer = s.call("list_directory", path="many")
    d.check(
        "LIST-04",
        len(answer[1]) > 50200,
        f"a listing of 2,600 names is {len(answer[1])} characters, unbounded",
    )

    # VALIDATE-03: zod strips unknown arguments
    answer = s.call("write_file", path="v.txt", content="c", Path="y.txt")
    d.check(
        "VALIDATE-03",
        (box.root / "v.txt").exists(),
        "an unknown argument is dropped and the write done",
        answer,
    )

    # REGISTRY-05, ANNOTATION-04: no annotations
    tools = s.tools()
    d.check(
        "ANNOTATION-04",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares hints",
    )
    d.check(
        "REGISTRY-05",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares its kind (no readOnlyHint)",
    )
    answer = s.call("list_directory", path="sub/b.txt")
    d.check("RESULT-06", "ENOTDIR" in answer[1], "(SHOULD) a failure names no next step", answer)

    # CONCUR-01: edits read, replace and write back without a lock: concurrent edits are lost
    lines = [f"slot-{i:02d}: old" for i in range(10)]
    lost = 0
    for _attempt in range(5):
        box.write("c.txt", "\n".join(lines) + "\n")
        ids = [
            s.start(
                "tools/call",
                {
                    "name": "edit_file",
                    "arguments": {
                        "path": "c.txt",
                        "dryRun": False,
                        "edits": [
                            {"oldText": f"slot-{i:02d}: old", "newText": f"slot-{i:02d}: new"}
                        ],
                    },
                },
            )
            for i in range(10)
        ]
        for i in ids:
            s.wait(i)
        lost += (box.root / "c.txt").read_text().count(": old")
    d.check("CONCUR-01", lost > 0, f"10 concurrent edits of one file, 5 times: {lost} edits lost")

    # CONCUR-04: writeFile truncates, then writes: a read meanwhile sees an empty or partial file
    versions = {("a" * 400_000 + "\n"), ("b" * 400_000 + "\n")}
    box.write("doc.txt", "a" * 400_000 + "\n")
    torn = 0
    for round_ in range(20):
        ids = [
            s.start(
                "tools/call",
                {
                    "name": "write_file",
                    "arguments": {"path": "doc.txt", "content": "ab"[round_ % 2] * 400_000 + "\n"},
                },
            )
        ]
        ids += [
            s.start("tools/call", {"name": "read_file", "arguments": {"path": "doc.txt"}})
            for _ in range(8)
        ]
        for i in ids[1:]:
            answer = s.wait(i) or {}
            text = "".join(
                p.get("text", "") for p in (answer.get("result") or {}).get("content", [])
            )
            torn += text not in versions
        s.wait(ids[0])
    d.check("CONCUR-04", torn > 0, f"reads during writes: {torn} of 160 saw neither version whole")

with Sandbox() as box, Server(box) as s:
    # CANCEL-02/03: a cancelled write goes on; it truncates first
    box.write("big2.txt", "the old content\n")
    new = "".join(f"line {i} of the new content\n" for i in range(200_000))
    rid = s.start(
        "tools/call", {"name": "write_file", "arguments": {"path": "big2.txt", "content": new}}
    )
    sizes = set()
    deadline = time.time() + 10
    cancelled = False
    while time.time() < deadline:
        size = (box.root / "big2.txt").stat().st_size
        sizes.add(size)
        if not cancelled and size not in (16,):
            s.send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": {"requestId": rid, "reason": "repro"},
                }
            )
            cancelled = True
            s.call("write_file", path="big2.txt", content="written after the cancel\n")
        if size == len(new) or (cancelled and time.time() > deadline - 8):
            break
    time.sleep(2)
    partial = [x for x in sizes if x not in (16, len(new), len("written after the cancel\n"))]
    d.check(
        "CANCEL-02",
        bool(partial) or 0 in sizes,
        f"while the write runs the file holds {sorted(sizes)[:6]} bytes, neither old nor new",
    )
    final = (box.root / "big2.txt").read_bytes()
    d.check(
        "CANCEL-03",
        final != b"written after the cancel\n",
        f"a write after the cancel is overwritten by the cancelled one: {len(final)} bytes, "
        f"starting {final[:30]!r}",
    )

d.finish()
