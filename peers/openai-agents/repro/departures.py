"""openai-agents 0.24.0: the departures the matrix shows, reproduced on the SDK alone.

    .cache/peers/openai-agents/venv/bin/python peers/openai-agents/repro/departures.py

Tools run as the SDK's Runner runs them: Runner.run of a SandboxAgent (its default capabilities)
on a UnixLocalSandboxClient session rooted at a temp folder, the SDK's own ScriptedModel making
one tool call. Nothing of the kit is imported. Exit 1 when any departure is reproduced; each line
printed says what was seen.
"""

import asyncio
import os
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from agents import RunConfig, Runner
from agents.run_config import SandboxRunConfig
from agents.sandbox import Manifest, SandboxAgent
from agents.sandbox.sandboxes.unix_local import UnixLocalSandboxClient
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tracing import set_tracing_disabled
from openai.types.responses import ResponseCustomToolCall

set_tracing_disabled(True)
seen: list[str] = []


def show(label: str, answer: str, departure: str | None) -> None:
    print(f"{label}: {answer[:200]!r}")
    if departure:
        seen.append(departure)
        print(f"  -> {departure}")


async def call(session: Any, name: str, payload: Any) -> str:
    """The text the model reads after one tool call, or 'RAISED ...' when the run raises."""
    call_id = f"call_{uuid.uuid4().hex}"
    if name == "apply_patch":  # a Responses custom tool: the model sends the patch text itself
        item: Any = ResponseCustomToolCall(type="custom_tool_call", call_id=call_id, name=name,
                                           input=payload)
    else:
        item = function_call(name, payload, call_id=call_id)
    model = ScriptedModel([[item], [assistant_message("done")]])
    try:
        result = await Runner.run(SandboxAgent(name="repro"), "go", run_config=RunConfig(
            model=model, sandbox=SandboxRunConfig(session=session)))
    except Exception as error:  # the contract's RESULT-04: a tool answers, it does not raise
        return f"RAISED {type(error).__name__}: {error}"
    outputs = [item.output for item in result.new_items if item.type == "tool_call_output_item"]
    return str(outputs[0])


