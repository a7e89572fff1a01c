"""Small checks several suites share, written once (tests/architecture/test_no_duplicate_blocks.py
covers the suites too). Not a test module: pytest collects `test_*.py` only.

Two ways of saying "the path was rejected as outside the root" live here side by side, on
purpose: they answer for different clauses and do not judge the same answers, so each keeps the
verdicts of its suite.
"""

import re
from typing import Any

from agentconf.contract import ERROR_CODES
from agentconf.harness.verdicts.errors import not_applicable

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
    if result.success and result.refusal_unproven is not None:
        # The draft could not tell this tool's refusals from its successes: not judged.
        not_applicable(f"not judged: {result.request.tool}'s refusals: {result.refusal_unproven}"
                       f" ([unproven.{result.request.tool}])")
    assert result.success is False, f"{said}expected a refusal\n{result.evidence()}"
    if codes and code_read(result):
        assert result.error in codes, (
            f"{said}expected {' or '.join(codes)}, read {result.error}\n{result.evidence()}")


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
    refused(result, "OUTSIDE_ROOT")


def rejected_through_a_link(result: Any) -> None:
    """SYMLINK: a path that leaves the root through a link is refused, always (no virtual paths:
    the link's target is real). A write or edit played cold may meet a read-before-write guard
    first: NOT_READ rejects it as surely, and the read-first run of the same check shows what the
    guard was hiding."""
    allowed = ("OUTSIDE_ROOT", "NOT_READ") if result.request.tool in GUARDED_TOOLS else (
        "OUTSIDE_ROOT",)
    refused(result, *allowed)
