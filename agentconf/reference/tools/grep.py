"""grep{pattern, path?, include?}: search file contents under the root, bounded while streaming.

Two engines with one output format, `path:line:text` per match, paths relative to the root, files
in path order:

- ripgrep from the `ripgrep` wheel (Claude Code greps with rg). The pattern goes after
  `--` so `-e`-style patterns stay patterns (Claude Code); `--follow` is never passed, so links met
  while recursing are not followed; `--sort path` keeps the order deterministic.
- a streaming pure-Python fallback, used when rg is missing or the config asks for it: line by
  line, never a whole-file read, so a 1 GB log costs one line of memory (dskcode's "grep on 100M
  logs blows up memory").

Shared semantics: hidden files are searched and ignore files are not honoured (the fallback has no
.gitignore engine, so neither engine uses one), VCS folders are skipped. A file whose first 64 KiB
hold a NUL byte is binary and skipped; a NUL found later stops that file's search (rg's own rule).
An explicitly named path is resolved (links followed) and confined to the root before either
engine sees it. Known differences: rg's regex dialect is Rust's (no look-around or
back-references), the fallback's is Python's; the fallback splits lines longer than 1 MiB.
"""

import asyncio
import os
import re
import shutil
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..declare import Arguments, Declaration
from ..results import ToolError, ok
from ..sandbox.bounding import READ_CHUNK_BYTES, StreamBound, bound_text, pump

if TYPE_CHECKING:
    from ..context import ToolContext

Engine = Literal["rg", "python"]

SKIPPED_DIRS = (".git", ".hg", ".svn")
BINARY_PROBE_BYTES = 64 * 1024
MAX_LINE_BYTES = 1024 * 1024
# What rg says, exiting 2, when a filter left no file to search.
RG_NOTHING_SEARCHED = "No files were searched"
# Kept short: these notes ride along with results the model asked for.
NOTE_CHARS = 400


class GrepArgs(Arguments):
    pattern: str = Field(min_length=1, description="Regular expression to search for.")
    path: str | None = Field(
        default=None, description="Folder or file to search, relative to the root (default: all)."
    )
    include: str | None = Field(
        default=None, min_length=1, description="Glob the file names must match, e.g. `*.py`."
    )


def find_rg() -> str | None:
    """The rg of the `ripgrep` wheel: beside this interpreter (a venv's bin), else on PATH."""
    beside = Path(sys.executable).parent / "rg"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("rg")


def choose_engine(preference: str) -> tuple[Engine, str | None]:
    """`auto` takes rg when it is installed; `python` forces the fallback; `rg` requires rg."""
    if preference not in ("auto", "rg", "python"):
        raise ValueError(f"grep engine must be auto, rg or python, not {preference!r}")
    rg = None if preference == "python" else find_rg()
    if preference == "rg" and rg is None:
        raise RuntimeError("grep engine 'rg' was asked for but no rg executable was found")
    return ("rg", rg) if rg else ("python", None)


class Search:
    """What a search found: the bounded output, and the files it could not read."""

    def __init__(self, capacity: int) -> None:
        self.output = StreamBound(capacity)
        self.matched = False
        self.problems: list[str] = []


async def handler(args: GrepArgs, ctx: "ToolContext") -> Envelope:
    shown = "the workspace"
    target = ctx.root
    if args.path is not None:
        confined = ctx.read_target(args.path)
        target = confined.real
        shown = shown if confined.shown == "." else confined.shown
        if not confined.exists:
            raise ToolError("NOT_FOUND", f"Cannot search {shown}: it does not exist.")
    kind = _kind_of(target, shown)
    if kind == "file" and _starts_binary(target):
        return ok(f"No matches: {shown} is a binary file, so it was skipped.")
    relative = ctx.shown(target)
    engine, rg = choose_engine(ctx.grep_engine)
    search = Search(ctx.limits.max_output_chars)
    if engine == "rg":
        assert rg is not None
        await _search_with_rg(rg, ctx.root, relative, args, search)
    else:
        await _search_in_python(ctx.root, relative, args, search, ctx.stop_requested)
    return _answer(shown, search)


