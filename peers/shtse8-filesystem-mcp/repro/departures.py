"""Every departure of @shtse8/filesystem-mcp 0.5.8 the kit reported, shown with nothing but
Python and the installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/shtse8-filesystem-mcp/repro/departures.py

Every tool takes a list (paths, items, operations) and answers a JSON list with an item per
path; a failed item carries an `error` field inside an MCP success.
"""

import json
import os
import subprocess
import time

from mcp_stdio import SECRET, Departures, Sandbox, Server, command

d = Departures()


def items(answer):
    try:
        return json.loads(answer[1])
    except (TypeError, ValueError):
        return answer


with Sandbox() as box, Server(box) as s:

    def read(p):
        return s.call("read_content", paths=[p])

    def write(p, c):
        return s.call("write_content", items=[{"path": p, "content": c}])

    def edit(p, o, n):
        return s.call("replace_content", paths=[p], operations=[{"search": o, "replace": n}])

    # CONFINE: resolvePath checks resolved.startsWith(PROJECT_ROOT): a string prefix, no realpath
    write("../root_evil/new.txt", "x")
    d.check(
        "CONFINE-04",
        (box.sibling / "new.txt").exists(),
        "write_content ../root_evil/new.txt passes the prefix check",
    )
    write("new/x/../../../root_evil/x.txt", "x")
    d.check(
        "CONFINE-11",
        (box.sibling / "x.txt").exists(),
        "missing folders then .. to the sibling: written there (CONFINE-14 too)",
    )
    (box.sibling / "secret.txt").write_text(f"sibling secret {SECRET}\n")
    answer = read("../root_evil/secret.txt")
    d.check(
        "CONFINE-12",
        SECRET in answer[1],
        "the sibling's file is read (and edited: replace_content below)",
        answer,
    )
    edit("../root_evil/secret.txt", "sibling", "edited")
    d.check(
        "CONFINE-12",
        (box.sibling / "secret.txt").read_text().startswith("edited"),
        "replace_content ../root_evil/secret.txt edits it",
    )
    answer = s.call("list_files", path="../root_evil")
    d.check(
        "CONFINE-13", "secret.txt" in answer[1], "list_files ../root_evil lists the sibling", answer
    )
    answer = s.call("list_files", path=str(box.home / ".ssh"))
    d.check(
        "CONFINE-13",
        "-32602" in answer[1],
        "an absolute path outside is refused as invalid params (-32602), not as outside",
        answer,
    )
    box.write("inside.txt", "absolute-ok\n")
    answer = read(str(box.root / "inside.txt"))
    d.check(
        "CONFINE-10",
        "Absolute paths are not allowed" in answer[1],
        "an absolute path inside the root is refused (an error item)",
        answer,
    )
    answer = s.call("list_files", path=str(box.root))
    d.check("CONFINE-15", answer[0], "the root by its absolute path cannot be listed", answer)
    s.call(
        "move_items", operations=[{"source": "../root_evil/secret.txt", "destination": "moved.txt"}]
    )
    d.check(
        "CONFINE-16",
        (box.root / "moved.txt").exists(),
        "move_items ../root_evil/secret.txt moves the sibling's file into the root",
    )
    answer = edit("../outside/secret.txt", "x", "pwned")
    d.check(
        "RESULT-08",
        str(box.base) in answer[1],
        "a refusal quotes the absolute paths outside the root",
        answer,
    )

    # SYMLINK: no realpath anywhere: links out are followed
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
    write("link_out/new/dir/f.txt", "x")
    d.check(
        "SYMLINK-03",
        (box.outside / "new" / "dir" / "f.txt").exists(),
        "link_out/new/dir/f.txt: the folders and the file are made outside",
    )
    write("dangling_out", "x")
    d.check(
        "SYMLINK-04",
        (box.outside / "created_by_escape.txt").exists(),
        "a write to a dangling link out creates its target",
    )
    answer = s.call("list_files", path="link_out")
    d.check("SYMLINK-06", "secret.txt" in answer[1], "list_files link_out lists outside", answer)
    answer = s.call("search_files", path="link_out", regex="secret")
    d.check("SYMLINK-07", SECRET in answer[1], "search_files link_out searches outside", answer)
    answer = read("link_out_file")
    d.check(
        "SYMLINK-09", SECRET in answer[1], "a read through a link out answers the secret", answer
    )
    edit("link_out/secret.txt", "outside", "edited")
    d.check(
        "SYMLINK-10",
        (box.outside / "secret.txt").read_text().startswith("edited"),
        "an edit through a link out edits outside",
    )
    s.call(
        "move_items", operations=[{"source": "link_out/secret.txt", "destination": "moved2.txt"}]
    )
    d.check(
        "SYMLINK-12",
        (box.root / "moved2.txt").exists(),
        "move_items link_out/secret.txt moves the file out of outside/",
    )
    for name in ("link_out", "link_out_file", "dangling_out"):
        (box.root / name).unlink()

    # EDIT / EOL: replace_content is a global String.replace of an escaped RegExp
    def edited(rel, before, old, new):
        box.write(rel, before)
        answer = edit(rel, old, new)
        return answer, (box.root / rel).read_bytes()

    answer, after = edited("e1.txt", "alpha\n", "absent", "x")
    d.check(
        "EDIT-02",
        not answer[0] and "error" not in answer[1].replace('"error"', "", 0) and b"alpha" in after,
        "an old text that is not there answers success, 0 replacements, no error",
        answer,
    )
    d.check(
        "RESULT-03",
        False,
        "(kit) no failure to judge: RESULT-03's case fails on EDIT-02's success above",
    )
    answer, after = edited("e2.txt", "x = 1\nx = 1\n", "x = 1", "y")
    d.check("EDIT-03", after == b"y\ny\n", "every occurrence is replaced, no failure", after)
    answer, after = edited("e3.txt", "body\n", "", "inserted")
    d.check(
        "EDIT-05",
        after != b"body\n",
        "an empty old text inserts new text between every character",
        after,
    )
    answer, after = edited("e4.txt", "price: X\n", "X", "$1 $& $$ $'")
    d.check(
        "EDIT-12",
        after != b"price: $1 $& $$ $'\n",
        "new text goes through String.replace's $ patterns",
        after,
    )
    answer, after = edited("e5.txt", b"alpha\r\nbeta\r\ndelta\r\n", "beta", "beta\ngamma")
    d.check(
        "EOL-01",
        after == b"alpha\r\nbeta\ngamma\r\ndelta\r\n",
        "lines new text adds to a CRLF file end in LF",
        after,
    )
    answer, after = edited("e6.txt", b"one\r\ntwo\r\nthree\r\n", "two\nthree", "2\n3")
    d.check(
        "EOL-07",
        after == b"one\r\ntwo\r\nthree\r\n",
        "(SHOULD) an LF old text does not match CRLF lines",
        after,
    )
    answer, after = edited("e7.bin", b"alpha \xff\xfe\x00 tail\n", "alpha", "omega")
    d.check(
        "EDIT-18",
        after != b"alpha \xff\xfe\x00 tail\n",
        "an edit of a file that is not UTF-8 rewrites it with U+FFFD",
        after,
    )
    answer, after = edited("e8.txt", "it\u2019s here\n", "it's here", "it is here")
    d.check(
        "EDIT-07",
        "it is here" not in after.decode(),
        "(SHOULD) straight quotes do not match curly ones",
        after,
    )
    d.check(
        "EDIT-10",
        "diff" not in answer[1],
        "(SHOULD) an edit answers {message, results}: no diff",
        answer,
    )
    answer = write("w.txt", "x")
    d.check("RESULT-05", True, "(SHOULD) a write answers a JSON list, no summary beside it", answer)

    # READ
    box.write("blob.bin", b"BINMARK\x00\x01\x02")
    answer = read("blob.bin")
    d.check("READ-04", "BINMARK" in answer[1], "a file with NUL bytes is read as text", answer)
    box.write("big.txt", "0123456789abcde\n" * 20000)
    answer = read("big.txt")
    d.check(
        "READ-05",
        len(answer[1]) > 320000,
        f"a 320,000-byte file comes back whole ({len(answer[1])} characters of JSON)",
    )
    box.write("empty.txt", "")
    answer = read("empty.txt")
    d.check(
        "READ-09",
        items(answer)[0].get("content") == "",
        "an empty file reads as content '' with nothing saying so",
        answer,
    )
    box.write("words.txt", "one\ntwo\n")
    answer = read("words.txt")
    d.check(
        "READ-07",
        items(answer)[0].get("content") == "one\ntwo\n",
        "(SHOULD) lines come back without numbers",
        answer,
    )
    answer = read("sub-missing")
    d.check("RESULT-06", True, "(SHOULD) a failure names no next step", answer)

    # GREP: a glob over the folder's own files ('*'), lines with two lines of context
    box.write("src/hay.txt", "a\nb\nc\nd\nneedle here\n")
    answer = s.call("search_files", regex="needle")
    d.check(
        "GREP-01",
        "hay.txt" not in answer[1],
        "with the default file_pattern '*' a file in a subfolder is never searched",
        answer,
    )
    box.write("text.txt", "needle\n")
    box.write("blob2.bin", b"needle BINMARK\x00\x01")
    answer = s.call("search_files", regex="needle")
    d.check(
        "GREP-04",
        "BINMARK" in answer[1],
        "a binary file's bytes come back in the context lines",
        answer,
    )
    box.write(
        "big/big.txt", "needle " + "z" * 60 + "\n" * 1 + ("needle " + "z" * 60 + "\n") * 20000
    )
    answer = s.call("search_files", path="big", regex="needle")
    d.check(
        "GREP-05",
        len(answer[1]) > 50200,
        f"a search matching 20,001 lines answers {len(answer[1])} characters, unbounded",
    )
    box.write("docs/a.md", "hit\n")
    answer = s.call("search_files", regex="hit", file_pattern="*.md")
    d.check(
        "GREP-07",
        "a.md" not in answer[1],
        "(SHOULD) file_pattern '*.md' finds nothing in a subfolder",
        answer,
    )
    box.write("one.txt", "hit\n")
    answer = s.call("search_files", path="one.txt", regex="hit")
    d.check("GREP-08", "one.txt" not in answer[1], "(SHOULD) a file as path finds nothing", answer)
    answer = s.call("search_files", path="nope", regex="hit")
    d.check(
        "GREP-08",
        not answer[0] and answer[1].strip() == "[]",
        "(SHOULD) a missing path answers [], no NOT_FOUND",
        answer,
    )

    # LIST-04
    for i in range(2600):
        box.write(f"tree/{i:06d}-{'n' * 50}.txt", "")
    answer = s.call("list_files", path="tree")
    d.check(
        "LIST-04",
        len(answer[1]) > 50200,
        f"a listing of 2,600 names is {len(answer[1])} characters, unbounded",
    )

    # RESULT-07, REGISTRY-05, ANNOTATION-04
    answer = s.call(
        "read_content", paths=["a.txt"], **{f"unknown_argument_{i:03d}": i for i in range(300)}
    )
    d.check(
        "RESULT-07",
        len(answer[1]) > 2000,
        f"(SHOULD) 300 unknown arguments answer {len(answer[1])} characters",
        answer,
    )
    tools = s.tools()
    d.check(
        "REGISTRY-05",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares its kind (no annotations)",
    )
    d.check(
        "ANNOTATION-04",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares hints",
    )

    # CONCUR-01: replace_content reads, replaces, writes back with no lock
    lost = 0
    for _ in range(5):
        box.write("c.txt", "".join(f"slot-{i:02d}: old\n" for i in range(10)))
        ids = [
            s.start(
                "tools/call",
                {
                    "name": "replace_content",
                    "arguments": {
                        "paths": ["c.txt"],
                        "operations": [
                            {"search": f"slot-{i:02d}: old", "replace": f"slot-{i:02d}: new"}
                        ],
                    },
                },
            )
            for i in range(10)
        ]
        for i in ids:
            s.wait(i)
        lost += (box.root / "c.txt").read_text().count(": old")
    d.check("CONCUR-01", lost > 0, f"10 concurrent edits of one file, 5 times: {lost} lost")

    # CONCUR-04: writeFile truncates, then writes
    whole = {"1" * 400_000, "2" * 400_000}
    box.write("doc.txt", "1" * 400_000)
    torn = 0
    for round_ in range(20):
        ids = [
            s.start(
                "tools/call",
                {
                    "name": "write_content",
                    "arguments": {
                        "items": [{"path": "doc.txt", "content": "12"[round_ % 2] * 400_000}]
                    },
                },
            )
        ]
        ids += [
            s.start("tools/call", {"name": "read_content", "arguments": {"paths": ["doc.txt"]}})
            for _ in range(8)
        ]
        for i in ids[1:]:
            answer = s.wait(i) or {}
            text = "".join(
                p.get("text", "") for p in (answer.get("result") or {}).get("content", [])
            )
            try:
                torn += json.loads(text)[0].get("content") not in whole
            except (ValueError, IndexError, AttributeError):
                torn += 1
        s.wait(ids[0])
    d.check("CONCUR-04", torn > 0, f"reads during writes: {torn} of 160 saw neither version whole")

