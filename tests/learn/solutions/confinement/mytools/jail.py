"""Paths: where a path the model gives leads, judged against the root, and opening folders.

`locate` joins the path to the root and normalises it; the result must be the root or below it,
compared component by component (so `root_evil` is not inside `root`). `~` is a folder name like
any other. Symbolic links are not looked at yet: that is the next lesson.
"""

import os
from dataclasses import dataclass

from .envelope import Refused, bad_argument

NAME_MAX = 255
DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


@dataclass(frozen=True, slots=True)
class Place:
    """A located path: its components below the root."""

    parts: tuple[str, ...]
    names_a_folder: bool  # the caller wrote a trailing slash
    broken: Refused | None  # a problem met on the way, reported by the tool

    @property
    def shown(self) -> str:
        return "/".join(self.parts) or "."

    @property
    def name(self) -> str:
        return self.parts[-1] if self.parts else "."


class Jail:
    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        # The root as given and as it really is: an absolute path may use either spelling.
        self.spellings = (os.path.abspath(root), self.root)
        self.root_fd = os.open(self.root, DIRECTORY_FLAGS)

    def locate(self, raw: str, field: str = "path") -> Place:
        if "\x00" in raw:
            raise bad_argument(field, "a path without NUL characters", "text with a NUL character",
                               "A path cannot hold a NUL character.")
        for base in self.spellings:
            full = os.path.normpath(os.path.join(base, raw))
            relative = os.path.relpath(full, base)
            if relative != ".." and not relative.startswith("../"):
                parts = () if relative == "." else tuple(relative.split("/"))
                return Place(parts=parts, names_a_folder=raw.endswith("/"), broken=None)
        raise Refused("OUTSIDE_ROOT", "Refused: that path leads outside the workspace.")

    def folder(self, parts: tuple[str, ...], make: bool = False) -> int:
        """A new descriptor of the folder `parts` below the root; `make` creates missing ones."""
        path = os.path.join(self.root, *parts)
        if make:
            os.makedirs(path, exist_ok=True)
        try:
            return os.open(path, DIRECTORY_FLAGS)
        except FileNotFoundError:
            raise Refused("NOT_FOUND", f"No folder exists at {'/'.join(parts)}.") from None

    def lstat(self, place: Place) -> os.stat_result | None:
        """What the located entry is, or None when it is missing."""
        try:
            return os.stat(os.path.join(self.root, *place.parts))
        except FileNotFoundError:
            return None
