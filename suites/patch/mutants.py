"""PATCH mutants: multi-file patches applied without staging, confinement or the file's endings."""

import os
from pathlib import Path
from typing import Any

from agentconf.reference.sandbox.patch import ADD, DELETE, MOVE, UPDATE
from agentconf.selfcheck.mutant_base import Mutant, failed

BEGIN, END = "*** Begin Patch\n", "*** End Patch\n"


def _patch_text(name: str, arguments: Any) -> str | None:
    if name == "apply_patch" and isinstance(arguments, dict):
        text = arguments.get("patch")
        return text if isinstance(text, str) else None
    return None


def _sections(text: str) -> list[list[str]]:
    """The file sections of a patch, each a list of its lines (header first)."""
    sections: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith((ADD, DELETE, UPDATE)):
            sections.append([line])
        elif sections and not line.startswith("*** End Patch"):
            sections[-1].append(line)
    return sections


class PatchWritesFileByFile(Mutant):
    """Applies a patch one file at a time and stops at the first failure: the files before it
    have already changed (no staging, no rollback)."""

    KILLS = ("PATCH-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        text = _patch_text(name, arguments)
        sections = _sections(text) if text is not None else []
        if len(sections) < 2:
            return await super().call_tool(name, arguments)
        answer: dict[str, Any] = {}
        for section in sections:
            single = BEGIN + "".join(line + "\n" for line in section) + END
            answer = await super().call_tool(name, {"patch": single})
            if not answer.get("success"):
                return answer
        return {**answer, "data": f"Applied {len(sections)} files."}


class PatchMoveLeavesTheSource(Mutant):
    """Implements `*** Move to:` as a copy: the file appears at its new path and stays at the
    old one."""

    KILLS = ("PATCH-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        text = _patch_text(name, arguments)
        kept = {}
        for section in _sections(text or ""):
            if section[0].startswith(UPDATE) and any(line.startswith(MOVE) for line in section):
                source = self.lexical(section[0][len(UPDATE):].strip())
                if source.is_file():
                    kept[source] = source.read_bytes()
        answer = await super().call_tool(name, arguments)
        if answer.get("success"):
            for source, data in kept.items():
                source.write_bytes(data)
        return answer


class PatchMoveUnconfined(Mutant):
    """Confines the paths it reads and writes, but renames a moved file to its `*** Move to:`
    destination as given, so `../outside/x` lands outside the root."""

    KILLS = ("PATCH-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        text = _patch_text(name, arguments)
        moves = []
        lines = []
        for line in (text or "").splitlines():
            if line.startswith(MOVE):
                moves.append(line[len(MOVE):].strip())
                continue
            lines.append(line)
        if not moves:
            return await super().call_tool(name, arguments)
        updates = [line[len(UPDATE):].strip() for line in lines if line.startswith(UPDATE)]
        answer = await super().call_tool(name, {"patch": "\n".join(lines) + "\n"})
        if answer.get("success"):
            for source, destination in zip(updates, moves, strict=False):
                target = Path(os.path.normpath(self.root / destination))
                target.parent.mkdir(parents=True, exist_ok=True)
                os.rename(self.lexical(source), target)
        return answer


class PatchWritesLf(Mutant):
    """Writes every file it updates back with LF line endings, whatever the file used."""

    KILLS = ("PATCH-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("success"):
            for section in _sections(_patch_text(name, arguments) or ""):
                if section[0].startswith(UPDATE):
                    target = self.lexical(section[0][len(UPDATE):].strip())
                    if target.is_file():
                        target.write_bytes(target.read_bytes().replace(b"\r\n", b"\n"))
        return answer


class PatchMismatchIsAnException(Mutant):
    """Lets a hunk that does not match end as an unexpected exception (EXECUTION_ERROR) instead
    of TEXT_NOT_FOUND, so the model cannot tell it should re-read the file."""

    KILLS = ("PATCH-05",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if _patch_text(name, arguments) is not None and answer.get("error") == "TEXT_NOT_FOUND":
            return failed("EXECUTION_ERROR", "apply_patch failed: ValueError('hunk mismatch')")
        return answer


class PatchAddReplaces(Mutant):
    """Lets `*** Add File:` replace a file that already exists (as a write would) instead of
    refusing it ALREADY_EXISTS; everything else of a patch stays all or nothing."""

    KILLS = ("PATCH-05",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        added = [self.lexical(section[0][len(ADD):].strip())
                 for section in _sections(_patch_text(name, arguments) or "")
                 if section[0].startswith(ADD)]
        kept = {target: target.read_bytes() for target in added if target.is_file()}
        for target in kept:
            target.unlink()
        answer = await super().call_tool(name, arguments)
        if not answer.get("success"):
            for target, data in kept.items():
                target.write_bytes(data)
        return answer
