"""Broken: write_file confines by string prefix, so `root_evil/` passes (kills CONFINE-04)."""

import os
from typing import Any

from _wrap import OneToolBroken, fail, ok


class PrefixCheckWrite(OneToolBroken):
    async def broken_call(self, name: str, arguments: Any) -> dict[str, Any] | None:
        if name != "write_file" or not isinstance(arguments, dict):
            return None
        path, content = arguments.get("path"), arguments.get("content")
        if not (isinstance(path, str) and isinstance(content, str)) or "\x00" in path:
            return None
        target = os.path.abspath(os.path.join(self.root, path))
        if not target.startswith(str(self.root)):  # the bug: no separator after the root
            return fail("OUTSIDE_ROOT", f"{path} is outside the workspace root.")
        if os.path.isdir(target):
            return None
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(content)
        return ok(f"Wrote {len(content)} characters to {path}.")


def create(workspace: Any) -> PrefixCheckWrite:
    return PrefixCheckWrite(workspace)
