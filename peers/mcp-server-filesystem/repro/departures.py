"""The departures that are not escapes, each shown on the installed server alone (the escapes
and the torn read have their own scripts):

- EOL-03..06, EDIT-06: an edit of one line of a CRLF or mixed file writes every line back LF.
- EDIT-02: a wrongly indented oldText still matches (the trimmed line-by-line retry).
- EDIT-03: of two matches, the first is replaced; no multiple-match refusal.
- EDIT-05: an empty oldText inserts newText at the start.
- EDIT-12: "$&" in newText is expanded as a replacement pattern.
- EDIT-18: invalid UTF-8 bytes outside the edit come back as U+FFFD.
- VALIDATE-03: an unknown argument (Path beside path) is ignored and the write succeeds.
- READ-04, READ-05: NUL bytes and a 300 KB file are read and returned whole.
- READ-09: an empty file reads as an empty text.
- READ-10: a read of a FIFO does not answer (3 s).
- LIST-01: a listing of sub names "[FILE] b.txt", not sub/b.txt.
- CONFINE-03: ~/notes.txt is the server's HOME, refused, not the root's own ~ folder.
- RESULT-08: a refusal names the resolved path outside the root.

    python3 departures.py     # exit 1: each departure it shows is printed
"""

import os
import tempfile
import threading
from pathlib import Path

from mcp_stdio import Server

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    (root / "sub").mkdir(parents=True)
    (root / "~").mkdir()
    (root / "~" / "notes.txt").write_text("root's own ~\n")
    (root / "sub" / "b.txt").write_text("b\n")
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    (root / "indent.txt").write_text("    indented line\n")
    (root / "twice.txt").write_text("same\nsame\n")
    (root / "start.txt").write_text("body\n")
    (root / "dollar.txt").write_text("price\n")
    (root / "latin.txt").write_bytes(b"alpha \xe9t\xe9\nbeta\n")
    (root / "blob.bin").write_bytes(b"BIN\x00\x01\x02")
    (root / "big.txt").write_text("x" * 300_000)
    (root / "empty.txt").write_text("")
    os.mkfifo(root / "pipe")
    with Server(root) as server:
        def edit(name: str, old: str, new: str) -> tuple[bool, str]:
            return server.call("edit_file", path=str(root / name), dryRun=False,
                               edits=[{"oldText": old, "newText": new}])

        edit("crlf.txt", "one", "uno")
        if (root / "crlf.txt").read_bytes() != b"uno\r\ntwo\r\n":
            seen.append(f"EOL-03..06: a CRLF file came back {(root / 'crlf.txt').read_bytes()!r}")
        failed, _ = edit("indent.txt", "indented line", "changed")
        if not failed:
            seen.append("EDIT-02: a wrongly indented oldText matched: "
                        f"{(root / 'indent.txt').read_text()!r}")
        failed, _ = edit("twice.txt", "same", "other")
        if not failed:
            seen.append(f"EDIT-03: of two matches one was replaced: "
                        f"{(root / 'twice.txt').read_text()!r}")
        failed, _ = edit("start.txt", "", "inserted ")
        if not failed:
            seen.append(f"EDIT-05: an empty oldText edited: {(root / 'start.txt').read_text()!r}")
        edit("dollar.txt", "price", "$& 10 $$")
        if (root / "dollar.txt").read_text() != "$& 10 $$\n":
            seen.append(f"EDIT-12: newText was expanded: {(root / 'dollar.txt').read_text()!r}")
        edit("latin.txt", "beta", "gamma")
        if b"\xe9" not in (root / "latin.txt").read_bytes():
            seen.append(f"EDIT-18: bytes outside the edit changed: "
                        f"{(root / 'latin.txt').read_bytes()!r}")
        failed, _ = server.call("write_file", path=str(root / "w.txt"), content="x",
                                Path=str(root / "other.txt"))
        if not failed:
            seen.append("VALIDATE-03: an unknown argument was ignored and the write succeeded")
        failed, text = server.call("read_file", path=str(root / "blob.bin"))
        if not failed and "BIN" in text:
            seen.append("READ-04: a file with NUL bytes was read and returned")
        failed, text = server.call("read_file", path=str(root / "big.txt"))
        if not failed and len(text) >= 300_000:
            seen.append(f"READ-05: a file of 300 KB came back whole ({len(text)} characters)")
        failed, text = server.call("read_file", path=str(root / "empty.txt"))
        if not failed and (not text.strip() or '"text": ""' in text):  # no text at all
            seen.append("READ-09: an empty file read as an empty text, saying nothing")
        _, text = server.call("list_directory", path=str(root / "sub"))
        if "sub/b.txt" not in text:
            seen.append(f"LIST-01: a listing of sub names {text!r}, not sub/b.txt")
        failed, text = server.call("read_file", path="~/notes.txt")
        if "root's own ~" not in text:
            seen.append(f"CONFINE-03: ~/notes.txt was not the root's ~ folder: {text[:80]!r}")
        _, text = server.call("read_file", path=str(root / ".." / "elsewhere.txt"))
        if base in text.replace(str(root), ""):
            seen.append(f"RESULT-08: a refusal names a path outside the root: {text[:90]!r}")
        answered = threading.Event()

        def read_fifo() -> None:
            server.call("read_file", path=str(root / "pipe"))
            answered.set()

        threading.Thread(target=read_fifo, daemon=True).start()
        if not answered.wait(3):
            seen.append("READ-10: a read of a FIFO did not answer within 3 s")
            with open(root / "pipe", "w"):
                pass
            answered.wait(3)
for line in seen:
    print("DEPARTS: " + line)
raise SystemExit(1 if seen else 0)
