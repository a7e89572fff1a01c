"""The fixed list of capability names a clause may require (see data/capabilities.toml)."""

from ._data import load

_DATA = load("capabilities.toml")

TOOL_CAPABILITIES: dict[str, str] = dict(_DATA["tools"])
FEATURE_CAPABILITIES: dict[str, str] = dict(_DATA["features"])
CAPABILITIES: dict[str, str] = {**TOOL_CAPABILITIES, **FEATURE_CAPABILITIES}

