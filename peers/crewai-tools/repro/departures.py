"""Every departure of crewai-tools 1.15.30's file tools the kit reported, shown with crewAI's own
code and nothing of the kit: the tools made as adapter.py makes them, each call through crewAI's
`execute_single_native_tool_call` as an agent runs a model's tool call (or `tool.run`). One line
each, exit 1 when any shows.

    .cache/peers/crewai-tools/venv/bin/python peers/crewai-tools/repro/departures.py
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import threading
import uuid
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from crewai.utilities.agent_utils import (
    convert_tools_to_openai_schema,
    execute_single_native_tool_call,
)
from crewai_tools import DirectoryReadTool, FileReadTool, FileWriterTool

base = Path(tempfile.mkdtemp(prefix="repro-crewai-"))
root = base / "root"
root.mkdir()
(base / "outside").mkdir()
(base / "outside" / "secret.txt").write_text("outside secret\n")
os.chdir(root)  # DirectoryReadTool confines to the working folder; the kit calls in the root
tools = [FileReadTool(base_dir=str(root)), FileWriterTool(base_dir=str(root)), DirectoryReadTool()]
schemas, functions, _ = convert_tools_to_openai_schema(tools)
seen = []


def call(name: str, arguments: object) -> str:
    tool_call = SimpleNamespace(
        id=f"call_{uuid.uuid4().hex}",
        function=SimpleNamespace(name=name, arguments=json.dumps(arguments)),
    )
    with contextlib.redirect_stdout(io.StringIO()):  # crewAI's console panels
        done = execute_single_native_tool_call(
            tool_call,
            available_functions=functions,
            original_tools=tools,
            structured_tools=None,
            tools_handler=None,
            agent=None,
            task=None,
            crew=None,
            event_source=object(),
        )
    return str(done.result)


def check(clause: str, departed: bool, what: str, answer: object = None) -> None:
    shown = "" if answer is None else f"  <- {str(answer)[:150]!r}"
    print(f"{'DEPARTS' if departed else 'conforms'}  {clause}: {what}{shown}")
    if departed:
        seen.append(clause)


READ, WRITE, LIST = "read_a_files_content", "file_writer_tool", "list_files_in_directory"

# RESULT-04, VALIDATE-09: arguments that are not an object crash crewAI's own event
try:
    answer = call(READ, ["a.txt"])
    check("RESULT-04", False, "a JSON array for the arguments is answered", answer)
except Exception as error:  # the crash is the departure
    check(
        "RESULT-04",
        True,
        f"a JSON array for the arguments raises {type(error).__name__} inside "
        "execute_single_native_tool_call (ToolUsageStartedEvent) instead of answering "
        "(VALIDATE-09 too)",
        error,
    )
answer = call(READ, "a.txt")
check(
    "VALIDATE-09",
    "argument after ** must be a mapping" in answer,
    "a JSON string for the arguments is an exception's text, not a refusal of the arguments",
    answer,
)

# READ
(root / "words.txt").write_text(
    "".join(f"{w} word\n" for w in ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"])
)
answer = call(READ, {"file_path": "words.txt", "start_line": "2"})
check(
    "VALIDATE-02", answer.startswith("bravo"), "a string '2' for start_line is taken as 2", answer
)
answer = call(READ, {"file_path": "words.txt", "start_line": 2, "line_count": 0})
check(
    "READ-12",
    "bravo" in answer,
    "a window of 0 lines (end before start) answers the rest of the file",
    answer,
)
answer = call(READ, {"file_path": "words.txt", "start_line": 13, "line_count": 8})
check(
    "READ-11",
    answer.startswith("Error: Start line 13 exceeds") and "6" not in answer,
    "a window past the end is a failure that does not say how many lines there are",
    answer,
)
answer = call(READ, {"file_path": "words.txt"})
check(
    "READ-07", answer.startswith("alpha word"), "(SHOULD) lines come back without numbers", answer
)
(root / "blob.bin").write_bytes(b"BINTOKEN\x00\x01\x02 more BINTOKEN")
answer = call(READ, {"file_path": "blob.bin"})
check("READ-04", "BINTOKEN" in answer, "a file with NUL bytes is read as text", answer)
(root / "big.txt").write_text("large file line\n" * 20000)
answer = call(READ, {"file_path": "big.txt"})
check(
    "READ-05",
    len(answer) >= 320000,
    f"a 320,000-byte file comes back whole ({len(answer)} characters)",
)
(root / "empty.txt").write_text("")
answer = call(READ, {"file_path": "empty.txt"})
check("READ-09", answer == "", "an empty file reads as '' with nothing saying so", answer)
answer = call(READ, {"file_path": "missing.txt"})
check("RESULT-06", True, "(SHOULD) a failure names no next step", answer)
answer = call(LIST, {"directory": "nope"})
check(
    "RESULT-02",
    "is not a directory" in answer,
    "a missing folder is answered 'is not a directory': no word of its cause (not found), "
    "nothing a code can be read from",
    answer,
)
os.mkfifo(root / "fifo")
result: list[str] = []
worker = threading.Thread(
    target=lambda: result.append(call(READ, {"file_path": "fifo"})), daemon=True
)
worker.start()
worker.join(3)
check("READ-10", worker.is_alive(), "(SHOULD) a read of a FIFO does not answer within 3 s")
with open(root / "fifo", "w"):  # let the read end (ours)
    pass
(root / "fifo").unlink()

# LIST
(root / "sub").mkdir()
(root / "sub" / "b.txt").write_text("b\n")
answer = call(LIST, {"directory": str(root)})
check("LIST-01", str(root) in answer, "a listing names absolute paths", answer)
for i in range(2600):
    (root / "many").mkdir(exist_ok=True)
    (root / "many" / f"{i:06d}-{'n' * 50}.txt").write_text("")
answer = call(LIST, {"directory": "many"})
check(
    "LIST-04",
    len(answer) > 50200,
    f"a listing of 2,600 names is {len(answer)} characters, unbounded",
)

answer = call(WRITE, {"filename": ".", "content": "content", "overwrite": True})
check(
    "EDIT-17",
    "must not escape" in answer,
    "a write to the root itself is refused as escaping the directory (OUTSIDE_ROOT's words), "
    "not IS_DIRECTORY",
    answer,
)

# WRITE: file_writer_tool (filename relative to directory, overwrite true as the profile sends it)
answer = call(WRITE, {"filename": "v.txt", "content": "c", "overwrite": True, "Path": "y.txt"})
check(
    "VALIDATE-03",
    (root / "v.txt").exists(),
    "an unknown argument is dropped and the write done",
    answer,
)
(root / "old.txt").write_text("old\n")
answer = call(WRITE, {"filename": "old.txt", "content": "new\n", "overwrite": True})
check(
    "EDIT-13",
    (root / "old.txt").read_text() == "new\n",
    "(SHOULD) a file never read is overwritten",
    answer,
)
check("RESULT-05", True, "(SHOULD) a write answers one text, no summary beside it", answer)
# CONCUR-04: open(path, "w") truncates, then writes: a read meanwhile sees an empty or partial file
(root / "doc.txt").write_text("1" * 400_000)
torn = 0
stop = threading.Event()


def writer() -> None:
    i = 0
    while not stop.is_set():
        with contextlib.redirect_stdout(io.StringIO()):
            tools[1].run(filename="doc.txt", content="12"[i % 2] * 400_000, overwrite=True)
        i += 1


thread = threading.Thread(target=writer, daemon=True)
thread.start()
for _ in range(200):
    with contextlib.redirect_stdout(io.StringIO()):
        text = tools[0].run(file_path="doc.txt")
    torn += text.strip() not in ("1" * 400_000, "2" * 400_000)
stop.set()
thread.join()
check(
    "CONCUR-04", torn > 0, f"reads during writes: {torn} of 200 saw neither version whole (a race)"
)

check(
    "REGISTRY-05",
    not any("kind" in s["function"] for s in schemas),
    "(SHOULD) no tool declares its kind",
)
check("ANNOTATION-04", True, "(SHOULD) crewAI's function schemas carry no behaviour hints")

print(f"{len(seen)} departure(s) shown: {', '.join(dict.fromkeys(seen))}")
shutil.rmtree(base, ignore_errors=True)
sys.exit(1 if seen else 0)
