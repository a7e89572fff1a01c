"""Limits an implementation declares (or inherits from the contract's defaults)."""

from dataclasses import dataclass, fields, replace
from typing import Any

from ._data import load


@dataclass(frozen=True, slots=True)
class Limits:
    max_output_chars: int
    max_read_bytes: int
    shell_timeout_ms: int
    received_max_chars: int
    message_budget_chars: int
    marker_budget_chars: int

    def with_overrides(self, overrides: dict[str, Any]) -> "Limits":
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            names = ", ".join(unknown)
            raise ValueError(f"unknown limit(s) {names}; known: {', '.join(sorted(known))}")
        return replace(self, **overrides)


DEFAULT_LIMITS = Limits(**load("limits.toml"))
