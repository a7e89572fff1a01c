"""What every adapter offers the client. Adapters speak the implementation's own names; mapping
canonical names and classifying error codes is the client's and the profile's job.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class AdapterEnv:
    """Where and how an implementation runs for one workspace."""

    root: Path
    home: Path
    tmp: Path
    call_timeout_s: float = 10.0
    start_timeout_s: float = 20.0
    # Where a subprocess's stderr is kept, to show when it fails to start or crashes.
    log_dir: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)


class Adapter(Protocol):
    """One live session of an implementation under test.

    Every method either returns or raises `ImplementationFailure` within its timeout; a hung or dead
    implementation is killed (with its process group) before the exception is raised.
    """

    name: str
    version: str | None

    def list_tools(self) -> list[dict[str, Any]]: ...

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        """The envelope as a dict (MCP results already mapped to envelope fields)."""
        ...

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        """Several calls in flight at once, answers in the order of `calls`."""
        ...

    def close(self) -> None: ...
