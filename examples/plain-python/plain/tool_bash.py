"""bash: runs a command with `bash -c` in the workspace root, in a process group of its own.

The call lasts until the command's output ends (a background job that keeps it open keeps the
call waiting) or the time limit passes; then, and after every command, the whole group is killed
with SIGKILL at once. stdin is a pipe that nothing is ever written to. stdout and stderr share one
budget of MAX_OUTPUT_CHARS, each kept head and tail while it streams.
"""

import contextlib
import os
import selectors
import signal
import subprocess
import time
from typing import Any

from . import limits
from .clip import BYTES_PER_CHAR, ByteKeeper
from .envelope import Envelope, Refused, bad_argument, done
from .workspace import Workspace

SCHEMA = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "description": "Shell command, run by bash -c."},
        "timeout_ms": {"type": "integer", "minimum": 1, "maximum": limits.SHELL_TIMEOUT_MAX_MS,
                       "description": f"Time limit (default {limits.SHELL_TIMEOUT_MS})."},
    },
    "required": ["command"],
    "additionalProperties": False,
}
DESCRIPTION = "Runs a bash command in the workspace folder and returns its exit status and output."
AFTER_KILL_S = 0.3  # how long output already written is still collected after a kill
CHUNK = 1 << 16


def bash(ws: Workspace, args: dict[str, Any]) -> Envelope:
    command = args["command"]
    if "\x00" in command:
        raise bad_argument("command", "text without NUL", "text with a NUL character",
                           "A command cannot hold a NUL character.")
    try:
        command.encode("utf-8")
    except UnicodeEncodeError:
        raise bad_argument("command", "valid Unicode text", "text with a lone surrogate",
                           "The command is not valid Unicode text.") from None
    limit_ms = args.get("timeout_ms", limits.SHELL_TIMEOUT_MS)
    process = subprocess.Popen(
        ["bash", "-c", command], cwd=ws.jail.root, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    ws.shell_started(process.pid)
    assert process.stdout is not None and process.stderr is not None
    out = ByteKeeper(BYTES_PER_CHAR * limits.MAX_OUTPUT_CHARS)
    err = ByteKeeper(BYTES_PER_CHAR * limits.MAX_OUTPUT_CHARS)
    keepers = {process.stdout.fileno(): out, process.stderr.fileno(): err}
    try:
        finished = _collect(process, keepers, time.monotonic() + limit_ms / 1000)
    finally:
        _kill_group(process.pid)
        process.wait()
        ws.shell_ended(process.pid)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    out_text, err_text = _share(out, err)
    if not finished:
        raise Refused("TIMEOUT", f"Stopped after {limit_ms} ms, the time limit; the command "
                      "and everything it started were killed.\n" + _both(out_text, err_text))
    status = process.returncode
    if status == 0:
        return done(_success(out_text, err_text))
    if status < 0:
        name = signal.Signals(-status).name
        head = f"Ended by signal {name} ({-status}), shell status {128 - status}."
    else:
        head = f"Exit status {status}."
    raise Refused("NONZERO_EXIT", head + "\n" + _both(out_text, err_text))


def _collect(process: subprocess.Popen[bytes], keepers: dict[int, ByteKeeper],
             deadline: float) -> bool:
    """Reads both streams to their end; False when the deadline came first."""
    with selectors.DefaultSelector() as selector:
        for fd in keepers:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                _kill_group(process.pid)
                _drain(selector, keepers, time.monotonic() + AFTER_KILL_S)
                return False
            _pump(selector, keepers, left)
    try:
        process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:  # it closed its output but runs on
        return False
    return True


def _pump(selector: selectors.BaseSelector, keepers: dict[int, ByteKeeper], wait: float) -> None:
    for key, _ in selector.select(wait):
        chunk = os.read(key.fd, CHUNK)
        if chunk:
            keepers[key.fd].feed(chunk)
        else:
            selector.unregister(key.fd)


def _drain(selector: selectors.BaseSelector, keepers: dict[int, ByteKeeper],
           until: float) -> None:
    while selector.get_map() and time.monotonic() < until:
        _pump(selector, keepers, max(0.0, until - time.monotonic()))


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def _share(out: ByteKeeper, err: ByteKeeper) -> tuple[str, str]:
    """Splits the budget: a stream shorter than half keeps all, the other gets the rest."""
    budget = limits.MAX_OUTPUT_CHARS
    out_size, err_size = _size(out), _size(err)
    if out_size + err_size <= budget:
        return out.text(budget), err.text(budget)
    half = budget // 2
    if out_size < half:
        return out.text(out_size), err.text(budget - out_size)
    if err_size < half:
        return out.text(budget - err_size), err.text(err_size)
    return out.text(half), err.text(budget - half)


def _size(keeper: ByteKeeper) -> int:
    if not keeper.complete:
        return keeper.total  # far over any budget: more bytes than were kept
    return len(keeper.text(keeper.total + 1))


def _success(out: str, err: str) -> str:
    if not out and not err:
        return "(The command printed nothing.)"
    if not err:
        return out
    return (out + "\n" if out else "") + "[stderr]\n" + err


def _both(out: str, err: str) -> str:
    return f"[stdout]\n{out or '(nothing)'}\n[stderr]\n{err or '(nothing)'}"
