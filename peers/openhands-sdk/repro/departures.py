"""openhands-tools 1.58.2: the departures the matrix shows, reproduced on the SDK alone.

    .cache/peers/openhands-sdk/venv/bin/python peers/openhands-sdk/repro/departures.py

No kit and no adapter: a real OpenHands conversation loop. An Agent with the terminal, file
editor, grep, glob and apply_patch tools runs in a LocalConversation over a temp folder; its LLM
is the SDK's own scripted TestLLM (openhands.sdk.testing), which answers the tool calls below and
then `finish`. `conversation.run()` executes them as it executes a model's, and each answer is
the tool message the model would read next (`to_llm_message()`). Exit 1 when any departure is
reproduced; each line printed says what was seen.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from openhands.sdk import Agent, LocalConversation, Tool
from openhands.sdk.event import AgentErrorEvent, ObservationEvent
from openhands.sdk.llm import Message, MessageToolCall, TextContent
from openhands.sdk.testing import TestLLM
from openhands.tools.apply_patch import ApplyPatchTool
from openhands.tools.file_editor import FileEditorTool
from openhands.tools.glob import GlobTool
from openhands.tools.grep import GrepTool
from openhands.tools.terminal import TerminalTool

TOOLS = [TerminalTool, FileEditorTool, GrepTool, GlobTool, ApplyPatchTool]


RUNNING: list[str] = []


def watch(event: Any) -> None:
    """A conversation callback: right after the timed-out sleep's answer, is the sleep alive?"""
    if isinstance(event, ObservationEvent) and "sleep 37" in json.dumps(
            event.observation.model_dump(mode="json"), default=str):
        RUNNING.extend(subprocess.run(["pgrep", "-f", "^sleep 37$"], capture_output=True,
                                      text=True).stdout.split())


def run(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[bool, str]]:
    """(success, text) of each call, as the model reads it after conversation.run()."""
    def turn(i: int, name: str, args: dict[str, Any]) -> Message:
        return Message(role="assistant", content=[TextContent(text="")], tool_calls=[
            MessageToolCall(id=f"call_{i}", name=name, arguments=json.dumps(args),
                            origin="completion")])
    script = [turn(i, n, a) for i, (n, a) in enumerate(calls)]
    script.append(turn(len(calls), "finish", {"message": "done"}))
    agent = Agent(llm=TestLLM.from_messages(script), tools=[Tool(name=t.name) for t in TOOLS])
    conversation = LocalConversation(agent=agent, workspace=str(root), visualizer=None,
                                     callbacks=[watch])
    try:
        conversation.send_message("go")
        conversation.run()
        answers = []
        for event in conversation.state.events:
            if (isinstance(event, (ObservationEvent, AgentErrorEvent))
                    and event.tool_name != "finish"):
                text = "".join(c.text for c in event.to_llm_message().content
                               if isinstance(c, TextContent))
                answers.append((isinstance(event, ObservationEvent)
                                and not event.observation.is_error, text))
        return answers
    finally:
        conversation.close()


seen: list[str] = []


def show(label: str, answer: tuple[bool, str], departure: str | None) -> None:
    print(f"{label}: {'ok' if answer[0] else 'error'} {answer[1][:200]!r}")
    if departure:
        seen.append(departure)
        print(f"  -> {departure}")


