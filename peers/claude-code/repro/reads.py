"""Read's departures:

- VALIDATE-02: a string "2" for offset, an integer in its schema, is taken as the number 2.
- READ-12: limit has "exclusiveMinimum": 0 in its schema, yet 0 and -1 are taken, and the rest
  of the file comes back.
- READ-09: an empty file reads as {"content": ""} and says nothing of it (the Claude Code app
  adds a note that the file is empty; `claude mcp serve` does not).
- READ-04: a PNG file is answered as an image ({"type": "image", "file": {"base64": ...}}), a
  success, not refused as binary (by design: Claude Code reads images).
- READ-10: a read of a FIFO blocks until a writer comes; the call never answers (3 s here).

    python3 reads.py     # exit 1: any of them shows
"""

import base64
import json
import os
import tempfile
import threading
from pathlib import Path

from mcp_stdio import Server, verdict

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    (root / "words.txt").write_text("".join(f"line {n}\n" for n in range(1, 11)))
    (root / "blank.txt").write_text("")
    os.mkfifo(root / "pipe")
    (root / "image.png").write_bytes(base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
    with Server(root, Path(base, "scratch")) as server:
        failed, text = server.call("Read", file_path=str(root / "words.txt"), offset="2",
                                   limit=1)
        print('Read offset "2":', text[:120])
        if not failed:
            seen.append('VALIDATE-02: a string "2" for the integer offset was taken')
        for limit in (0, -1):
            failed, text = server.call("Read", file_path=str(root / "words.txt"), offset=5,
                                       limit=limit)
            print(f"Read offset 5 limit {limit}:", text[:120])
            if not failed:
                seen.append(f"READ-12: limit {limit} (exclusiveMinimum 0) was taken: "
                            f"{json.loads(text)['file']['numLines']} lines came back")
        failed, text = server.call("Read", file_path=str(root / "blank.txt"))
        print("Read blank.txt:", text)
        if not failed and "empty" not in text.lower():
            seen.append("READ-09: an empty file's read says nothing of it being empty")
        failed, text = server.call("Read", file_path=str(root / "image.png"))
        print("Read image.png:", text[:80])
        if not failed:
            seen.append("READ-04: a PNG file is answered, as an image, not refused as binary")
        answered = threading.Event()

        def read_fifo() -> None:
            server.call("Read", file_path=str(root / "pipe"))
            answered.set()

        threading.Thread(target=read_fifo, daemon=True).start()
        if not answered.wait(3):
            seen.append("READ-10: a read of a FIFO did not answer within 3 s")
            with open(root / "pipe", "w"):  # a writer: the read ends, the server answers
                pass
            answered.wait(3)
verdict(seen, "the reads answered as their schema and the contract say")
