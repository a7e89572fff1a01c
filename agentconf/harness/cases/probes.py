"""Probe cases: golden cases marked `probe`, each a harmless provocation of the one error code
its last call expects. RESULT-02 plays them to see whether a refusal's code can be read;
`init --from` plays them, each beside its twin, to learn how the implementation words them.

A twin is the same provocation with what is incidental to it varied (`"twin": {"missing.txt":
"gone-notes.md"}`: every occurrence in the case's tree and calls replaced), so a pattern learnt
from the two fits the message and not the probe's own names.
"""

from collections.abc import Iterator
from typing import Any

Finding = tuple[str, str]


def last_code(case: dict[str, Any]) -> str | None:
    """The one error code the last tool call expects, if it expects exactly one."""
    last = next((step for step in reversed(case["calls"]) if "disk" not in step), None)
    if last is None or "concurrently" in last:
        return None
    codes = (last.get("expect") or case.get("expect") or {}).get("error")
    return codes if isinstance(codes, str) else None


def probe_findings(case: dict[str, Any]) -> Iterator[Finding]:
    """A probe provokes one code, with its last call, alone; a twin varies what it names."""
    if case.get("probe") and last_code(case) is None:
        yield "/probe", "a probe's last call must expect exactly one error code"
    twin = case.get("twin")
    if twin is None:
        return
    if not case.get("probe"):
        yield "/twin", "only a probe case has a twin"
    for old, new in twin.items():
        if old == new:
            yield f"/twin/{old}", "a twin must vary what it replaces"
        elif not _occurs(old, {"tree": case.get("tree", {}), "calls": case["calls"]}):
            yield f"/twin/{old}", f"{old!r} occurs nowhere in the case's tree or calls"


def renamed(value: Any, renames: dict[str, str]) -> Any:
    """`value` with every occurrence of each key replaced by its value, keys of objects too."""
    if isinstance(value, str):
        for old, new in renames.items():
            value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [renamed(item, renames) for item in value]
    if isinstance(value, dict):
        return {renamed(key, renames): renamed(item, renames) for key, item in value.items()}
    return value


def _occurs(text: str, value: Any) -> bool:
    if isinstance(value, str):
        return text in value
    if isinstance(value, list):
        return any(_occurs(text, item) for item in value)
    if isinstance(value, dict):
        return any(_occurs(text, key) or _occurs(text, item) for key, item in value.items())
    return False