def _kind_of(target: Path, shown: str) -> Literal["file", "dir"]:
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        message = f"Cannot search {shown}: it does not exist."
        raise ToolError("NOT_FOUND", message) from None
    except OSError as error:
        message = f"Cannot search {shown}: {error.strerror}. Check the path and its permissions."
        raise ToolError("IO_ERROR", message) from None
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "file"
    # A FIFO or device would block the search or stream forever.
    raise ToolError(
        "INVALID_ARGS",
        f"Cannot search {shown}: it is not a regular file or folder. Pass a folder or a file.",
    )


def _starts_binary(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return b"\0" in handle.read(BINARY_PROBE_BYTES)
    except OSError:
        return False  # the engine reports the unreadable file in its own words


def _answer(shown: str, search: Search) -> Envelope:
    notes = ""
    if search.problems:
        problems = bound_text("\n".join(search.problems), NOTE_CHARS)
        notes = f"\n\nSome files could not be searched:\n{problems}"
    if not search.matched:
        # The pattern is not echoed: the model knows it, and a pattern that is itself sensitive
        # (a token searched for) should not come back as if it had been found.
        return ok(f"No matches for this pattern in {shown}.{notes}")
    return ok(search.output.render() + notes)


# ---------------------------------------------------------------- ripgrep


def rg_command(rg: str, relative: str, args: GrepArgs) -> list[str]:
    command = [rg, "--line-number", "--no-heading", "--with-filename", "--color", "never"]
    command += ["--sort", "path", "--hidden", "--no-ignore", "--no-config"]
    command += [f"--glob=!{name}" for name in SKIPPED_DIRS]
    if args.include:
        command.append(f"--glob={args.include}")
    # No path for the whole root: rg then prints `a.txt`, not `./a.txt`. With no path rg would
    # search a piped stdin, which is why stdin is always /dev/null (a device rg does not read).
    return [*command, "--", args.pattern, *([] if relative == "." else [relative])]


async def _search_with_rg(
    rg: str, root: Path, relative: str, args: GrepArgs, search: Search
) -> None:
    process = await asyncio.create_subprocess_exec(
        *rg_command(rg, relative, args),
        cwd=root,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        errors = StreamBound(NOTE_CHARS)
        await asyncio.gather(
            pump(process.stdout, search.output),
            pump(process.stderr, errors),
        )
        status = await process.wait()
    finally:
        if process.returncode is None:  # cancelled: the search must not outlive the call
            process.kill()
            await process.wait()
    search.matched = search.output.total_chars > 0
    _judge_rg_status(status, errors.render().strip(), args, search)


def _judge_rg_status(status: int, message: str, args: GrepArgs, search: Search) -> None:
    """rg exits 0 on a match, 1 on none (not an error: Claude Code), 2 on any error."""
    if status != 2 or RG_NOTHING_SEARCHED in message:
        return  # an empty folder, or an include that no file matches, is simply no match
    if not search.matched and "regex" in message:
        raise ToolError("INVALID_ARGS", f"Invalid pattern {args.pattern!r}: {message}")
    if not search.matched and "error parsing glob" in message:
        raise ToolError(
            "INVALID_ARGS",
            f"Invalid include glob {args.include!r}: {message}\nFix the glob, e.g. `*.py`.",
        )
    unreadable_only = all("os error" in line for line in message.splitlines() if line.strip())
    if not (search.matched or unreadable_only):
        raise ToolError("IO_ERROR", f"grep failed: {message}\nCheck the path and try again.")
    search.problems.append(message)


# ---------------------------------------------------------------- pure Python


async def _search_in_python(
    root: Path, relative: str, args: GrepArgs, search: Search, call_stopped: Callable[[], bool]
) -> None:
    try:
        regex = re.compile(args.pattern)
    except re.error as error:
        raise ToolError(
            "INVALID_ARGS",
            f"Invalid pattern {args.pattern!r}: {error}.\n"
            "Fix the regular expression and call again.",
        ) from None
    include = include_matcher(args.include)
    stop = threading.Event()

    def stopped() -> bool:
        return stop.is_set() or call_stopped()

    try:
        await asyncio.to_thread(python_search, root, relative, regex, include, search, stopped)
    finally:
        # A cancelled await leaves the worker thread running; the flag ends it at the next line.
        stop.set()


def python_search(
    root: Path,
    relative: str,
    regex: re.Pattern[str],
    include: Callable[[str], bool],
    search: Search,
    stopped: Callable[[], bool],
) -> None:
    start = root / relative
    files = [relative] if start.is_file() else _walk(root, relative, include)
    for name in files:
        if stopped():
            return
        try:
            with open(root / name, "rb", buffering=READ_CHUNK_BYTES) as handle:
                search_file(handle, name, regex, search, stopped)
        except OSError as error:
            search.problems.append(f"{name}: {error.strerror}")


def _walk(root: Path, relative: str, include: Callable[[str], bool]) -> Iterator[str]:
    """Regular files under `relative`, depth first in name order, links and VCS folders skipped.

    A stack of folder listings rather than recursion, so a very deep tree cannot overflow it.
    """
    stack = [(relative, _listing(root / relative))]
    while stack:
        folder, entries = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        name = entry.name if folder == "." else f"{folder}/{entry.name}"
        if entry.is_symlink():
            continue
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in SKIPPED_DIRS:
                stack.append((name, _listing(root / name)))
        elif entry.is_file(follow_symlinks=False) and include(name):
            yield name


def _listing(folder: Path) -> Iterator[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return iter(sorted(entries, key=lambda entry: entry.name))
    except OSError:
        return iter(())


def include_matcher(glob: str | None) -> Callable[[str], bool]:
    """Like rg: a glob without `/` matches the file name, one with `/` the root-relative path."""
    if glob is None:
        return lambda _name: True
    regex = glob_regex(glob)
    if "/" in glob:
        return lambda name: regex.fullmatch(name) is not None
    return lambda name: regex.fullmatch(name.rsplit("/", 1)[-1]) is not None


def search_file(
    handle: IO[bytes],
    name: str,
    regex: re.Pattern[str],
    search: Search,
    stopped: Callable[[], bool],
) -> None:
    """Feeds `name:line:text` for every matching line of one open file; memory is one line."""
    if b"\0" in handle.peek(BINARY_PROBE_BYTES)[:BINARY_PROBE_BYTES]:  # type: ignore[attr-defined]
        return
    prefix = name.encode("utf-8", "surrogateescape") + b":"
    number = 1
    while not stopped() and (line := handle.readline(MAX_LINE_BYTES)):
        if b"\0" in line:
            return
        body = line[:-1] if line.endswith(b"\n") else line
        if regex.search(body.decode("utf-8", "replace")):
            search.matched = True
            search.output.feed(prefix + str(number).encode() + b":" + body + b"\n")
        if line.endswith(b"\n"):
            number += 1


def glob_regex(glob: str) -> re.Pattern[str]:
    """A gitignore-style glob as a regex: `**` crosses folders, `*` and `?` do not, `{a,b}`."""
    out: list[str] = []
    index = 0
    depth = 0
    while index < len(glob):
        char = glob[index]
        if glob.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if glob.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", index + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = glob[index + 1 : end].replace("\\", "\\\\")
                out.append("[^" + body[1:] + "]" if body.startswith("!") else "[" + body + "]")
                index = end
        elif char == "{":
            out.append("(?:")
            depth += 1
        elif char == "}" and depth:
            out.append(")")
            depth -= 1
        elif char == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out) + ")" * depth)


DECLARATION = Declaration(
    name="grep",
    description=(
        "Search file contents under the workspace root with a regular expression. Answers one "
        "`path:line:text` line per match, paths relative to the root. Binary files are skipped. "
        "`path` narrows the search to a folder or file, `include` to file names matching a glob."
    ),
    kind=ToolKind.READ,
    handler=handler,
    args_model=GrepArgs,
)
