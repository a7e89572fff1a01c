"""deepagents 0.7.32: the departures the matrix shows, reproduced on deepagents alone.

    .cache/peers/deepagents/venv/bin/python peers/deepagents/repro/departures.py

Tools run as a deep agent runs them (langchain's create_agent): langgraph's ToolNode with the
FilesystemMiddleware's wrap_tool_call, over LocalShellBackend(root_dir=<a temp folder>) with its
defaults. Exit 1 when any departure is reproduced; each line printed says what was seen.
"""

import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from deepagents.backends.local_shell import LocalShellBackend
from deepagents.middleware.filesystem import FilesystemMiddleware, FilesystemState
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode


def tools(root: Path) -> Any:
    middleware = FilesystemMiddleware(backend=LocalShellBackend(root_dir=str(root)))
    graph = StateGraph(FilesystemState)
    graph.add_node("tools", ToolNode(middleware.tools, wrap_tool_call=middleware.wrap_tool_call))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    return graph.compile()


def call(app: Any, name: str, args: Any) -> tuple[str, str]:
    """(status, text) of one tool call, or ("RAISED", error) when the agent run raises."""
    try:
        message = AIMessage("", tool_calls=[{"name": name, "args": args,
                                             "id": f"call_{uuid.uuid4().hex}"}])
        out = app.invoke({"messages": [message]})["messages"][-1]
    except Exception as error:  # the contract's RESULT-04: a tool answers, it does not raise
        return "RAISED", f"{type(error).__name__}: {error}"
    return str(out.status), str(out.content)


seen: list[str] = []


def show(label: str, answer: tuple[str, str], departure: str | None) -> None:
    print(f"{label}: {answer[0]} {answer[1][:160]!r}")
    if departure:
        seen.append(departure)
        print(f"  -> {departure}")


