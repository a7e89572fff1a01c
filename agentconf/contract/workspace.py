"""What an implementation is given to work in."""

from dataclasses import dataclass, field
from pathlib import Path

from .limits import DEFAULT_LIMITS, Limits


@dataclass(frozen=True, slots=True)
class Workspace:
    """The root a tool system works in, and where it may write.

    >>> ws = Workspace(root=Path("/srv/project"))
    >>> ws.write_roots == (Path("/srv/project"),)
    True
    """

    root: Path
    write_roots: tuple[Path, ...] = ()
    limits: Limits = field(default=DEFAULT_LIMITS)

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))
        if not self.write_roots:
            object.__setattr__(self, "write_roots", (self.root,))
        else:
            object.__setattr__(self, "write_roots", tuple(Path(p) for p in self.write_roots))
