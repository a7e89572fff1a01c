"""Edit's own departures, each on a file in its working folder:

- EOL-03: a file of mixed line endings comes back with one kind (Claude Code reads the file,
  normalises its endings to the first one it sees, and writes every line back with it): an edit
  of one line of "a\\r\\nb\\nc\\r\\nd\\n" rewrites the endings of the lines it did not touch.
- EOL-06: an empty new_string deletes old_string's line ending too when old_string is a line
  without one ("«»\\nend" with old_string "«»" becomes "end", not "\\nend").
- EDIT-05: an empty old_string on an empty file is not refused: new_string is written into it.
- EDIT-19: a file that is not UTF-8 past its first lines cannot be replaced whole by Write, even
  after a read of a window of it: "File is not valid UTF-8 ... nothing was written" (by design).

    python3 edits.py     # exit 1: any of them shows
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    (root / "mixed.txt").write_bytes(b"a\r\nb\nc\r\nd\n")
    (root / "line.txt").write_bytes("«»\nend".encode())
    (root / "empty.txt").write_bytes(b"")
    (root / "f.dat").write_bytes(b"first line\n" + b"\xff\xfe\x80 latin \xe9\n" * 4)
    with Server(root, Path(base, "scratch")) as server:
        server.call("Read", file_path=str(root / "f.dat"), offset=1, limit=1)
        failed, text = server.call("Write", file_path=str(root / "f.dat"), content="replaced\n")
        print("Write f.dat (not UTF-8 past line 1) after a window read:", text[:100])
        if failed:
            seen.append("EDIT-19: a file not UTF-8 past its first line could not be replaced "
                        "whole after a window read")
        for name in ("mixed.txt", "line.txt", "empty.txt"):
            server.call("Read", file_path=str(root / name))
        server.call("Edit", file_path=str(root / "mixed.txt"), old_string="c", new_string="C")
        server.call("Edit", file_path=str(root / "line.txt"), old_string="«»", new_string="")
        failed, text = server.call("Edit", file_path=str(root / "empty.txt"), old_string="",
                                   new_string="inserted")
    mixed = (root / "mixed.txt").read_bytes()
    print("mixed.txt after c -> C:", mixed)
    if mixed != b"a\r\nb\nC\r\nd\n":
        seen.append(f"EOL-03: the untouched lines' endings changed: {mixed!r}")
    line = (root / "line.txt").read_bytes()
    print("line.txt after deleting «»:", line)
    if line != b"\nend":
        seen.append(f"EOL-06: deleting «» took its line ending too: {line!r}")
    print("empty.txt after an empty old_string:", (root / "empty.txt").read_bytes(), text[:80])
    if not failed:
        seen.append("EDIT-05: an empty old_string on an empty file wrote new_string into it")
verdict(seen, "the edits changed only their span and an empty old_string was refused")
