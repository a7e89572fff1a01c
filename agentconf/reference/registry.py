"""The tool registry: what exists, in a fixed order, seen through one filter.

dskcode: a tool is enabled when it is not disabled by config AND its feature flag is on AND it
supports the provider — an AND, so two reasons to hide a tool can never cancel out.
@clarvis/agent-tools: `listed` and `get` pass through the same filter, so the advertised set is
the callable set. agentkit: order is deterministic (registration order, fixed by `system.py`).
Claude Code: a deferred tool is neither listed nor callable until `tool_search` reveals it in a
session; from then on it is both, so advertised == callable holds before and after. In read-only
mode the surface is the read tools alone: the others are neither listed, callable nor found by
tool_search (SURFACE).

The registry is built once and never changes; the per-session part (what was revealed) is passed
in by the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from types import MappingProxyType

from agentconf.contract import ToolKind

from .declare import Declaration

FeatureFlags = Callable[[str], bool]


def all_features_on(name: str) -> bool:
    return True


class ToolRegistry:
    def __init__(
        self,
        declarations: Iterable[Declaration],
        *,
        disabled: Collection[str] = (),
        feature_enabled: FeatureFlags = all_features_on,
        provider: str | None = None,
        read_only: bool = False,
    ) -> None:
        tools: dict[str, Declaration] = {}
        for declaration in declarations:
            if declaration.name in tools:
                raise ValueError(f"tool {declaration.name} is registered twice")
            tools[declaration.name] = declaration
        self._tools = MappingProxyType(tools)
        self._disabled = frozenset(disabled)
        self._feature_enabled = feature_enabled
        self._provider = provider
        self._read_only = read_only

    def is_enabled(self, declaration: Declaration) -> bool:
        """Config AND feature flag AND provider AND surface: every layer must agree."""
        if declaration.name in self._disabled:
            return False
        if self._read_only and declaration.kind is not ToolKind.READ:
            return False  # @clarvis/agent-tools' read-only surface: the read tools alone exist
        if not self._feature_enabled(declaration.feature_flag or declaration.name):
            return False
        return not (
            self._provider and declaration.supported_providers
            and self._provider not in declaration.supported_providers
        )

    def _available(self, declaration: Declaration, revealed: Collection[str]) -> bool:
        return self.is_enabled(declaration) and (
            not declaration.deferred or declaration.name in revealed)

    def listed(self, revealed: Collection[str] = ()) -> list[Declaration]:
        """The advertised tools, in registration order."""
        return [tool for tool in self._tools.values() if self._available(tool, revealed)]

    def get(self, name: object, revealed: Collection[str] = ()) -> Declaration | None:
        """The tool callable under `name`, through the same filter as `listed`."""
        declaration = self._tools.get(name) if isinstance(name, str) else None
        available = declaration is not None and self._available(declaration, revealed)
        return declaration if available else None

    def deferred(self) -> list[Declaration]:
        """Enabled tools that only tool_search can reveal."""
        return [tool for tool in self._tools.values() if tool.deferred and self.is_enabled(tool)]

    def search(self, query: str) -> list[Declaration]:
        """Enabled tools (deferred ones included) whose name or description holds a query word,
        the ones matching most words first, then in registration order."""
        words = [word.casefold() for word in query.split() if word]
        scored = []
        for order, declaration in enumerate(self._tools.values()):
            if not self.is_enabled(declaration):
                continue
            name = declaration.name
            haystack = f"{name} {name.replace('_', ' ')} {declaration.description}".casefold()
            hits = sum(word in haystack for word in words)
            if hits:
                scored.append((-hits, order, declaration))
        return [declaration for _, _, declaration in sorted(scored, key=lambda item: item[:2])]
