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

from .declare import ToolSpec

FeatureFlags = Callable[[str], bool]


def all_features_on(name: str) -> bool:
    return True


class ToolRegistry:
    def __init__(
        self,
        specs: Iterable[ToolSpec],
        *,
        disabled: Collection[str] = (),
        feature_enabled: FeatureFlags = all_features_on,
        provider: str | None = None,
        read_only: bool = False,
    ) -> None:
        tools: dict[str, ToolSpec] = {}
        for spec in specs:
            if spec.name in tools:
                raise ValueError(f"tool {spec.name} is registered twice")
            tools[spec.name] = spec
        self._tools = MappingProxyType(tools)
        self._disabled = frozenset(disabled)
        self._feature_enabled = feature_enabled
        self._provider = provider
        self._read_only = read_only

    def is_enabled(self, spec: ToolSpec) -> bool:
        """Config AND feature flag AND provider AND surface: every layer must agree."""
        if spec.name in self._disabled:
            return False
        if self._read_only and spec.kind is not ToolKind.READ:
            return False  # @clarvis/agent-tools' read-only surface: the read tools alone exist
        if not self._feature_enabled(spec.feature_flag or spec.name):
            return False
        return not (
            self._provider and spec.supported_providers
            and self._provider not in spec.supported_providers
        )

    def _available(self, spec: ToolSpec, revealed: Collection[str]) -> bool:
        return self.is_enabled(spec) and (not spec.deferred or spec.name in revealed)

    def listed(self, revealed: Collection[str] = ()) -> list[ToolSpec]:
        """The advertised tools, in registration order."""
        return [spec for spec in self._tools.values() if self._available(spec, revealed)]

    def get(self, name: object, revealed: Collection[str] = ()) -> ToolSpec | None:
        """The tool callable under `name`, through the same filter as `listed`."""
        spec = self._tools.get(name) if isinstance(name, str) else None
        return spec if spec is not None and self._available(spec, revealed) else None

    def deferred(self) -> list[ToolSpec]:
        """Enabled tools that only tool_search can reveal."""
        return [spec for spec in self._tools.values() if spec.deferred and self.is_enabled(spec)]

    def search(self, query: str) -> list[ToolSpec]:
        """Enabled tools (deferred ones included) whose name or description holds a query word,
        the ones matching most words first, then in registration order."""
        words = [word.casefold() for word in query.split() if word]
        scored = []
        for order, spec in enumerate(self._tools.values()):
            if not self.is_enabled(spec):
                continue
            haystack = f"{spec.name} {spec.name.replace('_', ' ')} {spec.description}".casefold()
            hits = sum(word in haystack for word in words)
            if hits:
                scored.append((-hits, order, spec))
        return [spec for _, _, spec in sorted(scored, key=lambda item: item[:2])]
