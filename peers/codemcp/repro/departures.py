"""Every departure of codemcp 0.6.0 the kit reported, shown with nothing but Python, git and the
installed server (mcp_stdio.py), in a root prepared as the profile's [setup].commands prepare it
(a git repository with a codemcp.toml and a first commit carrying the chat's codemcp-id): one
line each, exit 1 when any shows.

    python3 peers/codemcp/repro/departures.py
"""

import os
import subprocess
import tempfile
from pathlib import Path

from mcp_stdio import SECRET, Departures, Sandbox, Server

d = Departures()
CHAT = "1-agentconf"  # the chat's id, in the first commit's trailer (mcp_stdio.SETUP)

with Sandbox() as box, Server(box) as s:

    def sub(subtool, **arguments):
        return s.call("codemcp", subtool=subtool, chat_id=CHAT, **arguments)

    def read(path, **window):
        return sub("ReadFile", path=path, **window)

    def write(path, content):
        return sub("WriteFile", path=path, content=content, description="repro write")

    def edit(path, old, new):
        return sub("EditFile", path=path, old_string=old, new_string=new, description="repro")

    root = box.root

    # ESCAPES: ReadFile reads any path (only writes are held to the git repository)
    for path, clause in (
        ("../outside/secret.txt", "CONFINE-08"),
        (str(box.outside / "secret.txt"), "CONFINE-14"),
        ("../root_evil/secret.txt", "CONFINE-04"),
        ("~/.ssh/authorized_keys", "CONFINE-03"),
    ):
        if clause == "CONFINE-04":
            (box.sibling / "secret.txt").write_text(f"sibling secret {SECRET}\n")
        answer = read(path)
        d.check(
            clause,
            answer is not None and SECRET in answer[1],
            f"ReadFile of {path} returns it" + (" (~ is the HOME)" if "~" in path else ""),
            answer,
        )
    outer = Path(tempfile.mkdtemp(prefix="repro-outer-", dir="/tmp"))
    (outer / "secret.txt").write_text(f"tmp secret {SECRET}\n")
    answer = read(str(outer / "secret.txt"))
    d.check("CONFINE-17", answer is not None and SECRET in answer[1],
            "a file in the system's /tmp is read", answer)
    (outer / "secret.txt").unlink()
    outer.rmdir()
    os.symlink(box.outside / "secret.txt", root / "link_out_file")
    os.symlink(box.outside, root / "link_out")
    answer = read("link_out_file")
    d.check("SYMLINK-09", answer is not None and SECRET in answer[1],
            "a read through a file link out answers the secret", answer)
    answer = read("link_out/secret.txt")
    d.check("SYMLINK-02", answer is not None and SECRET in answer[1],
            "a read through a folder link out answers the secret", answer)
    answer = edit("../outside/secret.txt", "outside", "edited")
    d.check(
        "CONFINE-12",
        SECRET in (box.outside / "secret.txt").read_text() and answer is not None and answer[0],
        "(the check's read escapes, CONFINE-08) the edit itself is refused: outside the "
        "repository (SYMLINK-10 alike)",
        answer,
    )
    answer = sub("LS", path=".")
    d.check(
        "SYMLINK-06",
        answer is not None and "secret.txt" in answer[1],
        "LS lists what is inside a folder link out",
        answer,
    )
    os.unlink(root / "link_out")
    os.unlink(root / "link_out_file")

    # WRITE and EDIT: only files tracked by git; a new file is written and committed
    box.write("f.txt", "alpha\nbeta\n")
    answer = edit("f.txt", "beta", "BETA")
    d.check(
        "EDIT-01",
        answer is not None and "File is not tracked by git" in answer[1],
        "an edit of a file not tracked by git is refused (EDIT-02, -03, -12, -15, -17, EOL-01 to "
        "-06, CONCUR-01, RESULT-03 alike)",
        answer,
    )
    answer = write("f.txt", "replaced\n")
    d.check(
        "EDIT-16",
        answer is not None and "File is not tracked by git" in answer[1],
        "a write over a file not tracked by git is refused (EDIT-19, CANCEL-03 alike)",
        answer,
    )
    write("abs.txt", "absolute")
    after = (root / "abs.txt").read_bytes()
    d.check("EOL-08", after == b"absolute\n",
            "a write of 'absolute' stores 'absolute\\n' (CONFINE-09, -10's checks too)", after)
    write("ws.txt", "a \r\nb\r\n")
    after = (root / "ws.txt").read_bytes()
    d.check("EOL-08", after == b"a\nb\n",
            "a write strips trailing whitespace and writes CRLF as LF", after)
    log = subprocess.run(["git", "log", "--format=%s", "-1"], cwd=root, capture_output=True,
                         text=True, check=False).stdout.strip()
    print(f"(shape)   every write is committed; the last commit: {log!r}")

    # MENTIONS: '@' is part of the name
    answer = write("@new.txt", "m\n")
    d.check("CONFINE-06", (root / "@new.txt").exists(),
            "a write of @new.txt creates a file named '@new.txt'", answer)

    # VALIDATE: unknown arguments ignored, a write without content writes an empty file
    answer = sub("WriteFile", path="v.txt", description="repro")
    d.check("VALIDATE-01", (root / "v.txt").exists(),
            "a WriteFile without content writes a file (VALIDATE-04, -05 alike)", answer)
    answer = read("f.txt", offset="2")
    d.check("VALIDATE-02", answer is not None and not answer[0] and "beta" in answer[1],
            "a string '2' for offset is taken as 2", answer)
    answer = s.call("codemcp", subtool="ReadFile", chat_id=CHAT, path="f.txt", bogus=1)
    d.check("VALIDATE-03", answer is not None and not answer[0],
            "an unknown argument (bogus) is ignored", answer)
    answer = s.call("codemcp", subtool="ReadFile", chat_id=CHAT, path=3)
    d.check("VALIDATE-07", answer is not None and "validation error" in answer[1],
            "a wrong type answers pydantic's text: no issues (VALIDATE-06, -10 alike)", answer)

    # READ
    box.write("blob.bin", b"BINTOKEN\x00\x01\x02 more BINTOKEN")
    answer = read("blob.bin")
    d.check("READ-04", answer is not None and "BINTOKEN" in answer[1],
            "a file with NUL bytes is read as text", answer)
    box.write("empty.txt", "")
    answer = read("empty.txt")
    d.check("READ-09", answer is not None and answer[0] and "beyond the end" in answer[1],
            "a read of an empty file fails: 'Offset None is beyond the end' (EDIT-05 alike)",
            answer)
    box.write("words.txt", "alpha\nbravo\ncharlie\ndelta\necho\nfoxtrot\n")
    answer = read("words.txt", offset=5, limit=-1)
    d.check("READ-12", answer is not None and not answer[0],
            "a window 5:3 (limit -1) answers success", answer)

    # LIST
    answer = sub("LS", path=str(root))
    d.check("LIST-01", answer is not None and str(root) in answer[1],
            "LS names the folder by its absolute path", answer)
    for i in range(2500):
        box.write(f"many/{i:06d}-{'n' * 60}.txt", "")
    answer = sub("LS", path="many")
    d.check("LIST-04", answer is not None and len(answer[1]) > 50200,
            f"a listing of 2,500 files answers {len(answer[1]) if answer else 0} characters, "
            "its first 1,000 names whole")

    # GREP: git grep, so files not tracked are never searched
    box.write("src/hay.txt", "a needle here\n")
    answer = sub("Grep", pattern="needle", path=".")
    d.check("GREP-01", answer is not None and "No files found" in answer[1],
            "a match in a file not tracked by git is not found (GREP-04, -05, SYMLINK-07 alike)",
            answer)
    answer = sub("Grep", pattern="-v", path=".")
    d.check("GREP-03", answer is not None and "git grep failed" in answer[1],
            "a pattern '-v' reaches git grep as an option", answer)
    answer = sub("Grep", pattern="*oops", path=".")
    d.check("GREP-06", answer is not None and not answer[0],
            "(SHOULD) an invalid regular expression answers success", answer)

    tools = s.tools()
    d.check("REGISTRY-05", not any((t.get("annotations") or {}).get("kind") for t in tools),
            "(SHOULD) codemcp declares no kind")
    d.check("ANNOTATION-04", not any(t.get("annotations") for t in tools),
            "(SHOULD) codemcp declares no behaviour hints")
    answer = write("summary.txt", "x\n")
    d.check("RESULT-05", answer is not None and answer[1].startswith("Successfully wrote to /"),
            "(SHOULD) a write answers its absolute path and the commit, no one-line summary",
            answer)
    os.mkfifo(root / "fifo")
    answer = s.call("codemcp", timeout=3, subtool="ReadFile", chat_id=CHAT, path="fifo")
    d.check("READ-10", answer is None, "(SHOULD) a read of a FIFO does not answer within 3 s")

d.finish()
