"""A real temp dir with a workspace root, canaries outside it, and one reference session.

Everything a test touches lives under pytest's `tmp_path`: `root/` is the workspace, `outside/`
and `root_evil/` (the sibling-prefix folder) hold canaries that must never change.
"""

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.contract import Workspace
from agentconf.reference import ReferenceToolSystem, create

SECRET = "canary-secret-4f1c"


@dataclass
class Box:
    """A temp sandbox: the root, the canaries beside it, and one session of the reference."""

    root: Path
    outside: Path
    sibling: Path
    system: ReferenceToolSystem

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.call_raw(tool, arguments)

    def call_raw(self, tool: Any, arguments: Any) -> dict[str, Any]:
        return asyncio.run(self.system.call_tool(tool, arguments))

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode()
        path.write_bytes(content)
        return path

    def read(self, relative: str) -> bytes:
        return (self.root / relative).read_bytes()

    def read_first(self, path: str) -> None:
        """Reads `path` so that the session may edit or overwrite it."""
        answer = self.call("read_file", path=path)
        assert answer["success"], answer

    def outside_state(self) -> dict[str, bytes]:
        """Every file outside the root, for "nothing changed out there" checks."""
        state: dict[str, bytes] = {}
        for base in (self.outside, self.sibling):
            for path in sorted(base.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    state[str(path)] = path.read_bytes()
            state[f"{base} listing"] = "\n".join(sorted(p.name for p in base.rglob("*"))).encode()
        return state


def make_box(tmp_path: Path, **config: Any) -> Box:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    sibling = tmp_path / "root_evil"
    for folder in (root, outside, sibling):
        folder.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text(f"{SECRET}\n")
    (sibling / "secret.txt").write_text(f"{SECRET}\n")
    return Box(root, outside, sibling, create(Workspace(root=root), **config))
