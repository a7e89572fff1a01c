"""What a check needs of the implementation, and why it is n/a when the implementation lacks
it: read from the check's markers (its clauses' `requires`, its own `requires`) and from what the
profile and the first listing say, before any session of the check is opened (which, for a
server, is most of a check's cost).
"""

from __future__ import annotations

import pytest

from agentconf.contract import CLAUSES, TOOL_CAPABILITIES
from agentconf.harness.run.plugin_state import RunState
from agentconf.harness.session.missing_capabilities import missing_argument
from agentconf.harness.target.spec import ImplSpec
from agentconf.harness.verdicts.errors import NOT_JUDGED, not_applicable, not_judged


def clause_ids(item: pytest.Item) -> list[str]:
    return [str(arg) for mark in item.iter_markers("clause") for arg in mark.args]


def required_capabilities(item: pytest.Item) -> list[str]:
    needed: list[str] = []
    for clause_id in clause_ids(item):
        clause = CLAUSES.get(clause_id)
        needed += clause.requires if clause else ()
    needed += [str(arg) for mark in item.iter_markers("requires") for arg in mark.args]
    return list(dict.fromkeys(needed))


def needs_unrevealed(item: pytest.Item) -> bool:
    """Whether the check's verdict depends on a session in which tool_search revealed nothing:
    it requires tool_search, or it plays a message scenario, whose exact text may name the tools
    a session offers (harness/target/reuse.py)."""
    return "tool_search" in required_capabilities(item) or (
        "message_snapshot" in getattr(item, "fixturenames", ())
        or item.get_closest_marker("scenario") is not None)


def why_missing(capability: str, spec: ImplSpec, state: RunState) -> str | None:
    """Why the capability is absent, when the profile or the first listing says so; else None."""
    switched = spec.profile.capabilities.get(capability)
    if switched is not None:
        return None if switched else f"[capabilities].{capability} = false"
    unproven = spec.profile.unproven_calls(capability)
    if unproven is not None:
        return not_judged(capability, unproven)
    if capability in TOOL_CAPABILITIES and (excluded := spec.profile.excluded(capability)):
        return excluded
    if capability in TOOL_CAPABILITIES and state.advertised is not None:
        name = spec.profile.tool(capability).name
        return None if name in state.advertised else f"{name!r} is not advertised"
    if state.listing is None:
        return None
    return missing_argument(capability, spec.profile,
                            {tool["name"]: tool for tool in state.listing})


def skip_if_missing(item: pytest.Item, missing: dict[str, str]) -> None:
    if not missing:
        return
    unproven = [why for why in missing.values() if why.startswith(NOT_JUDGED)]
    if unproven:  # the kit's premise, not the implementation's lack: said as such
        not_applicable("; ".join(unproven))
    owners = [cid for cid in clause_ids(item)
              if CLAUSES.get(cid) and set(CLAUSES[cid].requires) & set(missing)]
    by = f" (required by {', '.join(owners)})" if owners else ""
    # Derived absences carry what to set; a plain switch-off says no more than the name.
    notes = [why for why in missing.values() if not why.startswith(("[capabilities].", "'"))]
    because = f": {'; '.join(notes)}" if notes else ""
    not_applicable(f"the implementation lacks {', '.join(missing)}{by}{because}")
