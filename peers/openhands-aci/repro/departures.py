"""openhands-aci 0.3.3: the departures the matrix shows, reproduced on OHEditor alone.

    .cache/peers/openhands-aci/venv/bin/python peers/openhands-aci/repro/departures.py

Exit 1 when any is reproduced; each line says what was seen:
- ESCAPE (CONFINE-01/02, SYMLINK-09): the editor takes any absolute path; workspace_root only
  shapes a hint for relative paths. A file beside the workspace is created, and a link out is
  read through.
- ESCAPE (CONFINE-16, SYMLINK-12): `view` of a folder, its directory tree, lists a folder beside
  the workspace and one behind a link out (`find -L`).
- ESCAPE (CONFINE-17): a file in a folder of the system's /tmp is created and read back.
- READ-04, RESULT-04: viewing a file that starts like a PNG raises NameError ('unicode' is not
  defined) out of binaryornot 0.4.4, a Python 2 branch reached under chardet 7.
- EDIT-02: an old_str that is not in the file is stripped of surrounding whitespace and tried
  again, so a wrongly indented old_str replaces text it did not name.
- EOL-01: files are read with universal newlines and written back with LF: an edit of one line
  of a CRLF file rewrites every line ending.
"""

import shutil
import sys
import tempfile
from pathlib import Path

from openhands_aci.editor import OHEditor, ToolError


def attempt(editor: OHEditor, **arguments: object) -> str:
    try:
        result = editor(**arguments)
        return f"answered {result.output!r}"
    except ToolError as error:
        return f"refused: {error.message!r}"
    except Exception as error:  # the contract's RESULT-04: a tool answers, it does not raise
        return f"RAISED {type(error).__name__}: {error}"


seen = []
with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "workspace"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("outside secret\n")
    (root / "link").symlink_to(outside / "secret.txt")
    editor = OHEditor(workspace_root=str(root))

    print("create ../outside/new.txt:", attempt(editor, command="create",
          path=str(root / ".." / "outside" / "new.txt"), file_text="x"))
    if (outside / "new.txt").exists():
        seen.append("ESCAPE: a file was created outside the workspace")
    answer = attempt(editor, command="view", path=str(root / "link"))
    print("view link (to ../outside/secret.txt):", answer[:120])
    if "outside secret" in answer:
        seen.append("ESCAPE: a file outside was read through a link")

    (outside / "dir").mkdir()
    (root / "link_out").symlink_to(outside)
    answer = attempt(editor, command="view", path=str(root / ".." / "outside"))
    print("view ../outside (a folder):", answer[:160])
    if "secret.txt" in answer:
        seen.append("ESCAPE: view of a folder beside the workspace listed it")
    answer = attempt(editor, command="view", path=str(root / "link_out"))
    print("view link_out (a folder link out):", answer[:160])
    if "secret.txt" in answer:
        seen.append("ESCAPE: view of a folder link out listed the folder outside")
    canary = Path(tempfile.mkdtemp(prefix="repro-canary-", dir="/tmp"))
    try:
        (canary / "secret.txt").write_text("tmp secret\n")
        print("create in /tmp:", attempt(editor, command="create", path=str(canary / "new.txt"),
                                          file_text="x"))
        answer = attempt(editor, command="view", path=str(canary / "secret.txt"))
        if (canary / "new.txt").exists() or "tmp secret" in answer:
            seen.append("ESCAPE: a file in /tmp was created and another read")
    finally:
        shutil.rmtree(canary)

    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    answer = attempt(editor, command="view", path=str(root / "image.png"))
    print("view image.png:", answer)
    if answer.startswith("RAISED"):
        seen.append("RESULT-04: viewing a binary file raised instead of answering")

    (root / "f.py").write_text("    indented\n")
    print("str_replace '  indented\\n  ' (wrong indent):", attempt(
        editor, command="str_replace", path=str(root / "f.py"), old_str="  indented\n  ",
        new_str="x"))
    if (root / "f.py").read_text() != "    indented\n":
        seen.append(f"EDIT-02: old_str that does not occur replaced text: "
                    f"{(root / 'f.py').read_text()!r}")

    (root / "crlf.txt").write_bytes(b"alpha\r\nbeta\r\ngamma\r\n")
    attempt(editor, command="str_replace", path=str(root / "crlf.txt"), old_str="beta",
            new_str="BETA")
    after = (root / "crlf.txt").read_bytes()
    print("crlf.txt after replacing one word:", after)
    if b"\r\n" not in after:
        seen.append("EOL-01: every CRLF of the file became LF")

for line in seen:
    print("DEPARTS:", line)
print("not reproduced (conforms)" if not seen else f"{len(seen)} departures reproduced")
sys.exit(1 if seen else 0)
