"""The matrix's history: every kept run of every version of a package, oldest version first.

Peers that are versions of one package (the filesystem server at 2025.3.28, 2025.7.1 and today's)
form one group, with the runs a peer kept of its earlier pins (`<peer>/history/<version>.json`).
"""

import re
from collections.abc import Iterable, Mapping

from .matrix import CellStatus, PackageHistory, PeerFields, VersionRun

NOT_PASSING: tuple[CellStatus, ...] = ("fail", "error")


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """2025.3.28 < 2025.7.1 < 2026.8.31; numbers compare as numbers, words as words."""
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.findall(r"\d+|[A-Za-z]+", version))


def package_history(peers: Mapping[str, PeerFields],
                    runs: Iterable[VersionRun]) -> list[PackageHistory]:
    """Group the runs by their peer's package; one run per version (a current peer's wins)."""
    groups: dict[str, dict[str, VersionRun]] = {}
    for run in runs:
        peer = peers.get(run.peer)
        if peer is None:
            continue  # a folder's history without its peer.json: nothing says what package
        versions = groups.setdefault(peer.package, {})
        kept = versions.get(run.version)
        # Two peers pinning one version: the peer whose current version it is speaks for it.
        if kept is None or peers[run.peer].version == run.version:
            versions[run.version] = run
    return [PackageHistory(package=package, title=_title(peers, package),
                           versions=sorted(versions.values(), key=lambda r: version_key(r.version)))
            for package, versions in sorted(groups.items())]


def _title(peers: Mapping[str, PeerFields], package: str) -> str:
    titles = sorted({p.title for p in peers.values() if p.package == package}, key=len)
    return titles[0] if titles else package


def changed_clauses(history: PackageHistory) -> list[str]:
    """Clauses whose verdict is not the same in every version (one absent counts as different)."""
    ids = dict.fromkeys(cid for run in history.versions for cid in run.verdicts)
    return [cid for cid in ids
            if len({run.verdicts.get(cid) for run in history.versions}) > 1]


def remaining_departures(history: PackageHistory) -> list[str]:
    """Clauses the newest version still fails."""
    newest = history.versions[-1]
    return [cid for cid, status in newest.verdicts.items() if status in NOT_PASSING]


def closed_departures(history: PackageHistory) -> list[str]:
    """Clauses some earlier version failed and the newest passes."""
    newest = history.versions[-1].verdicts
    return [cid for cid in changed_clauses(history) if newest.get(cid) == "pass"
            and any(run.verdicts.get(cid) in NOT_PASSING for run in history.versions[:-1])]
