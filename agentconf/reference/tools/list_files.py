"""list_files: every file and folder under a folder, as paths relative to the root, sorted.

Folders end in `/`. A symbolic link is listed by its own name and never followed, so a link out
of the root reveals nothing and a link loop costs nothing. The walk goes folder by folder in
sorted order (a folder sorts as `name/`), which lists the paths in plain string order, and stops
as soon as the output budget is spent, so a tree of a million files costs one budget of work.
"""

import asyncio
import fnmatch
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..context import ToolContext
from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.paths import os_error


class ListFilesArgs(Arguments):
    path: str = Field(default=".", description="Folder to list, relative to the root.")
    pattern: str | None = Field(
        default=None,
        description="Glob that paths must match, e.g. `*.py` or `src/*.ts` (`*` also crosses "
        "folders). Matched against the path relative to the root and against the file name.",
    )


async def list_files(args: ListFilesArgs, ctx: ToolContext) -> Envelope:
    return await asyncio.to_thread(_list, args, ctx)


def _list(args: ListFilesArgs, ctx: ToolContext) -> Envelope:
    target = ctx.read_target(args.path)
    try:
        info = os.stat(target.real)
    except OSError as error:
        raise os_error(error, target.shown) from error
    if not stat.S_ISDIR(info.st_mode):
        raise ToolError(
            "NOT_A_DIRECTORY",
            f"`{target.shown}` is a file, not a folder. Read it with read_file, or list its "
            "folder.",
        )
    budget = ctx.limits.max_output_chars
    lines: list[str] = []
    used = 0
    for entry in walk_relative(target.real, ctx.root):
        if args.pattern and not _matches(entry, args.pattern):
            continue
        if used + len(entry) + 1 > budget:
            lines.append(
                f"[listing cut after {len(lines)} entries to stay within {budget} characters; "
                "list a subfolder or give a pattern to see the rest]"
            )
            break
        lines.append(entry)
        used += len(entry) + 1
        if ctx.stop_requested():
            break
    if lines:
        return ok("\n".join(lines))
    if args.pattern:
        return ok(f"No paths under `{target.shown}` match `{args.pattern}`.")
    return ok(f"The folder `{target.shown}` is empty.")


def walk_relative(folder: Path, root: Path) -> Iterator[str]:
    """Paths under `folder`, relative to `root`, in string order; folders end with `/`.

    Depth-first with an explicit stack, so a very deep tree cannot exhaust Python's recursion.
    """
    stack = [iter(_sorted_entries(folder))]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        path, is_folder = entry
        relative = path.relative_to(root).as_posix()
        if is_folder:
            yield relative + "/"
            stack.append(iter(_sorted_entries(path)))
        else:
            yield relative


def _sorted_entries(folder: Path) -> list[tuple[Path, bool]]:
    """(path, is a real folder) for each entry; links count as files, so they are not followed."""
    try:
        with os.scandir(folder) as scan:
            entries = [(Path(e.path), e.is_dir(follow_symlinks=False)) for e in scan]
    except OSError:
        return []  # a folder we may not open is listed but not descended
    return sorted(entries, key=lambda item: item[0].name + ("/" if item[1] else ""))


def _matches(entry: str, pattern: str) -> bool:
    path = entry.rstrip("/")
    name = path.rsplit("/", 1)[-1]
    return fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(name, pattern)


DECLARATION = Declaration(
    name="list_files",
    description=(
        "List the files and folders under a folder of the workspace (the root by default), "
        "recursively, as sorted paths relative to the root; folders end with `/`. Symbolic links "
        "are listed but not followed. Use pattern to filter, e.g. `*.py`."
    ),
    kind=ToolKind.READ,
    handler=list_files,
    args_model=ListFilesArgs,
)
