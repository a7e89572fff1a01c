"""The matrix's history: a peer keeps each version's verdicts (`<peer>/history/<version>.json`),
peers that are versions of one package are grouped, and the site shows a clause across versions.
Built from real runs: the committed conformance.json of the official filesystem server at
2025.3.28 (CVE-2025-53109/53110) and at 2026.8.31."""

import json
import shutil
from pathlib import Path

import jsonschema
from cli import agentconf

from agentconf.harness.report.matrix import (
    PackageHistory,
    PeerFields,
    VersionRun,
    matrix_json_schema,
    verdicts,
)
from agentconf.harness.report.matrix_history import closed_departures, remaining_departures
from agentconf.harness.report.matrix_site import build_site, with_kit_changes

SITE = Path(__file__).resolve().parents[2] / "docs" / "matrix"
PACKAGE = "@modelcontextprotocol/server-filesystem"
# CVE-2025-53110 (a prefix check lets the sibling <root>_evil through: CONFINE-04, -11) and
# CVE-2025-53109 (links out followed: SYMLINK-01, -09, -10), as peers/server-filesystem-2025.3.28
# triaged and reproduced them: escapes of 2025.3.28 the later versions closed.
CVE_CLAUSES = {"CONFINE-04", "CONFINE-11", "CONFINE-12", "SYMLINK-01", "SYMLINK-09", "SYMLINK-10"}


def _shard(folder: Path, version: str, source: str) -> Path:
    # Named as actions/download-artifact names it (the artifact's name), not by the peer's id.
    peer = folder / "peer-fs"
    peer.mkdir(parents=True)
    for name in ("conformance.json", "report.html"):
        shutil.copyfile(SITE / source / name, peer / name)
    fields = PeerFields(id="fs", title="MCP filesystem server", package=PACKAGE, version=version,
                        registry="npm", page="fs/report.html", profile="peers/fs/agentconf.toml",
                        command="agentconf run --impl peers/fs/agentconf.toml")
    (peer / "peer.json").write_text(fields.model_dump_json(), "utf-8")
    return peer


def _group(site: Path) -> PackageHistory:
    document = json.loads((site / "matrix.json").read_text("utf-8"))
    jsonschema.validate(document, matrix_json_schema())
    return next(PackageHistory.model_validate(h) for h in document["history"]
                if h["package"] == PACKAGE)


