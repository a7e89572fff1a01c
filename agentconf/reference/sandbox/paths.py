"""Path safety, written once: mention stripping, resolution against the root, confinement.

dskcode (`sandbox.ts`): strip a leading `@` inside path resolution so no tool can forget it, and
confine on *real* paths, so a link cannot carry a path out of the root. Python's `realpath` would
silently give up on a link loop and cannot say whether a link dangles, so the walk below is ours:
it follows links the way the kernel does, keeps the tail that does not exist yet (a write may
create it), and lets `..` after a missing folder climb lexically, which is what the kernel would do
once those folders were created. Confinement compares whole path components, never string
prefixes, so `root_evil/` is outside `root/` and `..cache` is an ordinary child.
"""

import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..results import ToolError, invalid_argument
from ..validation import describe_value

# The kernel's own limit on links followed in one lookup (Linux MAXSYMLINKS).
MAX_LINK_HOPS = 40


@dataclass(frozen=True, slots=True)
class Target:
    """A path argument after resolution and confinement."""

    real: Path  # every existing component resolved; a missing tail appended as given
    shown: str  # how messages name it: relative to the root, never an absolute outside path
    exists: bool
    through_dangling_link: bool  # a link on the way points at something that does not exist


def strip_mention(raw: str) -> str:
    """`@src/a.py` is how a prompt mentions `src/a.py` (dskcode); the marker is not part of it."""
    return raw[1:] if raw.startswith("@") else raw


def resolve_in_root(raw: str, root: Path) -> Path:
    """`raw` as an absolute path, still lexical: mention stripped, relative paths joined to the
    root, an absolute path kept as it is, `~` left literal (never the home folder)."""
    return root / strip_mention(raw)


def shown_path(real: Path, root: Path) -> str:
    """`real` relative to `root` in POSIX form, `.` for the root itself."""
    return real.relative_to(root).as_posix() if real != root else "."


def is_within(real: Path, root: Path) -> bool:
    return real == root or root in real.parents


def real_root(root: Path) -> Path:
    """The root's own real path; the root may itself be reached through a link (`/tmp` on macOS)."""
    return Path(os.path.realpath(root))


def confine_read(raw: str, root: Path, *, field: str = "path") -> Target:
    """Resolves `raw` and requires it to be inside `root` (a real path), or raises ToolError."""
    return _confine(raw, root, (root,), field=field)


def confine_write(
    raw: str, root: Path, write_roots: Sequence[Path], *, field: str = "path"
) -> Target:
    """Resolves `raw` for writing: inside one of `write_roots`, never through a dangling link."""
    target = _confine(raw, root, write_roots, field=field)
    if target.through_dangling_link:
        reason = (
            f"`{target.shown}` is reached through a symbolic link that points at nothing; "
            "writing would create the link's target."
        )
        raise ToolError(
            "PERMISSION_DENIED",
            f"{reason} Write to a real path instead.",
            denial={"source": "policy", "reason": reason, "hint": "Write to a real path."},
        )
    return target


def _confine(raw: str, root: Path, allowed: Sequence[Path], *, field: str) -> Target:
    _reject_unusable(raw, field)
    real, exists, dangling = _walk(resolve_in_root(raw, root), raw)
    if not any(is_within(real, allowed_root) for allowed_root in allowed):
        raise ToolError("OUTSIDE_ROOT", _outside_message(raw, field))
    shown = shown_path(real, root) if is_within(real, root) else cut(raw)
    return Target(real=real, shown=shown, exists=exists, through_dangling_link=dangling)


def _reject_unusable(raw: str, field: str) -> None:
    """A NUL byte or a lone surrogate cannot reach the OS; say so instead of raising ValueError."""
    problem = None
    if "\x00" in raw:
        problem = "contains a NUL byte, which no file name can hold"
    else:
        try:
            os.fsencode(raw)
        except UnicodeEncodeError:
            problem = "contains characters that cannot be encoded as a file name"
    if problem:
        message = f"`{field}` {problem}; pass a plain path relative to the workspace root."
        raise invalid_argument(field, "file path", describe_value(raw), message)


