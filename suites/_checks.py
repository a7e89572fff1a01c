"""Small checks several suites share, written once (tests/architecture/test_no_duplicate_blocks.py
covers the suites too). Not a test module: pytest collects `test_*.py` only.

Two ways of saying "the path was rejected as outside the root" live here side by side, on
purpose: they answer for different clauses and do not judge the same answers, so each keeps the
verdicts of its suite.
"""

import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from agentconf.contract import ERROR_CODES
from agentconf.harness.target.processes import alive
from agentconf.harness.verdicts.errors import (
    ImplementationFailure,
    not_applicable,
    not_judged_unless_failed,
)
from agentconf.harness.verdicts.wording import unread_refusal

# The tools a read-before-write guard may refuse for an unread file.
GUARDED_TOOLS = ("write_file", "edit_file")


def shows_number(text: str, number: int) -> bool:
    """Whether `text` shows `number` as a number of its own, not as part of a longer one."""
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def read_first(client: Any, path: str, session: Any = None) -> None:
    """Reads `path` first where the implementation has read_file, so that read-before-edit lets
    the next write or edit through; a read of a locked or denied file is allowed. `session` (one
    started in a mode) reads instead of `client` when given."""
    if client.has("read_file"):
        (client if session is None else session).call("read_file", path=path)


def code_read(result: Any) -> bool:
    """Whether the profile read a contract error code from this answer (a spelling no profile
    mapped, `ENOENT`, is no code read: RESULT-02's matter, as an absent one is)."""
    return result.error in ERROR_CODES


def refused(result: Any, *codes: str, context: str = "") -> None:
    """A refusal judged apart from its code: the call failed, and where a code is read from the
    answer it is one of `codes`.

    A code that is read and wrong (NOT_FOUND for a path outside) fails the check's clause. A code
    that cannot be read at all is one fact about the implementation or its profile, charged once
    to RESULT-02 (which provokes every code and lists the texts it could not read), never to each
    clause whose refusal was right. What the refusal must leave on the disk each check asserts
    beside this."""
    said = f"{context}: " if context else ""
    if (unproven := result.unproven_refusal()) is not None:
        # Whether this success is a refusal is a premise the kit has not proven: what the check
        # judges beside this (the disk) still stands; a pass becomes "not judged".
        not_judged_unless_failed(unproven)
        return
    assert result.success is False, f"{said}expected a refusal\n{result.evidence()}"
    if codes and code_read(result):
        assert result.error in codes, (
            f"{said}expected {' or '.join(codes)}, read {result.error}\n{result.evidence()}")


def carried_by_the_refusal(result: Any) -> None:
    """Before a check reads what a refusal carries (its issues, its denial): an answer not proven
    to be a refusal owes none of it, so the check ends here, not judged, with whatever it
    judged before (the disk) having passed."""
    if (unproven := result.unproven_refusal()) is not None:
        not_applicable(unproven)


def took_effect(result: Any) -> bool:
    """Whether to judge the disk as after a success: a success in words that refuse, which no
    marker of the profile reads, is judged as the refusal its words say (nothing done), and the
    check, if it then passes, is not judged. A success in plain words from a tool whose refusals
    the draft could not tell from its successes is either: not judged at all (judged as a
    refusal, an edit that did its work failed for the change it made)."""
    if (unproven := result.unproven_refusal()) is not None:
        if unread_refusal(result.request.tool, result.data, result.request.arguments) is None:
            not_applicable(unproven)
        not_judged_unless_failed(unproven)
        return False
    return bool(result.success)


def rejected_as_outside(client: Any, result: Any) -> None:
    """CONFINE: a path that leads out of the root is refused with OUTSIDE_ROOT, nothing else.

    Except where the profile declares virtual absolute paths: `/x` is root/x by design there, so
    refusing is right and so is landing inside the root (a write must then be found there); the
    disk oracle has judged everything outside either way."""
    arguments = result.request.arguments
    path = arguments.get("path") if isinstance(arguments, dict) else None
    if client.judged_virtually(path):
        if result.success and result.request.tool == "write_file":
            assert (client.root / path.lstrip("/")).is_file(), result.evidence()
        return
    # The disk oracle judges every call as it answers (an escape ends the check there): a call
    # taken, not refused, reached nothing outside; the evidence says so.
    refused(result, "OUTSIDE_ROOT", context="nothing outside the root changed, yet" if (
        getattr(client, "oracle", None) is not None) else "")


def rejected_through_a_link(result: Any, *also: str) -> None:
    """SYMLINK: a path that leaves the root through a link is refused, always (no virtual paths:
    the link's target is real). A write or edit played cold may meet a read-before-write guard
    first: NOT_READ rejects it as surely, and the read-first run of the same check shows what the
    guard was hiding. `also`: codes of another true cause the check's path has."""
    allowed = ("OUTSIDE_ROOT", "NOT_READ") if result.request.tool in GUARDED_TOOLS else (
        "OUTSIDE_ROOT",)
    refused(result, *allowed, *also)


