"""Broken: read_file confines the spelling, not the real path, so links lead out (kills
SYMLINK-09)."""

import os
from typing import Any

from _wrap import OneToolBroken, fail, ok


class NoRealpathRead(OneToolBroken):
    async def broken_call(self, name: str, arguments: Any) -> dict[str, Any] | None:
        if name != "read_file" or not isinstance(arguments, dict):
            return None
        path = arguments.get("path")
        if not isinstance(path, str) or "\x00" in path or set(arguments) != {"path"}:
            return None
        target = os.path.normpath(os.path.join(self.root, path))  # the bug: no realpath
        if target != str(self.root) and not target.startswith(str(self.root) + os.sep):
            return fail("OUTSIDE_ROOT", f"{path} is outside the workspace root.")
        if not os.path.isfile(target):
            return None
        with open(target, encoding="utf-8", errors="replace") as handle:
            return ok(handle.read())


def create(workspace: Any) -> NoRealpathRead:
    return NoRealpathRead(workspace)
