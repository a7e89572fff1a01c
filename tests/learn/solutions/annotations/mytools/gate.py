"""The permission gate: deny rules, asked after the arguments are checked and before the tool
runs (agentkit's permission preflight, dskcode's denial), so a denied call changes nothing.

Rules come from MYTOOLS_DENY when the session starts, separated by spaces: `TOOL` denies every
call of the tool, `TOOL:GLOB` the calls whose path, once located (links followed), matches GLOB
below the root (`DIR/**` is DIR and everything below it).
"""

import fnmatch
import os
from dataclasses import dataclass
from typing import Any

from .envelope import Envelope, Refused
from .jail import Jail

VARIABLE = "MYTOOLS_DENY"


@dataclass(frozen=True, slots=True)
class Rule:
    tool: str
    glob: str | None

    def matches(self, tool: str, place: str | None) -> bool:
        if tool != self.tool:
            return False
        if self.glob is None:
            return True
        if place is None:
            return False
        folder = self.glob.removesuffix("/**")
        return fnmatch.fnmatchcase(place, self.glob) or (
            self.glob.endswith("/**") and (place == folder or place.startswith(folder + "/")))


def rules_from_environment() -> tuple[Rule, ...]:
    rules = []
    for word in os.environ.get(VARIABLE, "").split():
        tool, _, glob = word.partition(":")
        rules.append(Rule(tool, glob or None))
    return tuple(rules)


def denial(rules: tuple[Rule, ...], jail: Jail, tool: str,
           arguments: dict[str, Any]) -> Envelope | None:
    """The answer to a call a rule denies (PERMISSION_DENIED with its `denial`), else None."""
    if not rules:
        return None
    raw = arguments.get("path")
    place = jail.locate(raw).shown if isinstance(raw, str) else None
    for rule in rules:
        if rule.matches(tool, place):
            what = f"{tool} on {place}" if rule.glob else f"every {tool} call"
            hint = ("Work outside that folder, or ask the user to change the rule."
                    if rule.glob else f"Do it without {tool}, or ask the user to allow it.")
            written = rule.tool + (f":{rule.glob}" if rule.glob else "")
            words = f"{tool} was not run: the configuration denies {what}. {hint}"
            return Refused("PERMISSION_DENIED", words).envelope() | {"denial": {
                "source": "config", "reason": f"the deny rule {written} ({VARIABLE})",
                "hint": hint}}
    return None