def patch(*sections: str) -> str:
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def main() -> None:
    with tempfile.TemporaryDirectory() as base:
        root, outside = Path(base, "root"), Path(base, "outside")
        root.mkdir()
        outside.mkdir()
        (root / "link_out").symlink_to(outside, target_is_directory=True)
        session = await UnixLocalSandboxClient().create(manifest=Manifest(root=str(root)))
        await session.start()

        # RESULT-01/04, REGISTRY-04: a call of a tool the agent does not have
        answer = await call(session, "no_such_tool", {})
        show("no_such_tool {}", answer,
             "RESULT-01/04, REGISTRY-04: an unknown tool raises ModelBehaviorError out of "
             "Runner.run (the run fails) instead of answering the model"
             if answer.startswith("RAISED ModelBehaviorError") else None)

        # RESULT-04: a NUL byte in a command
        answer = await call(session, "exec_command", {"cmd": "echo a\x00b"})
        show("exec_command: echo a<NUL>b", answer,
             "RESULT-04: a NUL byte in the command raises (ValueError: embedded null byte) out of "
             "the tool and Runner.run fails with UserError"
             if answer.startswith("RAISED UserError") else None)

        # SHELL-11: a command killed by a signal
        answer = await call(session, "exec_command", {"cmd": "echo before; kill -KILL $$"})
        show("exec_command: echo before; kill -KILL $$", answer,
             "SHELL-11: a signal is 'Process exited with code -9': neither named nor 128+9"
             if "Process exited with code -9" in answer else None)

        # SHELL-10: a background process holding the output keeps the call to yield_time_ms
        started = time.monotonic()
        answer = await call(session, "exec_command",
                            {"cmd": "sleep 5 & echo started", "yield_time_ms": 3000})
        took = time.monotonic() - started
        show(f"exec_command: sleep 5 & echo started (yield 3 s; answered in {took:.1f} s)",
             answer,
             "SHELL-10: the shell exited at once, but the call waits for the output to close "
             "(up to yield_time_ms, 10 s by default) and says the process still runs"
             if took >= 2.5 and "Process running with session ID" in answer else None)

        # SHELL-14: a command given no timeout is never stopped: the call answers after
        # yield_time_ms (10 s by default) that it still runs, and it goes on running
        (root / "t").mkdir()
        answer = await call(session, "exec_command", {"cmd": "echo $$ > t/shell.pid; sleep 45"})
        await asyncio.sleep(1.0)
        pid = int((root / "t/shell.pid").read_text())
        show("exec_command: sleep 45 (no timeout given): alive after the answer", answer[:90],
             "SHELL-14: no default timeout: the call answers 'Process running with session ID' "
             "and the command goes on running" if alive(pid) else None)
        if alive(pid):
            os.killpg(os.getpgid(pid), signal.SIGKILL) if os.getpgid(pid) != os.getpgid(0) \
                else os.kill(pid, signal.SIGKILL)

        # CANCEL-01 (and the shell's cwd): `sh -c CMD` is run as `sh -c "cd ROOT && CMD"` from
        # "/" (_shell_workspace_process_context); a CMD starting `a & ...` backgrounds the cd
        answer = await call(session, "exec_command", {"cmd": "true & pwd"})
        show("exec_command: true & pwd", answer,
             "CANCEL-01/cwd: after a leading `x &` the rest of the command runs in / (the `cd "
             "ROOT &&` the session prepends is backgrounded with x): the kit's cancel check's "
             "pid files are never written in the root"
             if answer.rstrip().endswith("\n/") else None)

        # CANCEL-01 itself: a cancelled Runner.run leaves the command running
        (root / "c").mkdir()
        command = "echo $$ > c/shell.pid; sleep 300 & echo $! > c/bg.pid; wait"
        task = asyncio.ensure_future(call(session, "exec_command", {"cmd": command}))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if (root / "c/bg.pid").is_file() and (root / "c/bg.pid").read_text().strip():
                break
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.sleep(1.0)
        pids = [int((root / f"c/{name}.pid").read_text()) for name in ("shell", "bg")]
        living = [pid for pid in pids if alive(pid)]
        show(f"exec_command cancelled while `{command}` runs: alive after 1 s", str(living),
             "CANCEL-01: cancelling the run leaves the command and its background child running"
             if living else None)
        for pid in living:
            os.kill(pid, signal.SIGKILL)

        # PATCH-01: all or nothing
        (root / "a.txt").write_text("a\n")
        (root / "b.txt").write_text("b\n")
        (root / "c.txt").write_text("c\n")
        answer = await call(session, "apply_patch", patch(
            "*** Update File: a.txt\n-a\n+A\n", "*** Update File: b.txt\n-b\n+B\n",
            "*** Update File: c.txt\n-not in c\n+C\n"))
        changed = [name for name, old in (("a.txt", "a\n"), ("b.txt", "b\n"))
                   if (root / name).read_text() != old]
        show(f"apply_patch a, b, then a hunk not in c (changed: {changed})", answer,
             "PATCH-01: a patch whose third section fails leaves the first two applied"
             if changed else None)

        # PATCH-03: a link out in the second section, after the first landed
        answer = await call(session, "apply_patch", patch(
            "*** Add File: inside.txt\n+in\n", "*** Add File: link_out/planted.txt\n+x\n"))
        show("apply_patch: add inside.txt, then link_out/planted.txt (a folder link out)",
             f"{answer} | inside.txt exists: {(root / 'inside.txt').exists()}, outside: "
             f"{sorted(os.listdir(outside))}",
             "PATCH-03: the link out is refused, but inside.txt of the same patch was created "
             "(nothing outside changed)" if (root / "inside.txt").exists() else None)

        # PATCH-02: an added file keeps its lines' final newline
        answer = await call(session, "apply_patch", patch("*** Add File: new.md\n+hello\n+world\n"))
        data = (root / "new.md").read_bytes()
        show(f"apply_patch: add new.md with +hello +world (holds {data!r})", answer,
             "PATCH-02: the added file lacks its last line's newline"
             if data == b"hello\nworld" else None)

        # PATCH-04: line endings
        (root / "bom-crlf.txt").write_bytes(b"\xef\xbb\xbfalpha\r\nbeta\r\n")
        answer = await call(session, "apply_patch",
                            patch("*** Update File: bom-crlf.txt\n-alpha\n+ALPHA\n"))
        show("apply_patch: replace the first line of a file starting with a BOM", answer,
             "PATCH-04: a hunk does not match the first line of a file with a BOM"
             if answer.startswith("Invalid Context") else None)
        (root / "mixed.txt").write_bytes(b"one\r\ntwo\r\nthree\nfour\r\n")
        answer = await call(session, "apply_patch",
                            patch("*** Update File: mixed.txt\n one\n+2\n two\n"))
        data = (root / "mixed.txt").read_bytes()
        show(f"apply_patch: a line added to a mixed-ending file (holds {data!r})", answer,
             "PATCH-04: an untouched LF line of a mixed file is rewritten as CRLF"
             if b"three\r\n" in data else None)

        await session.pty_terminate_all()
        await session.aclose()

    print(f"\n{len(seen)} departure(s) reproduced" if seen else "\nno departure reproduced")
    sys.exit(1 if seen else 0)


asyncio.run(main())