with tempfile.TemporaryDirectory() as base:
    root, outside = Path(base, "root"), Path(base, "outside")
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("outside secret\n")
    (root / "link_out").symlink_to(outside, target_is_directory=True)
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    (root / "f.txt").write_text("alpha\nbeta\n")
    (root / "a.txt").write_text("-e\n--version\ncolor 12\n")
    (root / "exists.txt").write_text("old\n")
    numbers = "\n".join(map(str, range(50000)))
    (root / "big.txt").write_text(f"HEAD-MARK\n{numbers}\nTAIL-MARK\n")
    tmp_canary = Path(tempfile.gettempdir(), f"openhands-sdk-repro-{os.getpid()}.txt")

    answers = run(root, [
        ("file_editor", {"command": "create", "path": f"{base}/escape.txt", "file_text": "x"}),
        ("file_editor", {"command": "view", "path": str(root / "link_out" / "secret.txt")}),
        ("file_editor", {"command": "view", "path": str(root / ".." / "outside" / "secret.txt")}),
        ("file_editor", {"command": "create", "path": str(tmp_canary), "file_text": "x"}),
        ("glob", {"pattern": "**/*", "path": str(root)}),
        ("grep", {"pattern": "secret", "path": str(root / "link_out")}),
        ("file_editor", {"command": "str_replace", "path": str(root / "crlf.txt"),
                         "old_str": "two", "new_str": "TWO"}),
        ("file_editor", {"command": "str_replace", "path": str(root / "f.txt"),
                         "old_str": "  alpha", "new_str": "x"}),
        ("file_editor", {"command": "create", "path": str(root / "exists.txt"),
                         "file_text": "new\n"}),
        ("grep", {"pattern": "--version"}),
        ("grep", {"pattern": "colou?r [0-9]+"}),
        ("terminal", {"command": "sleep 2; echo first-done"}),
        ("terminal", {"command": "sleep 3; echo settled"}),
        ("terminal", {"command": "cat big.txt"}),
        ("terminal", {"command": "echo out-mark; echo err-mark >&2; (exit 42)"}),
        ("terminal", {"command": "sleep 37", "timeout": 1}),
        ("apply_patch", {"patch": "*** Begin Patch\n*** Add File: inside.txt\n+in\n"
                                  "*** Add File: ../escape2.txt\n+out\n*** End Patch\n"}),
        ("grep", {"pattern": "hit", "path": str(root / "nope")}),
        ("glob", {"pattern": "*", "path": str(root / "nope")}),
    ])
    sleeping = sorted(set(RUNNING))
    labels = iter(answers)

    a = next(labels)
    show("create <base>/escape.txt (outside the workspace)", a,
         "ESCAPE: the file editor creates a file outside the workspace"
         if Path(base, "escape.txt").exists() else None)
    a = next(labels)
    show("view link_out/secret.txt", a, "ESCAPE: the file editor reads through a folder link out"
         if "outside secret" in a[1] else None)
    a = next(labels)
    show("view <root>/../outside/secret.txt", a, "ESCAPE: the file editor reads ../ out of the root"
         if "outside secret" in a[1] else None)
    a = next(labels)
    show(f"create {tmp_canary}", a, "ESCAPE: the file editor writes in the system's /tmp"
         if tmp_canary.exists() else None)
    tmp_canary.unlink(missing_ok=True)
    a = next(labels)
    show("glob **/* of the root", a, "glob descends a folder link out and lists what is outside"
         if "secret.txt" in a[1] else None)
    a = next(labels)
    show("grep secret in link_out", a, "grep searches a folder link out (the folder outside)"
         if a[0] and "outside" in a[1] else None)
    a = next(labels)
    show("str_replace in a CRLF file", a, "an edit rewrites every CRLF of the file as LF"
         if (root / "crlf.txt").read_bytes() == b"one\nTWO\nthree\n" else None)
    a = next(labels)
    show("str_replace '  alpha' (not in the file)", a,
         "an old_str that does not occur is stripped and retried: a wrongly indented one replaces"
         if (root / "f.txt").read_text() == "x\nbeta\n" else None)
    a = next(labels)
    show("create over an existing file", a,
         "create never overwrites a file: there is no whole-file write"
         if (root / "exists.txt").read_text() == "old\n" and not a[0] else None)
    a = next(labels)
    show("grep --version", a, "grep takes a pattern starting with - as its option (GNU grep's "
         "--version text is listed as files)" if "GNU grep" in a[1] else None)
    a = next(labels)
    show("grep colou?r [0-9]+", a, "without ripgrep the pattern is a basic regular expression: "
         "? and + are literal, the match is missed" if "No files found" in a[1] else None)
    a = next(labels)
    show("terminal, first command of a fresh pane: sleep 2; echo first-done", a,
         "the first command of a fresh terminal can answer at once, 'completed with exit code 0', "
         "before it has run (no first-done)" if a[0] and "first-done" not in a[1] else None)
    a = next(labels)
    print(f"terminal: sleep 3; echo settled (lets the pane finish): {a[1][:120]!r}")
    a = next(labels)
    show("terminal: cat of 50,000 lines", a, "long output keeps its tail only: the head is cut"
         if "TAIL-MARK" in a[1] and "HEAD-MARK" not in a[1] else None)
    a = next(labels)
    # Not a departure since the kit's SHELL-02 ends with (exit 42): a top-level `exit` ends
    # this persistent shell (the answer is then about the reset), which the check no longer asks.
    show("terminal: ...; (exit 42)", a, "a non-zero exit is not shown with its code and output"
         if not ("42" in a[1] and "out-mark" in a[1]) else None)
    a = next(labels)
    show("terminal: sleep 37 with timeout 1", a,
         f"a command over its timeout is not killed: it runs on (pids {sleeping}) and the answer "
         "is a success" + (", even 'completed with exit code 0'" if "exit code 0" in a[1] else "")
         if a[0] and sleeping else None)
    a = next(labels)
    show("apply_patch adding inside.txt and ../escape2.txt", a,
         "a refused patch leaves its earlier files written: not all or nothing"
         if not a[0] and (root / "inside.txt").exists() else None)
    for tool in ("grep", "glob"):
        a = next(labels)
        show(f"{tool} in a missing folder", a,
             "a missing folder is refused as 'not a valid directory': no word of its cause (not "
             "found), nothing a code can be read from" if "not a valid directory" in a[1]
             else None)
    time.sleep(0.1)

# SYMLINK-05: a link loop anywhere in the root fails a whole search of it.
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    (root / "own.txt").write_text("needle inside\n")
    (root / "loop_a").symlink_to("loop_b")
    (root / "loop_b").symlink_to("loop_a")
    a = run(root, [("grep", {"pattern": "needle"})])[0]
    show("grep needle in a root that holds a link loop", a,
         "a link loop in the root fails the whole search ('Symlink loop from ...')"
         if "Symlink loop" in a[1] else None)

print(f"\n{len(seen)} departure(s) reproduced")
sys.exit(1 if seen else 0)
