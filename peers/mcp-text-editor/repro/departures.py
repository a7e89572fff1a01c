"""Every departure of mcp-text-editor 1.2.2 the kit reported, shown with nothing but Python and the
installed server (mcp_stdio.py): one line each, exit 1 when any shows.

    python3 peers/mcp-text-editor/repro/departures.py
"""

import json
import os
import tempfile
from pathlib import Path

from mcp_stdio import SECRET, Departures, Sandbox, Server

d = Departures()


def content(answer):
    """The text of the first range of the one file a read answered (its JSON keyed by path)."""
    if answer is None or answer[0]:
        return None
    return next(iter(json.loads(answer[1]).values()))["ranges"][0]["content"]


with Sandbox() as box, Server(box) as s:

    def read(path, start=1, **more):
        return s.call(
            "get_text_file_contents",
            files=[{"file_path": path, "ranges": [{"start": start, **more}]}],
        )

    def create(path, text, **more):
        return s.call("create_text_file", file_path=path, contents=text, **more)

    root, outside = box.root, box.outside

    # ESCAPES: any absolute path is taken (only '..' is refused), links are followed
    answer = read(str(outside / "secret.txt"))
    d.check(
        "CONFINE-08",
        SECRET in (content(answer) or ""),
        "a read of <SANDBOX>/outside/secret.txt returns it (CONFINE-14 too)",
        answer,
    )
    answer = create(str(outside / "new.txt"), "escaped\n")
    d.check(
        "CONFINE-02",
        (outside / "new.txt").exists(),
        "create_text_file of <SANDBOX>/outside/new.txt creates it",
        answer,
    )
    answer = create(str(root) + "_evil/new.txt", "escaped\n")
    d.check(
        "CONFINE-04",
        (box.sibling / "new.txt").exists(),
        "create_text_file of <ROOT>_evil/new.txt creates it in the sibling folder",
        answer,
    )
    outer = Path(tempfile.mkdtemp(prefix="repro-outer-", dir="/tmp"))
    (outer / "secret.txt").write_text(f"tmp secret {SECRET}\n")
    answer = read(str(outer / "secret.txt"))
    made = create(str(outer / "made.txt"), "x\n")
    d.check(
        "CONFINE-17",
        SECRET in (content(answer) or "") and (outer / "made.txt").exists(),
        "a file in the system's /tmp is read, and one is created there",
        made,
    )
    for name in ("secret.txt", "made.txt"):
        (outer / name).unlink(missing_ok=True)
    outer.rmdir()
    os.symlink(outside / "secret.txt", root / "link_out_file")
    os.symlink(outside, root / "link_out")
    os.symlink(outside / "created_by_escape.txt", root / "dangling_out")
    answer = read(str(root / "link_out_file"))
    d.check(
        "SYMLINK-09",
        SECRET in (content(answer) or ""),
        "a read through a file link out answers the secret",
        answer,
    )
    create(str(root / "link_out" / "dir" / "x.txt"), "escaped\n")
    d.check(
        "SYMLINK-02",
        (outside / "dir" / "x.txt").exists(),
        "create_text_file through a folder link out creates outside/dir/x.txt "
        "(SYMLINK-03: its missing folders too)",
    )
    create(str(root / "dangling_out"), "escaped\n")
    d.check(
        "SYMLINK-04",
        (outside / "created_by_escape.txt").exists(),
        "create_text_file of a dangling link out creates its target outside",
    )
    answer = create(str(root / ".." / "outside" / "secret.txt"), "escaped\n")
    d.check(
        "CONFINE-01",
        answer is not None and "File already exists" in answer[1],
        "a write of <ROOT>/../outside/secret.txt is refused as 'File already exists' "
        "(existence checked before the path; SYMLINK-01 alike through link_out_file)",
        answer,
    )

    # '..' anywhere in a path is refused, also when it stays inside or is part of a name
    box.write("a.txt", "back-inside\n")
    box.write("sub/keep.txt", "")
    for path, clause in (
        (str(root / "sub" / ".." / "a.txt"), "CONFINE-05"),
        (str(root / "..cache"), "CONFINE-09"),
        (str(root / "." / "sub" / ".." / "a.txt"), "CONFINE-10"),
        (str(root / "..x" / "y" / "new.txt"), "EDIT-14"),
    ):
        answer = read(path) if clause != "CONFINE-09" and clause != "EDIT-14" else create(
            path, "dotted\n"
        )
        d.check(
            clause,
            answer is not None and "Path traversal not allowed" in answer[1],
            f"{path.replace(str(root), '<ROOT>')} is refused as a path traversal",
            answer,
        )

    # WRITE: a final newline is added, empty content refused, an existing file never replaced
    create(str(root / "abs.txt"), "absolute")
    after = (root / "abs.txt").read_bytes()
    d.check(
        "EOL-08",
        after == b"absolute\n",
        "a write of 'absolute' stores 'absolute\\n' (CONFINE-10's check too)",
        after,
    )
    answer = create(str(root / "empty.txt"), "")
    d.check(
        "EOL-08",
        answer is not None and '"result": "error"' in answer[1],
        "a write of empty content is refused",
        answer,
    )
    box.write("f.txt", "old\n")
    answer = create(str(root / "f.txt"), "replaced\n")
    d.check(
        "EDIT-16",
        answer is not None and "File already exists" in answer[1],
        "create_text_file never replaces a file (EDIT-19, CANCEL-03; EDIT-13 SHOULD)",
        answer,
    )
    (root / "a-folder").mkdir()
    answer = create(str(root / "a-folder"), "content")
    d.check(
        "EDIT-17",
        answer is not None and "File already exists" in answer[1],
        "a write to a folder path is refused as 'File already exists' (ALREADY_EXISTS), not "
        "IS_DIRECTORY",
        answer,
    )

    # READ
    box.write("blob.bin", b"BINTOKEN\x00\x01\x02 more BINTOKEN")
    answer = read(str(root / "blob.bin"))
    d.check(
        "READ-04",
        "BINTOKEN" in (content(answer) or ""),
        "a file with NUL bytes is read as text",
        answer,
    )
    box.write("big.txt", "large file line\n" * 20000)
    answer = read(str(root / "big.txt"))
    d.check(
        "READ-05",
        len(content(answer) or "") >= 320000,
        "no size limit: a 320,000-byte file comes back whole",
    )
    box.write("words.txt", "alpha\nbravo\ncharlie\ndelta\necho\nfoxtrot\n")
    answer = read(str(root / "words.txt"), start=5, end=3)
    d.check(
        "READ-12",
        content(answer) == "",
        "a window 5:3 answers success with no lines",
        answer,
    )
    answer = read(str(root / "words.txt"))
    d.check(
        "READ-07",
        content(answer) == "alpha\nbravo\ncharlie\ndelta\necho\nfoxtrot\n",
        "(SHOULD) lines come back without numbers",
    )

    # VALIDATE / RESULT
    answer = read(str(root / "words.txt"), start="2")
    d.check(
        "VALIDATE-02",
        (content(answer) or "").startswith("bravo"),
        "a string '2' for start is taken as 2",
        answer,
    )
    answer = create(str(root / "x.txt"), "c\n", Path="y.txt")
    d.check(
        "VALIDATE-03",
        (root / "x.txt").exists(),
        "an unknown argument (Path) is ignored and the write happens",
        answer,
    )
    answer = read(3)
    d.check(
        "RESULT-02",
        answer is not None and "expected str, bytes or os.PathLike object, not int" in answer[1],
        "a number for file_path answers Python's TypeError: no code can be read from it",
        answer,
    )
    answer = create(str(root / "fresh.txt"), "hello\n")
    d.check(
        "RESULT-05",
        answer is not None and '"result": "ok"' in answer[1],
        "(SHOULD) a write answers JSON {result, file_hash, ...}: no one-line summary",
    )
    answer = s.call("no_such_tool")
    d.check("RESULT-06", True, "(SHOULD) an unknown tool's failure names no next step", answer)
    tools = s.tools()
    d.check(
        "REGISTRY-05",
        not any((t.get("annotations") or {}).get("kind") for t in tools),
        "(SHOULD) no tool declares its kind",
    )
    d.check(
        "ANNOTATION-04",
        not any(t.get("annotations") for t in tools),
        "(SHOULD) no tool declares behaviour hints",
    )
    os.mkfifo(root / "fifo")
    d.check(
        "READ-10",
        s.call(
            "get_text_file_contents",
            timeout=3,
            files=[{"file_path": str(root / "fifo"), "ranges": [{"start": 1}]}],
        )
        is None,
        "(SHOULD) a read of a FIFO does not answer within 3 s",
    )

d.finish()