with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("outside secret\n")
    (root / "link_out").symlink_to(outside / "secret.txt")
    (root / "sub").mkdir()
    (root / "a.txt").write_text("back inside\n")
    app = tools(root)

    # RESULT-04, SYMLINK-01..10, CONFINE-07, CONFINE-09: exceptions escape the tool
    answer = call(app, "read_file", {"file_path": "/link_out"})
    show("read_file /link_out (a link to ../outside/secret.txt)", answer,
         "RESULT-04/SYMLINK: a path through a link out raises ValueError out of the tool "
         "(the agent run fails) instead of answering" if answer[0] == "RAISED" else None)
    answer = call(app, "write_file", {"file_path": "/a\x00b.txt", "content": "x"})
    show("write_file /a<NUL>b.txt", answer,
         "CONFINE-07: a NUL byte in a path raises ValueError out of the tool"
         if answer[0] == "RAISED" else None)
    answer = call(app, "write_file", {"file_path": "/..cache/x.txt", "content": "x"})
    show("write_file /..cache/x.txt (a folder named ..cache)", answer,
         "CONFINE-09/LIST-01: a name that starts with '..' raises 'Path traversal not allowed' "
         "out of the backend" if answer[0] == "RAISED" else None)

    # CONFINE-03: a raw `~/x` is refused (safe: never expanded); `/~/x`, the root's own `~`
    # folder as its paths are addressed (from `/`), is read. CONFINE-05/10: names inside refused.
    (root / "~").mkdir()
    (root / "~" / "notes.txt").write_text("tilde notes\n")
    show("read_file ~/notes.txt (root/~/notes.txt exists)",
         call(app, "read_file", {"file_path": "~/notes.txt"}), None)
    answer = call(app, "read_file", {"file_path": "/~/notes.txt"})
    show("read_file /~/notes.txt", answer,
         "CONFINE-03: /~/notes.txt, the root's own ~ folder, is not read"
         if "tilde notes" not in answer[1] else None)
    answer = call(app, "read_file", {"file_path": "/sub/../a.txt"})
    show("read_file /sub/../a.txt", answer,
         "CONFINE-05/10: sub/../a.txt, inside the root, is refused as traversal"
         if "back inside" not in answer[1] else None)

    # SHELL-13: the shell says it is a sandbox and is not
    answer = call(app, "execute", {"command": "echo escaped > ../outside/escape.txt"})
    show("execute 'echo escaped > ../outside/escape.txt'", answer,
         "SHELL-13: execute, described as running 'in an isolated sandbox', wrote outside the root"
         if (outside / "escape.txt").exists() else None)

    # READ-03, EDIT-17, READ-10: a folder or a FIFO is "not found"
    answer = call(app, "read_file", {"file_path": "/sub"})
    show("read_file /sub (a folder)", answer,
         "READ-03: a folder is answered \"File '/sub' not found\"" if "not found" in answer[1]
         else None)
    os.mkfifo(root / "pipe")
    answer = call(app, "read_file", {"file_path": "/pipe"})
    show("read_file /pipe (a FIFO)", answer,
         "READ-10: a FIFO is answered as not found" if "not found" in answer[1] else None)

    # EOL-01..06, EDIT-04, EDIT-06: CRLF rewritten as LF
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    answer = call(app, "edit_file", {"file_path": "/crlf.txt", "old_string": "two",
                                     "new_string": "TWO"})
    after = (root / "crlf.txt").read_bytes()
    show(f"edit_file two -> TWO in a CRLF file (now {after!r})", answer,
         "EOL: an edit rewrites every CRLF of the file as LF" if b"\r\n" not in after else None)

    # VALIDATE-02, VALIDATE-03, VALIDATE-09
    answer = call(app, "write_file", {"file_path": "/x.txt", "content": "c", "Path": "/y.txt"})
    show("write_file with an unknown argument Path", answer,
         "VALIDATE-03: an unknown argument is ignored and the write runs"
         if (root / "x.txt").exists() else None)
    (root / "three.txt").write_text("l1\nl2\nl3\n")
    answer = call(app, "read_file", {"file_path": "/three.txt", "offset": "1", "limit": 1})
    show("read_file with offset '1' (a string)", answer,
         "VALIDATE-02: a string for an integer argument is taken" if answer[0] == "success"
         else None)
    answer = call(app, "read_file", ["a.txt"])
    show("read_file with arguments ['a.txt'] (not an object)", answer,
         "VALIDATE-09: arguments that are not an object cannot reach the tools: LangChain's "
         "AIMessage refuses them (ValidationError)" if answer[0] == "RAISED" else None)

    # READ-01, READ-05, READ-12
    (root / "rows.txt").write_text("".join(f"row {n}\n" for n in range(1, 145)))
    answer = call(app, "read_file", {"file_path": "/rows.txt"})
    show("read_file of a 144-line file", answer,
         "READ-01/READ-05: a read without a window answers the first 100 lines, not the file "
         "(nor FILE_TOO_LARGE)" if "row 144" not in answer[1] else None)
    answer = call(app, "read_file", {"file_path": "/rows.txt", "offset": 4, "limit": -1})
    show("read_file offset 4 limit -1", answer,
         "READ-12: a negative limit is answered as success" if answer[0] == "success" else None)

    # LIST-03
    answer = call(app, "glob", {"pattern": "*", "path": "/nope"})
    show("glob * in /nope (missing)", answer,
         "LIST-03: a missing folder lists as success 'No files found'" if answer[0] == "success"
         else None)

    # GREP-01, GREP-04, GREP-08
    (root / "colors.txt").write_text("color 12\ncolour 7\n")
    answer = call(app, "grep", {"pattern": "colou?r [0-9]+", "output_mode": "content"})
    show("grep 'colou?r [0-9]+'", answer,
         "GREP-01: the pattern is literal text, not a regular expression"
         if "color 12" not in answer[1] else None)
    (root / "late.bin").write_bytes(b"needle LATEMARK\n" + b"\x00" * 64)
    answer = call(app, "grep", {"pattern": "needle", "output_mode": "content"})
    show("grep needle (late.bin has a NUL after the match)", answer,
         "GREP-04: a binary file is searched and its line shown" if "LATEMARK" in answer[1]
         else None)
    answer = call(app, "grep", {"pattern": "hit", "path": "/nope", "output_mode": "content"})
    show("grep in /nope (missing)", answer,
         "GREP-08: a missing path is success 'No matches found'" if answer[0] == "success"
         else None)

    # SHELL-08, TRUNCATE-02: the tail of a long output is lost
    answer = call(app, "execute", {"command": "seq 1 50000; seq 1 50000; echo LAST-LINE"})
    show("execute printing 100,000 lines then LAST-LINE", answer,
         "SHELL-08/TRUNCATE-02: long output keeps its head; its tail (LAST-LINE) is lost"
         if "LAST-LINE" not in answer[1] else None)

    # SHELL-10: a background process holding the output holds the call
    answer = call(app, "execute", {"command": "sleep 5 & echo started", "timeout": 2})
    show("execute 'sleep 5 & echo started' (timeout 2 s)", answer,
         "SHELL-10: a background process keeping the output open holds the call to its "
         "timeout and 'started' is lost" if "started" not in answer[1] else None)

    # SHELL-04: a timeout leaves the grandchildren running
    answer = call(app, "execute", {"command": "(sleep 3; echo late > survived.txt) & sleep 30",
                                   "timeout": 1})
    time.sleep(4)
    show("execute '(sleep 3; echo late > survived.txt) & sleep 30' (timeout 1 s)", answer,
         "SHELL-04: the timeout kills the shell only; its background child ran on and wrote "
         "survived.txt" if (root / "survived.txt").exists() else None)

    # SHELL-11: a signal is only a negative exit code
    answer = call(app, "execute", {"command": "echo before; kill -KILL $$"})
    show("execute 'kill -KILL $$'", answer,
         "SHELL-11: a command killed by a signal is 'exit code -9', the signal unnamed"
         if "KILL" not in answer[1] and "signal" not in answer[1].lower() else None)

    # SYMLINK-07: grep through a folder link out is not refused
    (root / "dir_out").symlink_to(outside)
    answer = call(app, "grep", {"pattern": "-", "path": "/dir_out", "output_mode": "content"})
    show("grep in /dir_out (a link to ../outside)", answer,
         "SYMLINK-07: grep with a path through a folder link out answers success"
         if answer[0] == "success" else None)

    # READ-04: no binary detection
    (root / "blob.bin").write_bytes(b"BINMARK\x00\x00\x00\n")
    answer = call(app, "read_file", {"file_path": "/blob.bin"})
    show("read_file of a file with NUL bytes", answer,
         "READ-04: a binary file is read as text" if "BINMARK" in answer[1] else None)

    # GREP-05, LIST-04: results over the output bound
    for n in range(300):
        folder = root / "many" / f"d{n:03}"
        folder.mkdir(parents=True)
        (folder / ("f" * 150 + ".txt")).write_text("x" * 200 + "\n")
    answer = call(app, "grep", {"pattern": "x", "path": "/many", "output_mode": "content"})
    show("grep x over 300 files of a 200-character line", answer,
         f"GREP-05: a search answers {len(answer[1])} characters, over 50,000"
         if len(answer[1]) > 50200 else None)
    answer = call(app, "glob", {"pattern": "**/*", "path": "/many"})
    show("glob **/* over 600 long names", answer,
         f"LIST-04: a listing answers {len(answer[1])} characters, over 50,000"
         if len(answer[1]) > 50200 else None)

print()
print(f"{len(seen)} departure(s) reproduced" if seen else "none reproduced")
sys.exit(1 if seen else 0)