with Sandbox() as box, Server(box) as s:
    # CANCEL-02: notifications/cancelled stops nothing, and writeFile truncates first
    box.write("big2.txt", "the old content\n")
    new = "".join(f"line {i} of the new content\n" for i in range(200_000))
    rid = s.start(
        "tools/call",
        {"name": "write_content", "arguments": {"items": [{"path": "big2.txt", "content": new}]}},
    )
    s.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": rid, "reason": "repro"},
        }
    )
    sizes = set()
    deadline = time.time() + 10
    while time.time() < deadline:
        sizes.add((box.root / "big2.txt").stat().st_size)
        if len(new) in sizes:
            break
    d.check(
        "CANCEL-02",
        (box.root / "big2.txt").read_text() == new,
        f"the cancelled write is not stopped (sizes seen {sorted(sizes)[:5]}): it goes on to the "
        "end, "
        "and as CONCUR-04 shows it truncates first, so a cancel the kit lands mid-write finds a "
        "partial file",
    )

with Sandbox() as box, Server(box) as s:
    # CANCEL-03: the cancelled write goes on and overwrites a write made after the cancel
    box.write("big3.txt", "the old content\n")
    new = "".join(f"line {i} of the new content\n" for i in range(200_000))
    rid = s.start(
        "tools/call",
        {"name": "write_content", "arguments": {"items": [{"path": "big3.txt", "content": new}]}},
    )
    s.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": rid, "reason": "repro"},
        }
    )
    after = s.start(
        "tools/call",
        {
            "name": "write_content",
            "arguments": {"items": [{"path": "big3.txt", "content": "written after the cancel\n"}]},
        },
    )
    s.wait(after)
    time.sleep(3)
    final = (box.root / "big3.txt").read_bytes()
    d.check(
        "CANCEL-03",
        final != b"written after the cancel\n",
        f"a write sent after the cancel does not stay: the file holds {len(final)} bytes, "
        f"starting {final[:26]!r} (a race: the two writes interleave)",
    )

# RESULT-09: a log line on stdout at import
with Sandbox() as box:
    done = subprocess.run(
        command(box.root), input="", capture_output=True, text=True, cwd=box.root, timeout=30
    )
    d.check(
        "RESULT-09",
        "Project Root determined from CWD" in done.stdout,
        "stdout carries a log line before any message",
        done.stdout.splitlines()[:1],
    )

d.finish()
