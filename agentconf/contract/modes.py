"""The modes an implementation is started in for SURFACE, PERMISSION and EXEC's allow-list
(data/modes.toml)."""

from dataclasses import dataclass

from ._data import load

READ_ONLY = "read_only"
DENY = "deny"
ALLOWED_PROGRAMS = "allowed_programs"
# The folder the deny mode's path rules protect, for the checks that probe them.
LOCKED_FOLDER = "locked"


@dataclass(frozen=True, slots=True)
class ContractMode:
    name: str
    meaning: str
    # Deny rules (`TOOL` or `TOOL:GLOB`) the mode enforces; empty for other modes.
    rules: tuple[str, ...] = ()
    # The programs exec may run in the mode (allowed_programs); empty for other modes.
    programs: tuple[str, ...] = ()
    # The clauses judged on a start in the mode: n/a where the profile gives no way to start it.
    judged_by: tuple[str, ...] = ()


MODES: dict[str, ContractMode] = {
    name: ContractMode(name=name, meaning=entry["meaning"], rules=tuple(entry.get("rules", ())),
                       programs=tuple(entry.get("programs", ())),
                       judged_by=tuple(entry.get("judged_by", ())))
    for name, entry in load("modes.toml").items()
}
