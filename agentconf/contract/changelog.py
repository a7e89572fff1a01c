"""The contract's changelog (data/changelog.toml): what each version added, changed and retired."""

from dataclasses import dataclass

from ._data import load


@dataclass(frozen=True, slots=True)
class Version:
    version: str
    summary: str
    added: tuple[str, ...]
    changed: tuple[str, ...]
    retired: tuple[str, ...]


CHANGELOG: tuple[Version, ...] = tuple(
    Version(
        version=entry["version"],
        summary=entry["summary"],
        added=tuple(entry.get("added", ())),
        changed=tuple(entry.get("changed", ())),
        retired=tuple(entry.get("retired", ())),
    )
    for entry in load("changelog.toml")["version"]
)
