"""How long a call may take by its tool's own word: a wait a mapped tool documents before it
answers (coding-tools-mcp's exec_command `yield_time_ms`, default 10000: "How long this call
waits before returning"). A server that serves one call at a time answers the call after a
cancelled one only when that wait is over; the kit's bound on a call (10 s) must be longer, or an
answer within the documented wait is taken for a hang (CANCEL-03 failed so, at 10.06 s)."""

from typing import Any

from agentconf.harness.target.adapters.base import DEFAULT_TIMEOUT_S
from agentconf.init_from.match import ToolGuess, types_of, words
from agentconf.init_from.schemas import schema_of
from agentconf.init_from.shape import DEFAULT_SAID, SCALE

# A property whose name says the call waits (not a timeout: that ends the command, not the call).
_WAIT = frozenset({"yield", "wait", "poll", "linger"})
_UNITS = {"ms": "ms", "millis": "ms", "milliseconds": "ms", "s": "s", "sec": "s", "secs": "s",
          "seconds": "s"}


def documented_wait(listing: list[dict[str, Any]], mapped: dict[str, ToolGuess]
                    ) -> tuple[int, str] | None:
    """(milliseconds, why) of the longest wait a mapped tool documents by default, when the kit's
    bound on a call would not outlast it (None: every documented wait is well within it)."""
    longest: tuple[int, str] | None = None
    names = {guess.name for guess in mapped.values()}
    for tool in listing:
        if tool.get("name") not in names:
            continue
        for name, prop in (schema_of(tool).get("properties") or {}).items():
            waited = _default_ms(name, prop) if isinstance(prop, dict) else None
            if waited is not None and (longest is None or waited > longest[0]):
                longest = waited, f"{tool['name']}'s {name} waits {waited} ms by default"
    if longest is None or longest[0] < DEFAULT_TIMEOUT_S * 1000 / 2:
        return None
    return longest


def call_bound_ms(wait_ms: int) -> int:
    """The kit's bound on a call of a tool that waits `wait_ms`: that wait and the usual bound."""
    return wait_ms + int(DEFAULT_TIMEOUT_S * 1000)


def _default_ms(name: str, prop: dict[str, Any]) -> int | None:
    named = words(name)
    if not _WAIT & set(named) or not types_of(prop) & {"integer", "number"}:
        return None
    unit = next((_UNITS[word] for word in named if word in _UNITS), None)
    value = prop.get("default")
    if not isinstance(value, int | float) or isinstance(value, bool):
        found = DEFAULT_SAID.search(str(prop.get("description", "")))
        if found is None:
            return None
        value, unit = float(found.group(1)), (found.group(2) or "").lower() or unit
    if unit is None:
        return None
    scale = next((factor for prefix, factor in SCALE.items() if unit.startswith(prefix)), None)
    return int(value * scale) if scale else None