# ---- processes: what SHELL and EXEC judge of a program stopped on timeout

# Seconds a check waits for a killed process to disappear: long enough for a loaded machine.
GONE_WITHIN_S = 15.0
# Seconds a check watches the disk for a process that should be gone but appends every 0.1 s.
SURVIVOR_WATCH_S = 0.5
# A shell line whose grandchild records its pid, then appends a line to alive.log every 0.1 s;
# if nothing kills it, it ends by itself after 4 s (3 s past a 1 s timeout), saying so in the
# log, so that a tool that kills nothing fails in seconds. `sh -c` and `$$`, not `$BASHPID`: the
# tool's shell may be dash, and the check must mean the same there.
GRANDCHILD_LINE = ("sh -c 'echo $$ > grandchild.pid; i=0; while [ $i -lt 40 ]; do echo >> "
                   "alive.log; sleep 0.1; i=$((i+1)); done; echo outlived >> alive.log' & sleep 60")


def answered(call: Callable[[], Any], what: str) -> Any:
    """A hang (ended by the client's call timeout) is the failure these clauses are about."""
    try:
        return call()
    except ImplementationFailure as failure:
        pytest.fail(f"{what} did not answer: {failure}")


def wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + GONE_WITHIN_S
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


def started_pid(ws: Any, pidfile: str, result: Any) -> int:
    """The pid the check's command wrote as it started; n/a when it never ran (no `sh`, a
    refused program): what the check would judge did not happen."""
    if not ws.exists(pidfile):
        not_applicable(f"the command that starts the process to judge never ran (no {pidfile}):"
                       f" {result.data.strip()[:120]!r}")
    pid = int(ws.read_bytes(pidfile).decode().strip())
    ws.started.append(pid)  # stopped when the check ends, whatever it finds (harness/plugin.py)
    return pid


def grandchild_stopped(ws: Any, result: Any) -> None:
    """GRANDCHILD_LINE's grandchild is gone after the call's timeout, judged by its pid and on the
    disk (a pid another pid namespace shows as gone proves nothing alone: a survivor appends
    about five lines while this watches), and the answer is TIMEOUT."""
    pid = started_pid(ws, "grandchild.pid", result)
    assert wait_gone(pid), f"grandchild {pid} still runs after the timeout"
    logged = ws.read_bytes("alive.log") if ws.exists("alive.log") else b""
    time.sleep(SURVIVOR_WATCH_S)
    now = ws.read_bytes("alive.log") if ws.exists("alive.log") else b""
    assert b"outlived" not in now, "the grandchild lived on 3 s after the timeout, to its end"
    assert now == logged, f"the grandchild still writes after the timeout ({len(now)} bytes)"
    refused(result, "TIMEOUT")  # the kill first, then what the answer says of it


# ---- output floods: what SHELL and EXEC bound

# A stream of `size` characters, as the bounding checks flood a shell with.
FLOOD = "head -c {size} /dev/zero | tr '\\0' 'x'"


def can_produce(run: Callable[[str], Any], size: int) -> None:
    """The check's own scenario, confirmed before it may pass or fail: `run(shell_line)` (bash's
    command, or exec's `sh -c`) can make the flood it will be judged on (an emulated shell may
    have no /dev/zero, or cap its programs). A flood that cannot be made is n/a, never a pass
    that tested nothing."""
    command = f"{FLOOD.format(size=size)} | wc -c"
    counted = run(command)
    made = _numbers_said(counted.data, command)
    if not counted.success or size not in made:
        not_applicable(f"the shell did not make the {size} characters this check floods it "
                       f"with (`... | wc -c` answered {counted.data.strip()[:100]!r})")



def _numbers_said(text: str, command: str) -> list[int]:
    """The numbers in an answer that are not a piece of the command quoted back: a refusal that
    quotes `head -c 250000 ...` names the size without anything having counted it."""
    said = []
    for match in re.finditer(r"\d+", text):
        before = text[max(0, match.start() - 6):match.start()]
        if not (before.strip() and before + match.group() in command):
            said.append(int(match.group()))
    return said


def in_rounds(rounds: int, scenario: Callable[[int], str | None]) -> None:
    """A race judged over several rounds of its scenario (`scenario(n)` answers what went wrong
    in round n, or None). One round may miss the window a race needs, so one run would pass and
    the next fail; the check fails when any round showed it and says in how many, so the verdict
    is the same from run to run and reads as what it is: a race. A conformant implementation
    passes every round."""
    seen = [(number, why) for number in range(rounds) if (why := scenario(number)) is not None]
    assert not seen, (f"a race, seen in {len(seen)} of {rounds} rounds; the first, round "
                      f"{seen[0][0] + 1}: {seen[0][1]}")

