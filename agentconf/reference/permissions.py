"""The permission gate: one policy entry point, asked after validation and before any effect.

agentkit (agentkit's permission preflight) checks policy before `rm -rf` runs, not after; dskcode
carries the refusal in the envelope as `denial` (who refused, why, what to do instead). A gate is
any object with `check(request)` returning None (allowed) or a `Denial`, sync or async.
"""

import inspect
from collections.abc import Awaitable, Collection
from dataclasses import dataclass
from typing import Any, Protocol

from agentconf.contract import Denial, ToolKind


@dataclass(frozen=True, slots=True)
class PermissionRequest:
    """What the gate sees: the tool, its kind, and the validated arguments as plain data."""

    tool: str
    kind: ToolKind
    arguments: dict[str, Any]


class PermissionGate(Protocol):
    def check(self, request: PermissionRequest) -> Denial | Awaitable[Denial | None] | None: ...


class AllowAll:
    """The default gate: the sandbox, not a policy, keeps the reference safe."""

    def check(self, request: PermissionRequest) -> Denial | None:
        return None


class ReadOnly:
    """Refuses every tool that is not of kind read (@clarvis/agent-tools' read-only mode, as a
    policy)."""

    def check(self, request: PermissionRequest) -> Denial | None:
        if request.kind is ToolKind.READ:
            return None
        return Denial(
            source="policy",
            reason=f"{request.tool} changes things, and this session is read-only.",
            hint="Use read tools only, or ask the user to allow changes.",
        )


class DenyTools:
    """Refuses the named tools, e.g. a project policy against `bash`."""

    def __init__(self, names: Collection[str], *, reason: str, hint: str | None = None) -> None:
        self._names = frozenset(names)
        self._reason = reason
        self._hint = hint

    def check(self, request: PermissionRequest) -> Denial | None:
        if request.tool not in self._names:
            return None
        return Denial(source="policy", reason=self._reason, hint=self._hint)


async def ask(gate: PermissionGate, request: PermissionRequest) -> Denial | None:
    """The gate's answer, awaited if the gate is async."""
    answer = gate.check(request)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer
