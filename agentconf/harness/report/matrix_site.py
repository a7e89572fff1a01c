"""The matrix site's folder: one folder per peer, built from shards.

    <site>/<peer>/peer.json          what the peers folder says of it (PeerFields), or why it could
                                     not run (CouldNotRun)
    <site>/<peer>/conformance.json   its run, and report.html its page, badge.svg/badge.json
    <site>/<peer>/history/<version>.json   what each version's run gave (VersionRun)
    <site>/matrix.json, index.html   built from the peer folders alone

A shard (`agentconf matrix --only X --out DIR`, one CI job's artifact) has the same peer folders,
so `combine` only copies peer folders into the site and builds it again.
"""

import json
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .badge import render_badge_json, render_badge_svg
from .matrix import (
    CouldNotRun,
    MatrixImplementation,
    PackageHistory,
    PeerFields,
    VersionRun,
    implementation_entry,
    matrix_document,
    version_run,
)
from .matrix_history import package_history, version_key
from .matrix_html import render_matrix_html

PEER_FILE = "peer.json"
CONFORMANCE = "conformance.json"
HISTORY = "history"
KEPT = (CONFORMANCE, "report.html")
BADGES = {"badge.svg": render_badge_svg, "badge.json": render_badge_json}


class SiteError(Exception):
    """A shard or site folder that cannot be read: one line for the user."""


def read_peer(folder: Path) -> PeerFields | CouldNotRun:
    try:
        data = json.loads((folder / PEER_FILE).read_text("utf-8"))
        if "reason" in data:
            return CouldNotRun.model_validate(data)
        return PeerFields.model_validate(data)
    except (OSError, ValueError, ValidationError) as error:
        first = str(error).splitlines()[0]
        raise SiteError(f"{folder / PEER_FILE}: {first}") from None


def write_peer(folder: Path, fields: PeerFields | CouldNotRun) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PEER_FILE).write_text(fields.model_dump_json(indent=1, exclude_none=True) + "\n",
                                    "utf-8")


def could_not_run(folder: Path, fields: CouldNotRun) -> None:
    """The peer's row says why it could not run; a run kept from before leaves the table (its
    verdicts stay in its history)."""
    for name in (*KEPT, *BADGES):
        (folder / name).unlink(missing_ok=True)
    write_peer(folder, fields)


def peer_folders(sources: Iterable[Path]) -> list[Path]:
    """The peer folders (each holding peer.json) of these folders: each is one, or holds some."""
    found = []
    for source in sources:
        if not source.is_dir():
            raise SiteError(f"{source} is not a folder")
        here = [source] if (source / PEER_FILE).is_file() else sorted(
            path.parent for path in source.glob(f"*/{PEER_FILE}"))
        if not here:
            raise SiteError(f"{source} holds no peer folder (one with {PEER_FILE})")
        found += here
    return found


def place(folder: Path, site: Path) -> str:
    """Copy one peer folder into the site, replacing that peer's run; its history is merged."""
    fields = read_peer(folder)
    target = site / fields.id
    if target.resolve() == folder.resolve():
        return fields.id
    if isinstance(fields, PeerFields) and not isinstance(fields, CouldNotRun) and not (
            folder / CONFORMANCE).is_file():
        raise SiteError(f"{folder}: {PEER_FILE} names a run, and there is no {CONFORMANCE}")
    for name in (PEER_FILE, *KEPT, *BADGES):
        (target / name).unlink(missing_ok=True)
    target.mkdir(parents=True, exist_ok=True)
    for name in (PEER_FILE, *KEPT):
        if (folder / name).is_file():
            shutil.copyfile(folder / name, target / name)
    for kept in sorted((folder / HISTORY).glob("*.json")):
        (target / HISTORY).mkdir(exist_ok=True)
        shutil.copyfile(kept, target / HISTORY / kept.name)
    return fields.id


def seed_history(previous: Iterable[PackageHistory], site: Path) -> int:
    """Runs a previous matrix.json kept (the published site's) that the site lacks: written to
    their peer's history, so a site rebuilt from fresh shards keeps its past."""
    written = 0
    for package in previous:
        for run in package.versions:
            path = history_path(site / run.peer, run.version)
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(run.model_dump_json(indent=1) + "\n", "utf-8")
                written += 1
    return written


def history_path(folder: Path, version: str) -> Path:
    return folder / HISTORY / (re.sub(r"[^A-Za-z0-9._-]", "_", version) + ".json")


def build_site(site: Path) -> dict[str, Any]:
    """matrix.json and index.html from the site's peer folders; each run's badges and its
    version's history record written beside it."""
    entries: list[MatrixImplementation] = []
    failed: list[CouldNotRun] = []
    peers: dict[str, PeerFields] = {}
    for folder in sorted(path.parent for path in site.glob(f"*/{PEER_FILE}")):
        fields = read_peer(folder)
        peers[fields.id] = fields
        if isinstance(fields, CouldNotRun):
            failed.append(fields)
            continue
        try:
            document = json.loads((folder / CONFORMANCE).read_text("utf-8"))
        except (OSError, ValueError) as error:
            raise SiteError(f"{folder}: cannot read its {CONFORMANCE}: {error}") from None
        entry = implementation_entry(fields, document)
        entries.append(entry)
        for name, render in BADGES.items():
            (folder / name).write_text(render(document), "utf-8")
        path = history_path(folder, entry.version)
        path.parent.mkdir(exist_ok=True)
        run = with_kit_changes(version_run(entry), _read_run(path) if path.is_file() else None)
        path.write_text(run.model_dump_json(indent=1) + "\n", "utf-8")
    runs = [_read_run(path) for path in sorted(site.glob(f"*/{HISTORY}/*.json"))]
    # The reference first, the control row; then by title and version.
    entries.sort(key=lambda e: (e.id != "reference", e.title, version_key(e.version)))
    document = matrix_document(entries, sorted(failed, key=lambda f: f.id),
                               package_history(peers, runs))
    (site / "matrix.json").write_text(json.dumps(document, indent=1, sort_keys=True) + "\n",
                                      encoding="utf-8")
    (site / "index.html").write_text(render_matrix_html(document), encoding="utf-8")
    return document


def with_kit_changes(run: VersionRun, before: VersionRun | None) -> VersionRun:
    """`run` with the cells the kit moved: against the run it replaces of the same package
    version, when a different kit or contract version made that one; else the changes that run
    recorded, as long as each still stands (a re-run by the same kit is no kit change)."""
    if before is None or before.version != run.version:
        return run
    kit = (run.kit_version, run.contract_version)
    judged_by: str | None
    if (before.kit_version, before.contract_version) != kit:
        moved = {cid: status for cid, status in before.verdicts.items()
                 if run.verdicts.get(cid, status) != status}
        judged_by = f"kit {before.kit_version}, contract {before.contract_version}"
    else:
        moved = {cid: status for cid, status in before.kit_changes.items()
                 if run.verdicts.get(cid, status) != status}
        judged_by = before.judged_before_by
    if not moved:
        return run
    return run.model_copy(update={"kit_changes": moved, "judged_before_by": judged_by})


def _read_run(path: Path) -> VersionRun:
    try:
        return VersionRun.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValidationError) as error:
        raise SiteError(f"{path}: {str(error).splitlines()[0]}") from None
