"""Every departure of fsguard-mcp 0.1.0 the kit reported, shown with nothing but Python and the
installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/fsguard-mcp/repro/departures.py

Every tool answers JSON in an MCP success (isError false); a failure is {"error": <exception
class>, "message": ...} (the profile's result.failure: an `error` field present).
"""

import json
import os
import time

from mcp_stdio import Departures, Sandbox, Server

d = Departures()
LIMIT = 50_000  # the contract's max_output_chars


def failed(answer) -> bool:
    return answer is not None and (answer[0] or '"error"' in answer[1])


with Sandbox() as box, Server(box) as s:
    # RESULT-08: a refusal names the absolute path outside the root it resolved to
    answer = s.call("fs_read", path="../outside/secret.txt")
    d.check("RESULT-08", answer is not None and str(box.outside) in answer[1],
            "a read of ../outside/secret.txt is refused naming the absolute path outside",
            answer)

    # VALIDATE-03: an unknown argument is dropped and the write happens
    answer = s.call("fs_write", path="x.txt", content="c", Path="y.txt")
    d.check("VALIDATE-03", (box.root / "x.txt").exists() and not failed(answer),
            "fs_write{path, content, Path} writes x.txt and succeeds", answer)

    # CONFINE-14, SYMLINK-04: ESCAPE: a write to a dangling link out creates its target outside
    os.symlink(box.outside / "created_by_escape.txt", box.root / "dangling_out")
    answer = s.call("fs_write", path="dangling_out", content="written through a link\n")
    made = (box.outside / "created_by_escape.txt").exists()
    d.check("SYMLINK-04", made, "ESCAPE: fs_write of a dangling link out creates "
            "outside/created_by_escape.txt", answer)
    (box.outside / "created_by_escape.txt").unlink(missing_ok=True)
    os.symlink(box.outside / "created_by_escape.txt", box.root / "dangling_rel")
    answer = s.call("fs_write", path="./dangling_rel", content="x")
    d.check("CONFINE-14", (box.outside / "created_by_escape.txt").exists(),
            "ESCAPE: the same through './dangling_rel'", answer)
    (box.outside / "created_by_escape.txt").unlink(missing_ok=True)

    # READ-04: a file with NUL bytes is read as text
    box.write("blob.bin", b"BINTOKEN\x00\x01\x02 more")
    answer = s.call("fs_read", path="blob.bin")
    d.check("READ-04", answer is not None and "BINTOKEN" in answer[1] and not failed(answer),
            "a file with NUL bytes is read as text, its bytes returned", answer)

    # READ-05: no size limit: a 1 MB file comes back whole
    box.write("big.txt", "large file line\n" * 65_536)
    answer = s.call("fs_read", path="big.txt")
    d.check("READ-05", answer is not None and len(answer[1]) > 1_000_000,
            f"a 1,048,576-byte file comes back whole ({len(answer[1]) if answer else 0} "
            "characters), no FILE_TOO_LARGE")

    # READ-09: an empty file reads as {"content": ""}, saying nothing
    box.write("empty.txt", "")
    answer = s.call("fs_read", path="empty.txt")
    content = json.loads(answer[1]).get("content") if answer else None
    d.check("READ-09", content == "" and "empty" not in (answer or (0, ""))[1].lower(),
            "an empty file reads as {\"content\": \"\"}, nothing says it is empty", answer)

    # LIST-04: a listing of a huge tree is not bounded
    for number in range(2_600):
        box.write(f"tree/{number:06d}-{'n' * 49}.txt", "")
    answer = s.call("fs_search", pattern="*", path=".")
    d.check("LIST-04", answer is not None and len(answer[1]) > LIMIT + 200,
            f"a listing of 2,600 files comes back whole ({len(answer[1]) if answer else 0} "
            "characters)")
    answer = s.call("fs_list", path="tree")
    d.check("LIST-04", answer is not None and len(answer[1]) > LIMIT + 200,
            f"fs_list of the same folder too ({len(answer[1]) if answer else 0} characters)")

    # LIST-02 (SHOULD): a ** pattern matches nothing (fnmatch on the file's name alone)
    box.write("pkg/mod.py", "")
    answer = s.call("fs_search", pattern="**/*.py", path=".")
    d.check("LIST-02", answer is not None and "pkg/mod.py" not in answer[1],
            "(SHOULD) fs_search '**/*.py' does not find pkg/mod.py", answer)

    # EDIT-13 (SHOULD): an existing file is overwritten without a read first
    box.write("f.txt", "old\n")
    answer = s.call("fs_write", path="f.txt", content="new\n")
    d.check("EDIT-13", (box.root / "f.txt").read_text() == "new\n",
            "(SHOULD) an unread file is overwritten", answer)

    # RESULT-05 (SHOULD): a write answers {"written": path}, no summary beside it
    answer = s.call("fs_write", path="new.txt", content="hello\n")
    d.check("RESULT-05", answer is not None and answer[1].strip().startswith("{")
            and "summary" not in answer[1], "(SHOULD) a write carries no summary", answer)

    # RESULT-06 (SHOULD): a refusal that names nothing to do
    answer = s.call("fs_write", path="a\x00b.txt", content="x")
    d.check("RESULT-06", answer is not None and "embedded null byte" in answer[1],
            "(SHOULD) a NUL in a path answers 'embedded null byte', nothing to do", answer)

    tools = s.tools()
    d.check("REGISTRY-05", not any("kind" in t for t in tools), "(SHOULD) no tool declares a kind")
    d.check("ANNOTATION-04", not any((t.get("annotations") or {}).get("readOnlyHint") is not None
                                     for t in tools), "(SHOULD) no tool declares readOnlyHint")