def test_a_new_version_of_a_peer_keeps_the_old_versions_verdicts(tmp_path: Path) -> None:
    old = _shard(tmp_path / "old", "2025.3.28", "server-filesystem-2025.3.28")
    new = _shard(tmp_path / "new", "2026.8.31", "server-filesystem")
    # The folder of downloaded artifacts, then a peer folder itself.
    for shard in (old.parent, new):
        done = agentconf("matrix", "combine", str(shard), "--out", "site", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    assert (site / "fs/history/2025.3.28.json").is_file()
    document = json.loads((site / "matrix.json").read_text("utf-8"))
    assert [(e["id"], e["version"]) for e in document["implementations"]] == [
        ("fs", "2026.8.31")]
    group = _group(site)
    assert [r.version for r in group.versions] == ["2025.3.28", "2026.8.31"]
    assert set(group.versions[0].escapes) >= CVE_CLAUSES
    assert group.versions[1].escapes == []
    assert set(closed_departures(group)) >= CVE_CLAUSES
    page = (site / "index.html").read_text("utf-8")
    versions = page.split("Across versions", 1)[1]
    # The current version links to its report at the clause; the old one's record has no page.
    assert '<a href="fs/report.html#CONFINE-12">✓</a>' in versions
    assert '<td class="fail escape" title="CONFINE-12: fail">ESC</td>' in versions
    # A site rebuilt from the newest shard alone keeps the past the published matrix.json holds.
    done = agentconf("matrix", "combine", str(new), "--out", "fresh", "--previous",
                     "site/matrix.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [r.version for r in _group(tmp_path / "fresh").versions] == ["2025.3.28", "2026.8.31"]


def test_the_filesystem_servers_three_versions_show_the_cves_closed_and_what_remains() -> None:
    group = _group(SITE)
    assert [r.version for r in group.versions] == ["2025.3.28", "2025.7.1", "2026.8.31"]
    assert [r.peer for r in group.versions] == [
        "server-filesystem-2025.3.28", "server-filesystem-2025.7.1", "server-filesystem"]
    assert set(group.versions[0].escapes) >= CVE_CLAUSES
    assert group.versions[1].escapes == group.versions[2].escapes == []
    assert set(closed_departures(group)) >= CVE_CLAUSES
    # EDIT-03 (the first of several matches replaced): a departure every version keeps.
    assert "EDIT-03" in remaining_departures(group)
    assert all(r.verdicts["EDIT-03"] == "fail" for r in group.versions)


def test_the_committed_site_is_what_its_peer_folders_build(tmp_path: Path) -> None:
    """matrix.json, its history and the pages in sync with the kept runs (format changes are
    converted by rebuilding from the folders, never by running the peers again)."""
    copy = tmp_path / "site"
    shutil.copytree(SITE, copy)
    committed = json.loads((SITE / "matrix.json").read_text("utf-8"))
    rebuilt = build_site(copy)
    assert verdicts(rebuilt) == verdicts(committed)
    assert rebuilt["history"] == committed["history"]
    for peer in (p.parent for p in SITE.glob("*/peer.json")):
        if json.loads((peer / "peer.json").read_text("utf-8")).get("stage") is not None:
            # a peer that could not run (cannot_judge: stage "judge") has no run, so no badge
            assert not (copy / peer.name / "badge.svg").exists(), peer.name
            continue
        assert (copy / peer.name / "badge.svg").read_text() == (peer / "badge.svg").read_text()


def _run(version: str, contract: str, verdicts: dict[str, str], **more: object) -> VersionRun:
    return VersionRun.model_validate({"peer": "fs", "version": version, "kit_version": "0.1.0",
                                      "contract_version": contract, "escapes": [],
                                      "verdicts": verdicts, **more})


def test_a_cell_that_moved_under_a_new_contract_at_the_same_version_is_the_kits_change() -> None:
    before = _run("1.0", "0.3.0", {"EOL-04": "fail", "EDIT-03": "fail", "READ-01": "pass"})
    now = with_kit_changes(_run("1.0", "0.4.0", {"EOL-04": "pass", "EDIT-03": "fail",
                                                 "READ-01": "pass", "EXEC-01": "n/a"}), before)
    assert now.kit_changes == {"EOL-04": "fail"}  # a clause new in the contract moved nothing
    assert now.judged_before_by == "kit 0.1.0, contract 0.3.0"
    # A re-run by the same kit keeps the change while it stands, and moves nothing new (a race
    # seen in one run and not the next is no change of the kit's).
    again = with_kit_changes(_run("1.0", "0.4.0", {"EOL-04": "pass", "EDIT-03": "pass"}), now)
    assert again.kit_changes == {"EOL-04": "fail"}
    assert again.judged_before_by == "kit 0.1.0, contract 0.3.0"
    # A new version of the package: its cells moved with the package, not the kit.
    assert with_kit_changes(_run("2.0", "0.4.0", {"EOL-04": "pass"}), before).kit_changes == {}


def test_the_site_lists_the_cells_the_kit_moved_with_their_verdict_before(tmp_path: Path) -> None:
    peer = _shard(tmp_path / "shards", "2026.8.31", "server-filesystem")
    done = agentconf("matrix", "combine", str(peer), "--out", "site", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    history = tmp_path / "site/fs/history/2026.8.31.json"
    kept = json.loads(history.read_text("utf-8"))
    assert kept["verdicts"]["EDIT-03"] == "fail"
    kept["verdicts"]["EDIT-03"] = "pass"  # as an older contract judged it
    kept["contract_version"] = "0.0.1"
    history.write_text(json.dumps(kept), "utf-8")
    build_site(tmp_path / "site")
    assert json.loads(history.read_text("utf-8"))["kit_changes"] == {"EDIT-03": "pass"}
    page = (tmp_path / "site/index.html").read_text("utf-8")
    changed = page.split('id="kit-changes"', 1)[1]
    assert "contract 0.0.1" in changed and "EDIT-03</a> ✓ pass → ✗ fail" in changed, changed[:600]
