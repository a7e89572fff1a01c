"""The fixed list of capability names a clause may require (see data/capabilities.toml)."""

from ._data import load

_DATA = load("capabilities.toml")

TOOL_CAPABILITIES: dict[str, str] = dict(_DATA["tools"])
FEATURE_CAPABILITIES: dict[str, str] = dict(_DATA["features"])
CAPABILITIES: dict[str, str] = {**TOOL_CAPABILITIES, **FEATURE_CAPABILITIES}


def unknown_capabilities(names: object) -> list[str]:
    """The names in `names` that are not capabilities; empty when all are known."""
    return [name for name in names if name not in CAPABILITIES]  # type: ignore[attr-defined]