with Sandbox() as box, Server(box) as s:
    # CONCUR-04: a read while the file is rewritten sees it empty (write_text truncates first)
    content = "".join(f"version line {n}\n" for n in range(400_000))
    box.write("doc.txt", content)
    target, rounds, seen_empty = box.root / "doc.txt", 24, 0
    for _round in range(rounds):
        writing = s.start("tools/call", {"name": "fs_write",
                                         "arguments": {"path": "doc.txt", "content": content}})
        began = time.monotonic()
        while target.stat().st_size != 0 and time.monotonic() - began < 5:
            pass
        reading = s.start("tools/call", {"name": "fs_read", "arguments": {"path": "doc.txt"}})
        answer = s.wait(reading, timeout=30)
        s.wait(writing, timeout=30)
        text = "".join(p.get("text", "") for p in ((answer or {}).get("result") or {}).get(
            "content", []))
        if text and json.loads(text).get("content") == "":
            seen_empty += 1
    d.check("CONCUR-04", seen_empty > 0, f"race: a read during a rewrite answered an empty "
            f"file in {seen_empty} of {rounds} rounds")

with Sandbox() as box, Server(box) as s:
    # CANCEL-02: a write cancelled once the file is truncated leaves it empty or partial
    old = "the old content\n"
    new = "".join(f"line {n} of the new content\n" for n in range(200_000))
    box.write("big.txt", old)
    asked = s.start("tools/call", {"name": "fs_write",
                                   "arguments": {"path": "big.txt", "content": new}})
    target = box.root / "big.txt"
    while target.stat().st_size == len(old):
        time.sleep(0.0005)
    s.cancel(asked)
    held = target.read_bytes()
    d.check("CANCEL-02", held not in (old.encode(), new.encode()),
            f"race: right after the cancellation big.txt holds {len(held)} bytes: neither the "
            f"old {len(old)} nor the new {len(new)}")

with Sandbox() as box, Server(box) as s:
    # READ-10 (SHOULD): a read of a FIFO blocks
    os.mkfifo(box.root / "pipe")
    answer = s.call("fs_read", timeout=5, path="pipe")
    d.check("READ-10", answer is None, "(SHOULD) fs_read of a FIFO has no answer within 5 s")

d.finish()
