"""The one place paths are judged: where a path really leads, and opening it link-free.

`Jail.locate` walks the path one component at a time from the root (or from `/` for an absolute
path), reading every symbolic link it meets and carrying on from the link's target; a component
that does not exist is kept as it is, and a later `..` removes it. The result is the real place
the path names, judged against the root by whole components (so `root_evil` is not in `root`).

Nothing is then opened by its path string. `Jail.folder` walks the located components again from
an open descriptor of the root, each step with O_NOFOLLOW: if a link was swapped in after the
walk, the open fails instead of following it. Names are never expanded (`~` is a folder name) and
a leading `@` is an ordinary character.
"""

import contextlib
import errno
import os
import stat
from dataclasses import dataclass

from .envelope import Refused, bad_argument

MAX_LINKS_FOLLOWED = 40  # as the kernel's own ELOOP limit
NAME_MAX = 255
DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True, slots=True)
class Place:
    """A located path: its components below the root, every link already followed."""

    parts: tuple[str, ...]
    names_a_folder: bool  # the caller wrote a trailing slash
    broken: Refused | None  # met on the way, reported only once the place is known to be inside

    @property
    def shown(self) -> str:
        return "/".join(self.parts) or "."

    @property
    def name(self) -> str:
        return self.parts[-1] if self.parts else "."


class Jail:
    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self.root_parts = tuple(part for part in self.root.split("/") if part)
        self.root_fd = os.open(self.root, DIRECTORY_FLAGS)

    # ---- judging -------------------------------------------------------------------------

    def locate(self, raw: str, field: str = "path") -> Place:
        _check_text(raw, field)
        position: list[str] = [] if raw.startswith("/") else list(self.root_parts)
        pending = [part for part in reversed(raw.split("/"))]
        followed = 0
        broken: Refused | None = None
        while pending:
            part = pending.pop()
            if part in ("", "."):
                continue
            if part == "..":
                if position:
                    position.pop()
                continue
            here = "/" + "/".join([*position, part])
            try:
                info = os.lstat(here)
            except FileNotFoundError:
                position.append(part)
                continue
            except OSError as error:
                broken = broken or _refusal_for(error, "/".join(position[len(self.root_parts):]))
                position.append(part)
                continue
            if stat.S_ISLNK(info.st_mode):
                followed += 1
                if followed > MAX_LINKS_FOLLOWED:
                    self._confine(position)
                    raise Refused("IO_ERROR", "The path runs through a loop of symbolic links.")
                target = os.readlink(here)
                if target.startswith("/"):
                    position = []
                pending.extend(reversed(target.split("/")))
                continue
            position.append(part)
        self._confine(position)
        inside = tuple(position[len(self.root_parts):])
        return Place(parts=inside, names_a_folder=raw.endswith("/"), broken=broken)

    def _confine(self, position: list[str]) -> None:
        if tuple(position[: len(self.root_parts)]) != self.root_parts:
            raise Refused("OUTSIDE_ROOT", "Refused: that path leads outside the workspace.")

    # ---- opening without following links ---------------------------------------------------

    def folder(self, parts: tuple[str, ...], make: bool = False) -> int:
        """A new descriptor of the folder `parts` below the root; `make` creates missing ones."""
        fd = os.dup(self.root_fd)
        try:
            for index, part in enumerate(parts):
                try:
                    step = os.open(part, DIRECTORY_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    if not make:
                        missing = "/".join(parts[: index + 1])
                        raise Refused("NOT_FOUND", f"No folder exists at {missing}.") from None
                    _check_name(part)
                    with contextlib.suppress(FileExistsError):  # a concurrent call made it
                        os.mkdir(part, 0o777, dir_fd=fd)
                    step = os.open(part, DIRECTORY_FLAGS, dir_fd=fd)
                except OSError as error:
                    raise _refusal_for(error, "/".join(parts[: index + 1])) from None
                os.close(fd)
                fd = step
            return fd
        except BaseException:
            os.close(fd)
            raise

    def lstat(self, place: Place) -> os.stat_result | None:
        """What the located entry is (a link is reported as a link), or None when it is missing."""
        if not place.parts:
            return os.fstat(self.root_fd)
        try:
            parent = self.folder(place.parts[:-1])
        except Refused as refusal:
            if refusal.code == "NOT_FOUND":
                return None
            raise
        try:
            return os.stat(place.name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise _refusal_for(error, place.shown) from None
        finally:
            os.close(parent)


def _check_text(raw: str, field: str) -> None:
    if "\x00" in raw:
        raise bad_argument(field, "a path without NUL characters", "text with a NUL character",
                           "A path cannot hold a NUL character.")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise bad_argument(field, "valid Unicode text", "text with a lone surrogate",
                           "The path is not valid Unicode text.") from None


def _check_name(part: str) -> None:
    if len(os.fsencode(part)) > NAME_MAX:
        raise Refused("IO_ERROR", f"A name in the path is longer than {NAME_MAX} bytes.")


def _refusal_for(error: OSError, shown: str) -> Refused:
    if error.errno == errno.ENOTDIR:
        return Refused("NOT_A_DIRECTORY", f"Part of the path is a file, not a folder: {shown}.")
    if error.errno == errno.ENOENT:
        return Refused("NOT_FOUND", f"Nothing exists at {shown}.")
    if error.errno == errno.ELOOP:
        return Refused("IO_ERROR", f"A symbolic link was met where none may be: {shown}.")
    if error.errno in (errno.EACCES, errno.EPERM):
        return Refused("IO_ERROR", f"The system does not allow access to {shown}.")
    if error.errno == errno.ENAMETOOLONG:
        return Refused("IO_ERROR", "The path or one of its names is too long for the system.")
    return Refused("IO_ERROR", f"The system failed on {shown}: {os.strerror(error.errno or 0)}.")
