"""Client: canonical calls -> the profile's names -> the adapter -> a normalised `Result`.

After every call the disk oracle judges everything outside the root and scans the answer for
the canaries' secret, even when the implementation then failed: an escape outranks a crash.
"""

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentconf.contract import CAPABILITIES, TOOL_CAPABILITIES, Limits

from .adapters.base import Adapter
from .errors import ContractViolation, EscapeDetected
from .normalise import check_envelope, classify
from .oracle import DiskOracle
from .profile import Profile

_EVIDENCE_FIELD_CHARS = 3000
# Arguments that carry a path, for `absolute_paths` profiles.
_PATH_ARGUMENTS = ("path",)


@dataclass(frozen=True, slots=True)
class Request:
    tool: str  # canonical (or, for call_raw, the name sent)
    arguments: Any  # canonical
    name: str  # as sent
    sent: Any  # as sent


@dataclass(frozen=True)
class Result:
    success: bool
    data: str
    error: str | None
    summary: str | None
    diff: str | None
    issues: list[dict[str, Any]] | None
    denial: dict[str, Any] | None
    exit_code: int | None
    raw: dict[str, Any]
    request: Request
    _replacements: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def evidence(self) -> str:
        """Request and response for an assertion message, with the sandbox paths made neutral."""
        lines = [f"request: {self.request.tool} {_dump(self.request.arguments)}"]
        if (self.request.name, self.request.sent) != (self.request.tool, self.request.arguments):
            lines.append(f"sent as: {self.request.name} {_dump(self.request.sent)}")
        lines.append(f"response: {_dump(self.raw)}")
        if self.error is not None and self.raw.get("error") != self.error:
            lines.append(f"error code (classified by the profile): {self.error}")
        return neutralise("\n".join(lines), self._replacements)


def neutralise(text: str, replacements: tuple[tuple[str, str], ...]) -> str:
    for old, new in replacements:
        text = text.replace(old, new)
    return text


