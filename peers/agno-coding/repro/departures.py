"""agno 3.1.10 CodingTools: the departures the matrix shows, reproduced on agno alone.

    .cache/peers/agno-coding/venv/bin/python peers/agno-coding/repro/departures.py

CodingTools(base_dir=<a temp folder>, all=True), each call taken as an agno Model takes a tool
call: get_function_call_for_tool_call on the JSON arguments, then FunctionCall.execute(); what is
printed is the text the model gets. Exit 1 when any departure is reproduced.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from agno.tools.coding import CodingTools
from agno.utils.tools import get_function_call_for_tool_call


def functions(root: Path) -> dict[str, Any]:
    found = {}
    for function in CodingTools(base_dir=root, all=True).get_functions().values():
        function.process_entrypoint()
        found[function.name] = function
    return found


def call(tools: dict[str, Any], name: str, args: Any) -> str:
    tool_call = {"type": "function", "id": "call_1",
                 "function": {"name": name, "arguments": json.dumps(args)}}
    function_call = get_function_call_for_tool_call(tool_call, tools)
    assert function_call is not None
    if function_call.error is not None:
        return function_call.error
    result = function_call.execute()
    return str(function_call.result) if result.status == "success" else str(function_call.error)


seen: list[str] = []


def show(label: str, text: str, departure: str | None) -> None:
    print(f"{label}: {text[:150]!r}")
    if departure:
        seen.append(departure)
        print(f"  -> {departure}")


with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    tools = functions(root)

    text = call(tools, "write_file", {"file_path": "sub/...", "contents": "dots\n"})
    show("write_file sub/... (an ordinary name)", text,
         "CONFINE-09: a file named '...' is refused as outside" if "outside" in text else None)

    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    text = call(tools, "edit_file", {"file_path": "crlf.txt", "old_text": "two",
                                     "new_text": "TWO"})
    after = (root / "crlf.txt").read_bytes()
    show(f"edit_file two -> TWO in a CRLF file (now {after!r})", text,
         "EOL-03..06: an edit rewrites every CRLF of the file as LF" if b"\r\n" not in after
         else None)

    (root / "colors.txt").write_text("color 12\ncolour 7\n-e marks\n")
    text = call(tools, "grep", {"pattern": "colou?r [0-9]+"})
    show("grep 'colou?r [0-9]+'", text,
         "GREP-01/GREP-06: the pattern is a basic regular expression ('?' and '+' literal)"
         if "color 12" not in text else None)
    text = call(tools, "grep", {"pattern": "--version"})
    show("grep '--version'", text,
         "GREP-03: a pattern starting '-' is taken as an option of grep (--version printed "
         "grep's version)" if "GNU grep" in text or "grep (" in text else None)
    text = call(tools, "grep", {"pattern": "color", "path": "colors.txt"})
    show("grep color in colors.txt (a file)", text,
         "GREP-08 (SHOULD): a match in a file given as the path does not name the file"
         if "colors.txt" not in text else None)

    (root / "latin.bin").write_bytes(b"BINMARK-LATIN\xff\xfe\n")
    text = call(tools, "read_file", {"file_path": "latin.bin"})
    show("read_file latin.bin (invalid UTF-8)", text,
         "READ-04: invalid UTF-8 is read as text with replacement characters"
         if "BINMARK-LATIN" in text else None)
    (root / "big.txt").write_text("0123456789abcde\n" * 20000)
    text = call(tools, "read_file", {"file_path": "big.txt"})
    show("read_file of 320,000 bytes", text[:40],
         "READ-05: no FILE_TOO_LARGE: a big file is paged (2,000 lines) instead"
         if "Showing lines" in text else None)
    (root / "words.txt").write_text("".join(f"w{n}\n" for n in range(13)))
    text = call(tools, "read_file", {"file_path": "words.txt", "offset": 4, "limit": -1})
    show("read_file offset 4 limit -1", text,
         "READ-12: a window ending before it starts is a success" if not text.startswith("Error")
         else None)
    text = call(tools, "read_file", {"file_path": "words.txt", "offset": "2"})
    show("read_file offset '2' (a string)", text,
         "VALIDATE-02: a string for an integer argument is taken" if not text.startswith(
             ("Error", "1 validation")) else None)
    (root / "long.txt").write_text("short\n" + "LONG-LINE-START" + "x" * 60000 + "\nend\n")
    text = call(tools, "read_file", {"file_path": "long.txt"})
    show("read_file of a file with one 60,015-character line", text,
         "TRUNCATE-01: a line longer than the limit is left out whole, not cut"
         if "LONG-LINE-START" not in text else None)

    tree = root / "tree"
    tree.mkdir()
    for n in range(600):
        (tree / f"{n:06}-{'n' * 150}.txt").write_text("")
    text = call(tools, "find", {"pattern": "**/*", "path": "tree"})
    show("find **/* over 600 names of 161 characters", text[:40],
         f"LIST-04: a listing answers {len(text)} characters, over 50,000"
         if len(text) > 50200 else None)

    (root / "loop_a").symlink_to(root / "loop_b")
    (root / "loop_b").symlink_to(root / "loop_a")
    text = call(tools, "find", {"pattern": "*", "path": "."})
    show("find * in a root holding a link loop", text,
         "SYMLINK-05: a link loop in the root fails the whole listing"
         if text.startswith("Error") else None)
    os.remove(root / "loop_a")
    os.remove(root / "loop_b")

    os.mkfifo(root / "pipe")
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import pathlib, sys\n"
             "from agno.tools.coding import CodingTools\n"
             "print(CodingTools(base_dir=pathlib.Path(sys.argv[1]), all=True).grep('x', 'pipe'))",
             str(root)], capture_output=True, text=True, timeout=5, check=False)
        show("grep x in pipe (a FIFO, in a child process)", done.stdout, None)
    except subprocess.TimeoutExpired:
        show("grep x in pipe (a FIFO, in a child process)", "no answer in 5 s",
             "GREP-09 (SHOULD): grep of a FIFO blocks")

    for command, departure in [
        ("echo hello | cat", "SHELL-01/05/06/08/09: control operators (| ; && >) are refused in "
                             "restricted mode, its default"),
    ]:
        text = call(tools, "run_shell", {"command": command})
        show(f"run_shell {command!r}", text, departure if "not supported" in text else None)
    text = call(tools, "run_shell", {"command": "true"})
    show("run_shell 'true'", text,
         "SHELL-05: the command 'true' (and 'false', 'null', 'none') is turned into a JSON "
         "value by agno's argument cleaning, then refused as not a string"
         if "validation error" in text else None)
    (root / "long_line.py").write_text("print('HEAD' + 'x' * 60000 + 'TAIL')\n")
    text = call(tools, "run_shell", {"command": "python3 long_line.py"})
    show("run_shell printing one 60,008-character line", text,
         "TRUNCATE-02/04/05: output cut by lines keeps nothing of a long line (only a note "
         "naming a file holding it)" if "HEAD" not in text else None)
    (root / "lines.py").write_text("for n in range(1, 3001):\n    print(n)\n")
    text = call(tools, "run_shell", {"command": "python3 lines.py"})
    show("run_shell printing 3,000 short lines", text[:40],
         "TRUNCATE-06: output within the character limit is cut at 2,000 lines"
         if "3000" not in text.split("[Output truncated")[0] else None)
    many = {f"unknown_argument_{n:03}": n for n in range(300)}
    text = call(tools, "read_file", {"file_path": "words.txt", **many})
    show("read_file with 300 unknown arguments", text[:80],
         f"RESULT-07 (SHOULD): the refusal is {len(text)} characters" if len(text) > 2000
         else None)

print()
print(f"{len(seen)} departure(s) reproduced" if seen else "none reproduced")
sys.exit(1 if seen else 0)
