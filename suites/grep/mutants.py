"""GREP mutants: exit codes, option parsing, binary files and bounds."""

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, UnboundedFor, failed, succeeded


def _rg() -> str:
    return shutil.which("rg") or str(Path(sys.executable).parent / "rg")


def _is_grep(name: str, arguments: Any) -> bool:
    return (
        name == "grep" and isinstance(arguments, dict) and isinstance(arguments.get("pattern"), str)
    )


class NoMatchIsError(Mutant):
    """Treats grep's exit status 1 (no match) as a failure."""

    KILLS = ("GREP-02",)
    KNOWN_FROM = "Claude Code: execSync throws on grep's exit status 1"

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if _is_grep(name, arguments) and answer.get("success"):
            probe = subprocess.run(
                [_rg(), "--quiet", "--", arguments["pattern"], arguments.get("path") or "."],
                cwd=self.root,
                capture_output=True,
                timeout=30,
                check=False,
            )
            if probe.returncode == 1:
                return failed("IO_ERROR", "Command failed: rg exited with status 1")
        return answer


class DashPatternIsAnOption(Mutant):
    """Passes the pattern to rg without `--`, so `-foo` or `--files` is taken as an option."""

    KILLS = ("GREP-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_grep(name, arguments) and arguments["pattern"].startswith("-"):
            found = subprocess.run(
                [
                    _rg(),
                    "--line-number",
                    "--no-heading",
                    "--color",
                    "never",
                    arguments["pattern"],
                    arguments.get("path") or ".",
                ],
                cwd=self.root,
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
            if found.returncode == 2:
                return failed("INVALID_ARGS", found.stderr.strip() or "rg failed")
            return succeeded(found.stdout or "No matches.")
        return await super().call_tool(name, arguments)


class BinaryFilesSearched(Mutant):
    """Searches binary files as text (`rg --text`), pouring their bytes into the output."""

    KILLS = ("GREP-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if _is_grep(name, arguments) and answer.get("success"):
            found = subprocess.run(
                [
                    _rg(),
                    "--text",
                    "--line-number",
                    "--no-heading",
                    "--color",
                    "never",
                    "--",
                    arguments["pattern"],
                    arguments.get("path") or ".",
                ],
                cwd=self.root,
                capture_output=True,
                timeout=30,
                check=False,
            )
            if found.stdout:
                return {**answer, "data": found.stdout.decode("utf-8", "replace")}
        return answer


class GrepUnbounded(UnboundedFor):
    """Bounds every tool's output except grep's."""

    KILLS = ("GREP-05",)
    UNBOUNDED_TOOL = "grep"


class BadRegexRaises(Mutant):
    """Compiles the pattern with `re.compile` and lets `re.error` escape."""

    KILLS = ("GREP-06", "RESULT-04")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if _is_grep(name, arguments) and answer.get("error") == "INVALID_ARGS":
            import re

            re.compile(arguments["pattern"])
        return answer


class IncludeIgnored(Mutant):
    """Accepts `include` and ignores it."""

    KILLS = ("GREP-07",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if _is_grep(name, arguments):
            arguments = {k: v for k, v in arguments.items() if k != "include"}
        return await super().call_tool(name, arguments)


class FileNamesOnly(Mutant):
    """Reports the files that match (`rg -l`) without line numbers."""

    KILLS = ("GREP-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if _is_grep(name, arguments) and answer.get("success"):
            names = sorted(
                {line.split(":", 1)[0] for line in answer["data"].splitlines() if ":" in line}
            )
            if names:
                return {**answer, "data": "\n".join(names)}
        return answer
