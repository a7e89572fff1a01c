"""VALIDATE mutants: argument checking that is too loose, or issues that are badly shaped."""

import json
import re
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, failed


def _schema(mutant: Mutant, name: str) -> dict[str, Any]:
    for tool in mutant.reference.list_tools():
        if tool["name"] == name:
            return tool["input_schema"]
    return {}


class UnknownFieldsAccepted(Mutant):
    """Drops argument names the schema does not know instead of rejecting them."""

    KILLS = ("VALIDATE-03",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if isinstance(arguments, dict):
            known = _schema(self, name).get("properties", {})
            if known:
                arguments = {key: value for key, value in arguments.items() if key in known}
        return await super().call_tool(name, arguments)


class MissingRequiredDefaulted(Mutant):
    """Fills a missing required string argument with an empty string and runs the tool."""

    KILLS = ("VALIDATE-01",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if isinstance(arguments, dict):
            schema = _schema(self, name)
            for field in schema.get("required", []):
                if field not in arguments and field != "path":
                    arguments = {**arguments, field: ""}
        return await super().call_tool(name, arguments)


class NumericStringsCoerced(Mutant):
    """Coerces `"3"` to 3 for integer fields (pydantic's lax mode)."""

    KILLS = ("VALIDATE-02",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if isinstance(arguments, dict):
            properties = _schema(self, name).get("properties", {})
            arguments = {
                key: int(value)
                if isinstance(value, str)
                and value.strip().isdigit()
                and _is_integer(properties.get(key))
                else value
                for key, value in arguments.items()
            }
        return await super().call_tool(name, arguments)


def _is_integer(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    options = schema.get("anyOf", [schema])
    return any(isinstance(option, dict) and option.get("type") == "integer" for option in options)


class _RewritesIssues(Mutant):
    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await super().call_tool(name, arguments)
        if answer.get("error") == "INVALID_ARGS" and answer.get("issues"):
            return self.rewrite(answer, arguments)
        return answer

    def rewrite(self, answer: dict[str, Any], arguments: Any) -> dict[str, Any]:
        return answer


class IssuesWithoutPaths(_RewritesIssues):
    """Reports issues with an empty `path`: the model cannot tell which field to fix."""

    KILLS = ("VALIDATE-05",)

    def rewrite(self, answer: dict[str, Any], arguments: Any) -> dict[str, Any]:
        return {**answer, "issues": [{**issue, "path": ""} for issue in answer["issues"]]}


class FullReceivedValues(_RewritesIssues):
    """Echoes the whole received value in `received`, however large."""

    KILLS = ("VALIDATE-06",)

    def rewrite(self, answer: dict[str, Any], arguments: Any) -> dict[str, Any]:
        issues = []
        for issue in answer["issues"]:
            field = re.match(r"\$\.(\w+)", issue["path"])
            value = (
                arguments.get(field.group(1))
                if field and isinstance(arguments, dict)
                else arguments
            )
            issues.append({**issue, "received": json.dumps(value)})
        return {**answer, "issues": issues}


class FirstIssueOnly(_RewritesIssues):
    """Stops at the first problem, so a call with two mistakes takes two round trips."""

    KILLS = ("VALIDATE-07",)

    def rewrite(self, answer: dict[str, Any], arguments: Any) -> dict[str, Any]:
        return {**answer, "issues": answer["issues"][:1]}


class NoIssues(_RewritesIssues):
    """Answers INVALID_ARGS with a message but no `issues`."""

    KILLS = ("VALIDATE-04", "VALIDATE-10")

    def rewrite(self, answer: dict[str, Any], arguments: Any) -> dict[str, Any]:
        return {key: value for key, value in answer.items() if key != "issues"}


class VagueIssueMessages(_RewritesIssues):
    """Every issue's message is the same vague sentence."""

    KILLS = ("VALIDATE-11",)

    def rewrite(self, answer: dict[str, Any], arguments: Any) -> dict[str, Any]:
        return {**answer, "issues": [{**i, "message": "Invalid input."} for i in answer["issues"]]}


class WholeNumbersRejected(Mutant):
    """Rejects 2.0 for an integer field: JSON's one number type taken too strictly."""

    KILLS = ("VALIDATE-08",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if isinstance(arguments, dict):
            for key, value in arguments.items():
                if isinstance(value, float):
                    return failed(
                        "INVALID_ARGS",
                        f"{key} must be an integer.",
                        issues=[
                            {
                                "path": f"$.{key}",
                                "expected": "integer",
                                "received": f"number {value}",
                                "message": f"{key} must be an integer.",
                            }
                        ],
                    )
        return await super().call_tool(name, arguments)


class BareStringTakenAsPath(Mutant):
    """Accepts a bare string as the arguments and takes it as `path`."""

    KILLS = ("VALIDATE-09",)

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if isinstance(arguments, str):
            arguments = {"path": arguments}
        elif isinstance(arguments, list) and arguments:
            arguments = {"path": str(arguments[0])}
        return await super().call_tool(name, arguments)


class DeferredToolUnvalidated(Mutant):
    """Validates the arguments of the tools it lists from the start, not those of a tool revealed
    later: a revealed tool runs on whatever it is given and crashes."""

    KILLS = ("VALIDATE-10",)

    def __init__(self, workspace: Any) -> None:
        super().__init__(workspace)
        self._first_names = {spec["name"] for spec in super().list_tools()}

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        listed = {spec["name"] for spec in self.list_tools()}
        if name in listed - self._first_names:
            path = self.path_of(arguments)
            if not isinstance(path, str) or set(arguments) != {"path"}:
                return failed("EXECUTION_ERROR", f"{name} crashed: 'path' is not a string.")
        return await super().call_tool(name, arguments)
