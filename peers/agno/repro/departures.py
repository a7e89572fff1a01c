"""agno 3.1.10: the departures the matrix shows, reproduced on agno alone.

    .cache/peers/agno/venv/bin/python peers/agno/repro/departures.py

FileTools(base_dir=<a temp folder>) and ShellTools(base_dir=<the same>), each call taken as an
agno Model takes a tool call: get_function_call_for_tool_call on the JSON arguments, then
FunctionCall.execute(); what is printed is the text the model gets. Exit 1 when any departure
is reproduced; each line says what was seen.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from agno.tools.file import FileTools
from agno.tools.shell import ShellTools
from agno.utils.tools import get_function_call_for_tool_call


def functions(root: Path) -> dict[str, Any]:
    found = {}
    for toolkit in (FileTools(base_dir=root), ShellTools(base_dir=root)):
        for function in toolkit.get_functions().values():
            function.process_entrypoint()
            found[function.name] = function
    return found


def call(tools: dict[str, Any], name: str, args: Any) -> str:
    tool_call = {"type": "function", "id": "call_1",
                 "function": {"name": name, "arguments": json.dumps(args)}}
    function_call = get_function_call_for_tool_call(tool_call, tools)
    assert function_call is not None and function_call.error is None
    result = function_call.execute()
    return str(function_call.result) if result.status == "success" else str(function_call.error)


seen: list[str] = []


def show(label: str, text: str, departure: str | None) -> None:
    print(f"{label}: {text[:150]!r}")
    if departure:
        seen.append(departure)
        print(f"  -> {departure}")


def shell(command: str) -> str:
    return call(tools, "run_shell_command", {"args": ["bash", "-c", command]})


with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("outside secret\n")
    (root / "link_out").symlink_to(outside)
    tools = functions(root)

    text = call(tools, "save_file", {"file_name": "sub/...", "contents": "dots\n"})
    show("save_file sub/... (an ordinary name)", text,
         "CONFINE-09: a file named '...' is refused as outside ('Error saving file')"
         if not (root / "sub" / "...").exists() else None)
    for folder in ("..", "../outside", "link_out"):
        text = call(tools, "list_files", {"directory": folder})
        show(f"list_files {folder}", text,
             f"CONFINE-13/SYMLINK-06: listing {folder} (outside) answers '{{}}', no failure"
             if text == "{}" else None)

    (root / "f.txt").write_text("old\n")
    text = call(tools, "save_file", {"file_name": "f.txt", "contents": "new\n"})
    show("save_file over f.txt, never read", text,
         "EDIT-13 (SHOULD): a file never read is overwritten (no read guard)"
         if (root / "f.txt").read_text() == "new\n" else None)
    show("  its answer", text, "RESULT-05 (SHOULD): a write answers the file name only, "
         "no summary" if text == "f.txt" else None)

    (root / "src").mkdir()
    (root / "src" / "hay.txt").write_text("a\nb\nc\nd\nneedle here\ncolor 12\n")
    text = call(tools, "search_content", {"query": "needle"})
    show("search_content needle", text,
         "GREP-01: matches are JSON snippets of the file, without line numbers"
         if '"line' not in text and ":5:" not in text else None)
    text = call(tools, "search_content", {"query": "colou?r [0-9]+"})
    show("search_content 'colou?r [0-9]+'", text,
         "GREP-01/GREP-06: the query is literal text, not a regular expression"
         if "color 12" not in text else None)
    show("search_content's arguments", str(sorted(tools["search_content"].to_dict()[
        "parameters"]["properties"])), "GREP-07 (SHOULD): no include filter"
         if "include" not in tools["search_content"].to_dict()["parameters"]["properties"]
         else None)
    text = call(tools, "search_content", {"query": "needle", "directory": "src/hay.txt"})
    show("search_content in src/hay.txt (a file)", text,
         "GREP-08 (SHOULD): a file path is refused ('is not a directory')"
         if "not a directory" in text else None)

    (root / "blob.bin").write_bytes(b"BINMARK\x00\x01\x02\n")
    text = call(tools, "read_file", {"file_name": "blob.bin"})
    show("read_file blob.bin (NUL bytes)", text,
         "READ-04: no binary detection: NUL bytes are read as text" if "BINMARK" in text
         else None)
    (root / "big.txt").write_text("0123456789abcde\n" * 20000 + "BIG-TAIL\n")
    text = call(tools, "read_file", {"file_name": "big.txt"})
    show("read_file of 320,009 bytes", text[:40],
         "READ-05: no FILE_TOO_LARGE below 10,000,000 characters / 100,000 lines: a 320 KB file "
         "comes back whole" if "BIG-TAIL" in text else None)
    (root / "empty.txt").write_text("")
    text = call(tools, "read_file", {"file_name": "empty.txt"})
    show("read_file empty.txt", text,
         "READ-09: an empty file is answered '' (nothing says it is empty)" if text == ""
         else None)
    tree = root / "tree"
    tree.mkdir()
    for n in range(2600):
        (tree / f"{n:06}-{'n' * 50}.txt").write_text("")
    text = call(tools, "list_files", {"directory": "tree"})
    show("list_files of 2,600 long names", text[:40],
         f"LIST-04: a listing answers {len(text)} characters, unbounded"
         if len(text) > 50200 else None)

    (root / "loop_a").symlink_to(root / "loop_b")
    (root / "loop_b").symlink_to(root / "loop_a")
    text = call(tools, "list_files", {"directory": "."})
    show("list_files . (the root holds a link loop)", text,
         "SYMLINK-05: a link loop in the root fails the whole listing"
         if text.startswith("Error") else None)
    text = call(tools, "search_content", {"query": "needle"})
    show("search_content needle (the root holds a link loop)", text,
         "SYMLINK-07: a link loop in the root fails the whole search"
         if text.startswith("Error") else None)
    os.remove(root / "loop_a")
    os.remove(root / "loop_b")

    os.mkfifo(root / "pipe")
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import pathlib, sys\nfrom agno.tools.file import FileTools\n"
             "print(FileTools(base_dir=pathlib.Path(sys.argv[1])).read_file('pipe'))",
             str(root)], capture_output=True, text=True, timeout=5, check=False)
        show("read_file pipe (a FIFO, in a child process)", done.stdout, None)
    except subprocess.TimeoutExpired:
        show("read_file pipe (a FIFO, in a child process)", "no answer in 5 s",
             "READ-10 (SHOULD): reading a FIFO blocks until a writer appears")

    text = shell("echo out-mark; echo err-mark >&2; exit 42")
    show("run_shell_command 'echo out-mark; echo err-mark >&2; exit 42'", text,
         "SHELL-02: a non-zero exit answers 'Error: <stderr>': no exit code, no stdout"
         if "42" not in text and "out-mark" not in text else None)
    text = shell("echo to-stdout; echo warn-mark >&2")
    show("run_shell_command with stderr on success", text,
         "SHELL-03: stderr of a successful command is not shown" if "warn-mark" not in text
         else None)
    text = shell("true")
    show("run_shell_command true", text,
         "SHELL-05: no output is answered '' (nothing says so)" if text == "" else None)
    text = shell("echo before-signal; kill -KILL $$")
    show("run_shell_command 'kill -KILL $$'", text,
         "SHELL-11: a command killed by a signal answers 'Error: ', the signal unnamed"
         if "KILL" not in text and "signal" not in text.lower() else None)
    text = shell("seq 1 150")
    show("run_shell_command 'seq 1 150'", text[:30],
         "TRUNCATE-06: only the last 100 lines come back (tail=100), output far below any "
         "limit is cut" if not text.startswith("1\n") else None)
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import pathlib, sys\nfrom agno.tools.shell import ShellTools\n"
             "print(ShellTools(base_dir=pathlib.Path(sys.argv[1])).run_shell_command("
             "['bash', '-c', 'sleep 20 & echo started']))", str(root)],
            capture_output=True, text=True, timeout=8, check=False)
        show("run_shell_command 'sleep 20 & echo started' (in a child process)", done.stdout,
             None)
    except subprocess.TimeoutExpired:
        show("run_shell_command 'sleep 20 & echo started' (in a child process)",
             "no answer in 8 s", "SHELL-10 (SHOULD): a background process keeping the output "
             "open holds the call (no timeout at all)")

    try:  # SHELL-14: subprocess.run is given no timeout, and the tool takes none
        done = subprocess.run(
            [sys.executable, "-c", "import pathlib, sys\nfrom agno.tools.shell import ShellTools\n"
             "print(ShellTools(base_dir=pathlib.Path(sys.argv[1])).run_shell_command("
             "['sleep', '45']))", str(root)],
            capture_output=True, text=True, timeout=35, check=False)
        show("run_shell_command 'sleep 45' (in a child process)", done.stdout, None)
    except subprocess.TimeoutExpired:
        show("run_shell_command 'sleep 45' (in a child process)", "no answer in 35 s",
             "SHELL-14: a command given no timeout is never stopped (no default timeout)")

    many = {f"unknown_argument_{n:03}": n for n in range(300)}
    text = call(tools, "read_file", {"file_name": "f.txt", **many})
    show("read_file with 300 unknown arguments", text[:80],
         f"RESULT-07 (SHOULD): the refusal is {len(text)} characters (pydantic lists every one)"
         if len(text) > 2000 else None)

print()
print(f"{len(seen)} departure(s) reproduced" if seen else "none reproduced")
sys.exit(1 if seen else 0)
