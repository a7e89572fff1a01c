"""Broken: bash keeps only the head of a long output (kills TRUNCATE-02)."""

import subprocess
from typing import Any

from _wrap import OneToolBroken, fail, ok


class HeadOnlyTruncation(OneToolBroken):
    async def broken_call(self, name: str, arguments: Any) -> dict[str, Any] | None:
        if name != "bash" or not isinstance(arguments, dict):
            return None
        command = arguments.get("command")
        if not isinstance(command, str) or "timeout_ms" in arguments:
            return None
        run = subprocess.run(["bash", "-c", command], cwd=self.root, capture_output=True,
                             stdin=subprocess.DEVNULL, timeout=30, check=False)
        output = (run.stdout + run.stderr).decode("utf-8", "replace")
        limit = self.limits.max_output_chars
        if len(output) > limit:
            output = output[:limit] + f"\n[... {len(output) - limit} characters truncated]"
        if run.returncode:
            return fail("NONZERO_EXIT", f"exit code {run.returncode}\n{output}")
        return ok(output or "(no output)")


def create(workspace: Any) -> HeadOnlyTruncation:
    return HeadOnlyTruncation(workspace)
