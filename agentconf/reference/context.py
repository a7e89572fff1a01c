"""ToolContext: the narrow view of the world a handler gets (agentkit: tools stay out of the loop).

It carries the workspace (root and write roots as real paths), the limits, the session, a
catalogue of the tools (for tool_search: what a search finds and what it could reveal, never the
registry itself), the call's deadline and a cancel flag, and the one way to turn a path argument
into a confined path. A handler that needs anything else is doing too much.
"""

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from agentconf.contract import Limits, Workspace

from .sandbox import paths
from .session import Session


class Found(Protocol):
    """What tool_search shows of a tool it finds."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def deferred(self) -> bool: ...
    @property
    def input_schema(self) -> dict[str, Any]: ...


class Catalogue(Protocol):
    """The narrow view of the registry tool_search needs (the registry is one)."""

    def search(self, query: str) -> Sequence[Found]: ...
    def deferred(self) -> Sequence[Found]: ...


@dataclass(frozen=True, slots=True)
class ToolContext:
    workspace: Workspace
    root: Path  # the root's real path
    write_roots: tuple[Path, ...]  # real paths
    limits: Limits
    session: Session
    catalogue: Catalogue
    grep_engine: str = "auto"  # "rg", "python" or "auto" (rg when it runs, else Python)
    deadline: float = float("inf")  # time.monotonic() by which the call must be done
    cancelled: threading.Event = field(default_factory=threading.Event)

    def read_target(self, raw: str, *, field: str = "path") -> paths.Target:
        """`raw` resolved and confined to the root, for reading."""
        return paths.confine_read(raw, self.root, field=field)

    def write_target(self, raw: str, *, field: str = "path") -> paths.Target:
        """`raw` resolved and confined to the write roots, for writing."""
        return paths.confine_write(raw, self.root, self.write_roots, field=field)

    def shown(self, real: Path) -> str:
        """How messages name a real path inside the root."""
        return paths.shown_path(real, self.root)

    def remaining(self) -> float:
        """Seconds left before the deadline (may be infinite)."""
        return self.deadline - time.monotonic()

    def stop_requested(self) -> bool:
        """True once the call was cancelled or ran out of time: long loops should end early."""
        return self.cancelled.is_set() or self.remaining() <= 0