def _walk(path: Path, raw: str) -> tuple[Path, bool, bool]:
    """Follows `path` component by component: (real path, exists, went through a dangling link).

    Each pending component remembers whether it came from a link's text, so that a missing
    component can tell "the caller names a new file" from "a link points at nothing".
    """
    pending = [(name, False) for name in path.parts[1:]]
    current = Path(path.anchor)
    missing = dangling = False
    hops = 0
    while pending:
        name, from_link = pending.pop(0)  # pathlib has already dropped `.` components
        if name == "..":
            current = current.parent
            continue
        candidate = current / name
        if missing:
            current = candidate
            continue
        try:
            info = os.lstat(candidate)
        except FileNotFoundError:
            missing, dangling, current = True, from_link, candidate
            continue
        except OSError as error:
            raise os_error(error, cut(raw)) from error
        if stat.S_ISLNK(info.st_mode):
            hops += 1
            if hops > MAX_LINK_HOPS:
                raise os_error(OSError(errno.ELOOP, "too many links"), cut(raw))
            link = Path(os.readlink(candidate))
            if link.is_absolute():
                current = Path(link.anchor)
            pending[:0] = [(part, True) for part in link.parts[1 if link.is_absolute() else 0 :]]
            continue
        if pending and not stat.S_ISDIR(info.st_mode):
            raise ToolError(
                "NOT_A_DIRECTORY",
                f"`{cut(raw)}` goes through `{name}`, which is a file, not a folder. "
                "Fix the folder part of the path.",
            )
        current = candidate
    return current, not missing, dangling


def cut(raw: str, width: int = 60) -> str:
    """The caller's own path, cut, for messages about paths that did not resolve inside the root."""
    return raw if len(raw) <= width else raw[: width - 1] + "…"


def _outside_message(raw: str, field: str) -> str:
    # An absolute outside path is not echoed: messages never show absolute paths outside the root.
    named = f"`{field}`" if os.path.isabs(strip_mention(raw)) else f"`{cut(raw)}`"
    return (
        f"{named} resolves outside the workspace root (through `..`, an absolute path or a "
        "symbolic link). Use a path inside the workspace, relative to its root."
    )


# errno -> (code, what happened); anything else is an IO_ERROR that names the errno.
_ERRNO_CODES: dict[int, tuple[str, str]] = {
    errno.ENOENT: ("NOT_FOUND", "does not exist. Check the path with list_files."),
    errno.EISDIR: ("IS_DIRECTORY", "is a folder, not a file. Use list_files to see inside it."),
    errno.ENOTDIR: ("NOT_A_DIRECTORY", "has a file where a folder should be. Fix the folder part."),
    errno.EACCES: (
        "PERMISSION_DENIED",
        "is not accessible: the file system denied permission. Ask the user, or use another file.",
    ),
    errno.EPERM: (
        "PERMISSION_DENIED",
        "is not accessible: the operation is not permitted. Ask the user, or use another file.",
    ),
    errno.ELOOP: (
        "IO_ERROR",
        "is part of a symbolic-link loop and cannot be resolved. Use a path without the loop, or "
        "check the links with list_files.",
    ),
    errno.ENAMETOOLONG: ("IO_ERROR", "is too long for the file system; use a shorter name."),
    errno.EEXIST: ("ALREADY_EXISTS", "already exists. Read and edit it, or choose another name."),
    errno.ENOSPC: ("IO_ERROR", "cannot be written: the disk is full. Tell the user."),
    errno.EROFS: ("PERMISSION_DENIED", "is on a read-only file system. Write somewhere else."),
}


def os_error(error: OSError, shown: str) -> ToolError:
    """The contract's words for an OSError about the path the caller knows as `shown`.

    The OSError's own text is not used: it carries absolute paths.
    """
    code, what = _ERRNO_CODES.get(
        error.errno or 0, ("IO_ERROR", f"failed: {os.strerror(error.errno or 0)}.")
    )
    extra = {}
    if code == "PERMISSION_DENIED":
        extra["denial"] = {"source": "filesystem", "reason": what, "hint": None}
    return ToolError(code, f"`{shown}` {what}", **extra)
