"""RESULT mutants: the envelope's shape and codes, the words of a failure, the stdio channel."""

import os
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant


class NotFoundRaises(Mutant):
    """Lets `FileNotFoundError` escape from read_file instead of answering NOT_FOUND."""

    KILLS = ("RESULT-04", "READ-02")

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "read_file" and answer.get("error") == "NOT_FOUND":
            raise FileNotFoundError(2, "No such file or directory", arguments.get("path"))
        return answer


class SuccessCarriesACode(Mutant):
    """Puts `"error": "OK"` on successful results."""

    KILLS = ("RESULT-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        return {**answer, "error": "OK"} if answer.get("success") else answer


class InventedCodes(Mutant):
    """Uses errno names (`ENOENT`, `EISDIR`) instead of the contract's codes. Its refusals are
    right, so READ-02 and READ-03 (what is refused) pass: the spelling is RESULT-02's alone."""

    KILLS = ("RESULT-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        renamed = {"NOT_FOUND": "ENOENT", "IS_DIRECTORY": "EISDIR"}.get(answer.get("error") or "")
        return {**answer, "error": renamed} if renamed else answer


class FailuresSaySuccess(Mutant):
    """Answers every failure as a success whose words refuse ("Error: ..."), with no code: the
    refusals are right, but nothing in the envelope says so. RESULT-02 alone fails (a refusal no
    code can be read from); every clause that expected one of these refusals is not judged."""

    KILLS = ("RESULT-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("success"):
            return answer
        return {"success": True, "data": f"Error: {answer.get('data', '')}"}


class CodeOnlyFailureData(Mutant):
    """A failure's data is just the code: nothing for the model to act on."""

    KILLS = ("RESULT-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        return answer if answer.get("success") else {**answer, "data": answer.get("error", "")}


class DataNotText(Mutant):
    """list_files returns a JSON list in `data` instead of text."""

    KILLS = ("RESULT-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if name == "list_files" and answer.get("success"):
            return {**answer, "data": answer["data"].splitlines()}
        return answer


class NoSummary(Mutant):
    """Successful writes carry no summary line."""

    KILLS = ("RESULT-05",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        answer.pop("summary", None)
        return answer


class RefusesWithoutCodes(Mutant):
    """Refuses rightly and says why in words, but names no code: one fact, RESULT-02's alone
    (every other clause judges the refusal by its behaviour)."""

    KILLS = ("RESULT-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("success"):
            return answer
        return {key: value for key, value in answer.items() if key != "error"}


class AbsolutePathsInMessages(Mutant):
    """Names the real absolute path of the target in failure messages, revealing where the
    workspace sits and where links really point."""

    KILLS = ("RESULT-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        path = self.path_of(arguments)
        if not answer.get("success") and isinstance(path, str) and "\x00" not in path:
            real = os.path.realpath(self.lexical(path))
            return {**answer, "data": f"{answer['data']} (resolved to {real})"}
        return answer


class NoisyStartup(Mutant):
    """Prints a debug line on stdout as it starts ("server starting"), before the first message:
    over stdio that line corrupts the protocol channel."""

    KILLS = ("RESULT-09",)
    ADAPTER = "cmd"

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        # serve_mutant.py builds the mutant before the protocol takes stdout over: fd 1 is the
        # channel itself here, as in a server that logs with console.log or print.
        print("debug: agentconf mutant starting", flush=True)
