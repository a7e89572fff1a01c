"""PERMISSION mutants: deny rules that are asked too late, matched on the spelling, over-broad,
or that refuse without saying why."""

from typing import Any

from agentconf.contract.modes import LOCKED_FOLDER
from agentconf.reference import create
from agentconf.selfcheck.mutant_base import Mutant, failed


class _DenyMutant(Mutant):
    """Keeps a second reference without deny rules, for the defect to reach through."""

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self.denying = bool(self.modes.get("deny"))
        self.unguarded = create(workspace, read_only=False, deny=())


def _write_path(name: str, arguments: Any) -> str | None:
    if name == "write_file" and isinstance(arguments, dict):
        path = arguments.get("path")
        return path if isinstance(path, str) else None
    return None


class DenialWithoutDetails(_DenyMutant):
    """Refuses a denied call with PERMISSION_DENIED and a message, but no `denial`: the model
    cannot tell a policy from a file-system refusal, nor what to do instead."""

    KILLS = ("PERMISSION-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "PERMISSION_DENIED":
            return {key: value for key, value in answer.items() if key != "denial"}
        return answer


class GateAfterOpen(_DenyMutant):
    """Opens the file to write (creating it and its folders) before asking the gate, so a denied
    write leaves an empty file behind."""

    KILLS = ("PERMISSION-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _write_path(name, arguments)
        if self.denying and path is not None:
            target = self.lexical(path)
            if self.inside_by_components(target) and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()
        return await super().call_tool(name, arguments)


class GateMatchesTheSpelling(_DenyMutant):
    """Matches a path rule against the path as the model spelt it: `./locked/x.txt` or a link to
    the folder is not `locked/...`, so the write goes through."""

    KILLS = ("PERMISSION-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = _write_path(name, arguments)
        if self.denying and path is not None and not path.startswith(f"{LOCKED_FOLDER}/"):
            return await self.unguarded.call_tool(name, arguments)
        return await super().call_tool(name, arguments)


class DenyModeRefusesEveryWrite(_DenyMutant):
    """With any deny rule for write_file, refuses every write_file, not only under the rule's
    paths."""

    KILLS = ("PERMISSION-04",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if self.denying and _write_path(name, arguments) is not None:
            return failed(
                "PERMISSION_DENIED",
                "write_file was not run: writes are denied.",
                denial={"source": "config", "reason": "writes are denied", "hint": "Ask."},
            )
        return await super().call_tool(name, arguments)