def _dump(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _EVIDENCE_FIELD_CHARS:
        half = _EVIDENCE_FIELD_CHARS // 2
        text = f"{text[:half]} …[{len(text) - 2 * half} chars cut]… {text[-half:]}"
    return text


class Client:
    """One session of the implementation under test, spoken to in canonical names."""

    def __init__(
        self,
        adapter: Adapter,
        profile: Profile,
        root: Path,
        oracle: DiskOracle | None = None,
        sandbox: Path | None = None,
    ) -> None:
        self.adapter = adapter
        self.profile = profile
        self.root = root
        self.oracle = oracle
        self._replacements = ((str(root), "<ROOT>"),) + (
            ((str(sandbox), "<SANDBOX>"),) if sandbox is not None else ()
        )
        self._listing: list[dict[str, Any]] | None = None
        # Requests sent, and those of them that carried a `path`: counted for the run's stats.
        self.calls = 0
        self.paths = 0

    # ---- what the implementation offers -------------------------------------------------------

    @property
    def limits(self) -> Limits:
        return self.profile.limits

    @property
    def listing(self) -> list[dict[str, Any]] | None:
        """The last tools/list answer, or None if none was asked for yet."""
        return self._listing

    def tool_name(self, canonical: str) -> str:
        return self.profile.tool(canonical).name

    def list_tools(self) -> list[dict[str, Any]]:
        """A fresh listing each time (REGISTRY-02 compares two); its shape is checked."""
        try:
            tools = self.adapter.list_tools()
        except BaseException:
            self.judge("tools/list", "")
            raise
        problems = [
            f"tool #{index} is {_dump(tool)[:120]}"
            for index, tool in enumerate(tools)
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str)
        ]
        if not isinstance(tools, list) or problems:
            raise ContractViolation("tools/list must give a list of objects with a string `name`: "
                                    + "; ".join(problems[:5]))
        self.judge("tools/list", json.dumps(tools, default=str))
        self._listing = tools
        return tools

    def _tools(self) -> dict[str, dict[str, Any]]:
        if self._listing is None:
            self.list_tools()
        return {tool["name"]: tool for tool in self._listing or ()}

    def advertises(self, canonical: str) -> bool:
        return self.tool_name(canonical) in self._tools()

    def schema(self, tool: str) -> dict[str, Any]:
        """The implementation's input schema for a canonical tool."""
        listed = self._tools().get(self.tool_name(tool))
        if listed is None:
            raise LookupError(f"the implementation does not advertise {tool} "
                              f"(as {self.tool_name(tool)!r})")
        schema = listed.get("input_schema", listed.get("inputSchema"))
        if not isinstance(schema, dict):
            raise ContractViolation(f"{tool}'s input_schema is not an object: {_dump(schema)}")
        return schema

    def has(self, capability: str) -> bool:
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {capability!r}")
        switched = self.profile.capabilities.get(capability)
        if switched is not None:
            return switched
        if capability in TOOL_CAPABILITIES:
            return self.advertises(capability)
        return True

    def missing(self, capabilities: list[str]) -> list[str]:
        return [name for name in capabilities if not self.has(name)]

    # ---- calls ---------------------------------------------------------------------------------

    def call(self, tool: str, **arguments: Any) -> Result:
        return self._finish([self._request(tool, arguments)])[0]

    def call_raw(self, name: str, arguments: Any) -> Result:
        """No mapping at all: for unknown tools and arguments that are not objects."""
        return self._finish([Request(name, arguments, name, arguments)])[0]

    def call_concurrently(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Result]:
        return self._finish([self._request(tool, arguments) for tool, arguments in calls])

    def close(self) -> None:
        self.adapter.close()

    def _request(self, tool: str, arguments: dict[str, Any]) -> Request:
        mapping = self.profile.tool(tool)
        sent: dict[str, Any] = json.loads(json.dumps(mapping.defaults))
        for key, value in arguments.items():
            if self.profile.absolute_paths and key in _PATH_ARGUMENTS:
                value = self._absolute(value)
            set_target(sent, mapping.target(key), value)
        return Request(tool, dict(arguments), mapping.name, sent)

    def _absolute(self, value: Any) -> Any:
        # Absolute and `~` paths are sent as given: they are what confinement tests probe.
        if isinstance(value, str) and not value.startswith(("/", "~")):
            return str(self.root / value) if value else str(self.root)
        return value

    def _finish(self, requests: list[Request]) -> list[Result]:
        self.calls += len(requests)
        self.paths += sum(isinstance(r.arguments, dict) and "path" in r.arguments
                          for r in requests)
        what = ", ".join(request.name for request in requests)
        try:
            if len(requests) == 1:
                raws = [self.adapter.call_tool(requests[0].name, requests[0].sent)]
            else:
                raws = self.adapter.call_many([(req.name, req.sent) for req in requests])
        except BaseException:
            self.judge(what, "")  # an escape, if there was one, is the finding that matters
            raise
        self.judge(what, json.dumps(raws, default=str, ensure_ascii=False))
        return [self._result(request, raw) for request, raw in zip(requests, raws, strict=True)]

    def _result(self, request: Request, raw: Any) -> Result:
        try:
            envelope = check_envelope(raw)
        except ContractViolation as error:
            raise ContractViolation(neutralise(
                f"{error}\nrequest: {request.tool} {_dump(request.arguments)}", self._replacements
            )) from None
        return Result(
            success=envelope.success,
            data=envelope.data,
            error=classify(envelope, self.profile),
            summary=envelope.summary,
            diff=envelope.diff,
            issues=envelope.issues,
            denial=envelope.denial,
            exit_code=envelope.exit_code,
            raw=raw,
            request=request,
            _replacements=self._replacements,
        )

    def judge(self, what: str, text: str = "") -> None:
        if self.oracle is None:
            return
        try:
            self.oracle.check(text, what)
        except EscapeDetected as error:
            raise EscapeDetected(neutralise(str(error), self._replacements)) from None


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def set_target(container: dict[str, Any], target: str, value: Any) -> None:
    """Puts `value` at a target like `path`, `opts.path` or `edits[0].oldText`, creating the way."""
    steps: list[str | int] = [
        name if name else int(index) for name, index in _STEP.findall(target)
    ]
    node: Any = container
    for step, following in itertools.pairwise(steps):
        empty: Any = [] if isinstance(following, int) else {}
        if isinstance(step, int):
            while len(node) <= step:
                node.append(None)
            if node[step] is None:
                node[step] = empty
            node = node[step]
        else:
            node = node.setdefault(step, empty)
    last = steps[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
    node[last] = value
