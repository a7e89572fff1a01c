"""apply_patch: add, update, move and delete several files in one call, all or nothing.

@clarvis/agent-tools: a multi-file patch stages every change and commits or rolls back together;
the format is Codex's (sandbox/patch.py). Every path is confined like write_file's before anything
is read, every file's change is computed in memory before anything is written, and the commit
(sandbox/atomic.replace_all) puts back what it had done if a later file fails: a failing hunk in
the third file leaves the first two byte-identical. Each updated file keeps its own line endings,
BOM and final-newline state outside the changed lines (eol.py). No read guard: a hunk's context
lines show the model knows the text it changes, and a hunk that no longer matches fails.
"""

import asyncio
import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, invalid_argument, ok
from ..sandbox import patch
from ..sandbox.atomic import Change, replace_all
from ..sandbox.binary import looks_binary
from ..sandbox.diff import diff_stats, unified_diff
from ..sandbox.files import read_regular
from ..sandbox.paths import Target
from ..validation import describe_value
from .edit_file import EDIT_MAX_BYTES

FIELD = "patch"


class ApplyPatchArgs(Arguments):
    patch: str = Field(
        min_length=1,
        description=(
            "The patch, from `*** Begin Patch` to `*** End Patch`: sections `*** Add File: P` "
            "(lines prefixed `+`), `*** Delete File: P`, `*** Update File: P` (optionally "
            "`*** Move to: Q`) with hunks of ` ` context, `-` removed and `+` added lines, "
            "each hunk optionally after an `@@ line above it` header. Paths are relative to "
            "the workspace root."
        ),
    )


@dataclass(frozen=True, slots=True)
class _Planned:
    changes: list[Change]
    line: str  # `M a.txt`, for the answer
    old: str  # text before ("" for an added file), for the diff
    new: str  # text after ("" for a deleted file)
    shown: str


async def apply_patch(args: ApplyPatchArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_apply, args.patch, ctx)


def _apply(text: str, ctx: ToolContext) -> Envelope:
    ops = _parse(text)
    targets = {path: ctx.write_target(path, field=FIELD) for path in _paths(ops)}
    _require_distinct(ops, targets)
    with contextlib.ExitStack() as held:
        for real in sorted({target.real for target in targets.values()}, key=str):
            held.enter_context(ctx.session.locks.hold(real))
        planned = [_plan(op, targets) for op in ops]
        try:
            replace_all([change for plan in planned for change in plan.changes])
        except OSError as error:
            raise ToolError(
                "IO_ERROR",
                f"The patch could not be written ({os.strerror(error.errno or 0)}); no file was "
                "changed. Check the paths and permissions, then apply it again.",
            ) from error
        for plan in planned:
            for change in plan.changes:
                if change.data is not None:  # this session wrote it, so it knows the content
                    ctx.session.ledger.record(change.path, os.stat(change.path))
    return _answer(planned)


def _parse(text: str) -> list[patch.FileOp]:
    try:
        return patch.parse(text)
    except patch.PatchSyntaxError as error:
        message = f"`patch` is not in the apply_patch format: {error}."
        raise invalid_argument(
            FIELD, "a patch from *** Begin Patch to *** End Patch", describe_value(text),
            message + " Fix that line and send the whole patch again.") from None


def _paths(ops: list[patch.FileOp]) -> list[str]:
    return [path for op in ops for path in (op.path, op.move_to) if path is not None]


def _require_distinct(ops: list[patch.FileOp], targets: dict[str, Target]) -> None:
    seen: dict[Path, str] = {}
    for path in _paths(ops):
        real = targets[path].real
        if real in seen:
            message = (
                f"`{targets[path].shown}` is named twice in the patch; give each file one "
                "section (several hunks may follow one `*** Update File:`)."
            )
            raise invalid_argument(FIELD, "each file once", describe_value(path), message)
        seen[real] = path


def _plan(op: patch.FileOp, targets: dict[str, Target]) -> _Planned:
    """What one section changes, computed without touching the disk; raises ToolError."""
    target = targets[op.path]
    if op.action == "add":
        _require_absent(target, "Add File")
        _require_folder_parents(target)
        text = patch.added_text(op)
        return _Planned([Change(target.real, text.encode())], f"A {target.shown}", "", text,
                        target.shown)
    original = _read_text(target)
    if op.action == "delete":
        return _Planned([Change(target.real, None)], f"D {target.shown}", original, "",
                        target.shown)
    try:
        updated = patch.apply_hunks(original, op.hunks, target.shown)
    except patch.HunkError as error:
        raise ToolError(error.code, f"{error} No file was changed.") from None
    if op.move_to is None:
        return _Planned([Change(target.real, updated.encode())], f"M {target.shown}", original,
                        updated, target.shown)
    destination = targets[op.move_to]
    _require_absent(destination, "Move to")
    _require_folder_parents(destination)
    return _Planned(
        [Change(destination.real, updated.encode()), Change(target.real, None)],
        f"R {target.shown} -> {destination.shown}", original, updated, destination.shown,
    )


def _require_absent(target: Target, section: str) -> None:
    if os.path.lexists(target.real):
        raise ToolError(
            "ALREADY_EXISTS",
            f"`{section}: {target.shown}` names a path that exists already. Use "
            "`*** Update File:` to change it, or choose another name. No file was changed.",
        )


def _require_folder_parents(target: Target) -> None:
    folder = target.real.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise ToolError(
            "NOT_A_DIRECTORY",
            f"`{target.shown}` would go under a file, not a folder. Fix the path; no file was "
            "changed.",
        )


def _read_text(target: Target) -> str:
    if not target.exists:
        raise ToolError(
            "NOT_FOUND",
            f"`{target.shown}` does not exist, so the patch cannot update or delete it. Check "
            "the path with list_files; no file was changed.",
        )
    data, _ = read_regular(target.real, target.shown, EDIT_MAX_BYTES)
    if looks_binary(data, complete=True):
        raise ToolError(
            "BINARY_FILE",
            f"`{target.shown}` looks binary (NUL bytes or not UTF-8), so a text patch cannot "
            "change it. No file was changed.",
        )
    return data.decode("utf-8")


def _answer(planned: list[_Planned]) -> Envelope:
    diffs = [unified_diff(plan.old, plan.new, plan.shown) for plan in planned]
    diff = "".join(part for part in diffs if part)
    stats = diff_stats(diff)
    count = f"{len(planned)} file{'' if len(planned) == 1 else 's'}"
    listing = "\n".join(f"  {plan.line}" for plan in planned)
    return ok(
        f"Applied the patch to {count}:\n{listing}\n\n{diff}".rstrip("\n"),
        summary=f"Patched {count} (+{stats.added} -{stats.removed})",
        diff=diff or None,
    )


DECLARATION = Declaration(
    name="apply_patch",
    description=(
        "Change several files at once with a patch: add, update (by hunks of context, removed "
        "and added lines), move and delete files. All or nothing: if any part fails, no file "
        "changes. Each file keeps its own line endings."
    ),
    kind=ToolKind.EDIT,
    handler=apply_patch,
    args_model=ApplyPatchArgs,
    destructive=True,
    idempotent=False,
)
