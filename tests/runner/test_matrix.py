"""`agentconf matrix` on a real peers folder: the reference and a gallery mutant that lets
edit_file reach outside the root (an escape the disk oracle sees), each run as `agentconf run`
in its own process, on two clauses so the test stays short."""

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest
from cli import agentconf, assert_usage_error

from agentconf.harness.report.matrix import matrix_json_schema, render_matrix_schema, verdicts

CLAUSES = "CONFINE-12,READ-01"
REASON = "edit_file resolves no path: it edits outside the root"


def _peer(folder: Path, peer_id: str, spec: str, extra: str = "") -> Path:
    peer = folder / peer_id
    peer.mkdir(parents=True)
    (peer / "peer.toml").write_text(
        f'[peer]\ntitle = "{peer_id} title"\npackage = "{peer_id}-pkg"\nversion = "1.0"\n'
        f'registry = "local"\nnotes = "wired for a test"\n{extra}', "utf-8")
    (peer / "agentconf.toml").write_text(
        f'[implementation]\nspec = "{spec}"\nname = "{peer_id}"\nversion = "1.0"\n', "utf-8")
    return peer


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("matrix")
    peers = work / "peers"
    # A profile that lives elsewhere (an example's own), named by peer.toml's `profile`.
    shared = _peer(work / "examples", "reference", "reference") / "agentconf.toml"
    reference = peers / "reference"
    reference.mkdir(parents=True)
    (reference / "peer.toml").write_text(
        (shared.parent / "peer.toml").read_text("utf-8")
        + 'profile = "../../examples/reference/agentconf.toml"\n', "utf-8")
    escaping = _peer(peers, "edit-unconfined", "python:adapter:create")
    # The profile's folder is on sys.path: its adapter module is found wherever the run starts.
    (escaping / "adapter.py").write_text(
        "from agentconf.selfcheck.gallery import EditUnconfined as create\n", "utf-8")
    (escaping / "expected-failures.toml").write_text(f'"CONFINE-12" = "{REASON}"\n', "utf-8")
    # Both peers at once: each run's console comes whole, and the verdicts are a serial run's
    # (the departure test below runs one peer alone).
    done = agentconf("matrix", "--clauses", CLAUSES, "-n", "1", "--jobs", "2", cwd=work)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for peer_id in ("reference", "edit-unconfined"):
        start = done.stdout.index(f"---- agentconf matrix: {peer_id}: its run's console")
        end = done.stdout.index(f"---- end of {peer_id}'s console")
        assert "planned checks executed" in done.stdout[start:end]
    return work


def _matrix(work: Path) -> dict:
    return json.loads((work / "docs/matrix/matrix.json").read_text("utf-8"))


def test_the_matrix_holds_every_peer_each_check_executed_and_valid_against_its_schema(
    site: Path,
) -> None:
    document = _matrix(site)
    jsonschema.validate(document, matrix_json_schema())
    by_id = {entry["id"]: entry for entry in document["implementations"]}
    assert sorted(by_id) == ["edit-unconfined", "reference"]
    for entry in by_id.values():
        assert entry["planned"] == entry["executed"] > 0
        assert (site / "docs/matrix" / entry["page"]).is_file()
        assert entry["run"]["started"]
    assert {cell["status"] for cell in by_id["reference"]["cells"].values()} == {"pass"}
    assert by_id["reference"]["profile"] == "examples/reference/agentconf.toml"


def test_an_escape_is_marked_and_its_triaged_departure_shown_as_a_known_failure(
    site: Path,
) -> None:
    entry = {e["id"]: e for e in _matrix(site)["implementations"]}["edit-unconfined"]
    cell = entry["cells"]["CONFINE-12"]
    assert cell["status"] == "fail" and cell["escape"] is True
    assert cell["known"] == REASON
    assert "agentconf replay" in cell["reproduce"]
    assert entry["escapes"] == ["CONFINE-12"]
    assert entry["cells"]["READ-01"]["status"] == "pass"
    page = (site / "docs/matrix/index.html").read_text("utf-8")
    assert 'id="CONFINE-12--edit-unconfined"' in page
    assert 'href="edit-unconfined/report.html#CONFINE-12"' in page


def test_a_kept_run_is_not_made_again_and_the_verdicts_are_the_same(site: Path) -> None:
    kept = site / "docs/matrix/reference/conformance.json"
    before = kept.read_bytes()
    first = verdicts(_matrix(site))
    done = agentconf("matrix", "--clauses", CLAUSES, cwd=site)
    assert done.returncode == 0, done.stderr
    assert "agentconf run" not in done.stdout  # nothing ran
    assert kept.read_bytes() == before
    assert verdicts(_matrix(site)) == first


def test_a_departure_missing_from_the_baseline_turns_the_matrix_red(
    site: Path, tmp_path: Path
) -> None:
    work = tmp_path / "copy"
    shutil.copytree(site / "peers", work / "peers")
    shutil.copytree(site / "examples", work / "examples")
    (work / "peers/edit-unconfined/expected-failures.toml").unlink()
    done = agentconf("matrix", "--clauses", CLAUSES, "--only", "edit-unconfined", "-n", "1",
                     "--jobs", "1", cwd=work)  # alone, its run speaks to the console as it goes
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr
    assert "left their baseline: edit-unconfined" in done.stderr
    assert "its run's console" not in done.stdout and "planned checks executed" in done.stdout
    cell = _matrix(work)["implementations"][0]["cells"]["CONFINE-12"]
    assert cell["status"] == "fail" and "known" not in cell


def test_a_peer_installed_elsewhere_is_found_through_the_cache_the_matrix_was_given(
    tmp_path: Path,
) -> None:
    # The profile starts its server from {peers_cache}; only the --cache folder holds it.
    _peer(tmp_path / "peers", "served", "cmd:sh {peers_cache}/served/start.sh")
    elsewhere = tmp_path / "installs"
    (elsewhere / "served").mkdir(parents=True)
    (elsewhere / "served/start.sh").write_text(
        f"exec {sys.executable} -m agentconf serve\n", "utf-8")
    done = agentconf("matrix", "--clauses", "READ-01", "-n", "1", "--cache", str(elsewhere),
                     cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    cells = _matrix(tmp_path)["implementations"][0]["cells"]
    assert cells["READ-01"]["status"] == "pass"
    # Without it, the default .cache/peers beside the peers folder holds nothing: no start.
    done = agentconf("matrix", "--clauses", "READ-01", "-n", "1", "--rerun", cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "served: could not run" in done.stderr


def test_a_peer_that_is_not_well_described_is_one_line_and_exit_2(tmp_path: Path) -> None:
    peer = _peer(tmp_path / "peers", "broken", "reference")
    (peer / "peer.toml").write_text('[peer]\ntitle = "x"\nregistry = "pip"\n', "utf-8")
    done = agentconf("matrix", cwd=tmp_path)
    assert_usage_error(done, "peer.toml", "registry", "version")
    assert_usage_error(agentconf("matrix", "--only", "nobody", cwd=tmp_path), "nobody")
    assert_usage_error(agentconf("matrix", "--jobs", "0", cwd=tmp_path), "--jobs", "at least 1")


def test_the_published_matrix_schema_is_the_models() -> None:
    published = (Path(__file__).resolve().parents[2] / "agentconf/schemas/matrix.schema.json")
    assert published.read_text("utf-8") == render_matrix_schema(), (
        "run: python -m agentconf.harness.report.generate")


def test_a_check_stopped_by_an_escape_charged_elsewhere_marks_no_escape_on_its_clause() -> None:
    from agentconf.harness.report.matrix import escaped

    stopped = {"nodeid": "m[x]", "outcome": "n/a", "evidence": "n/a: ... charged to CONFINE-14: "
               "escape after read_file: the answer contains the canaries' secret"}
    failed = {"nodeid": "m[y]", "outcome": "fail", "evidence": "the failure names no tool"}
    clause = {"status": "fail", "evidence": failed["evidence"], "tests": [stopped, failed]}
    assert not escaped(clause)
    escaping = {**failed, "evidence": "escape after write_file: the disk outside the root changed"}
    assert escaped({**clause, "tests": [stopped, escaping]})


def test_sigterm_stops_the_matrix_and_every_run_it_started(tmp_path: Path) -> None:
    """A matrix killed (a CI job cancelled) once left its peers' runs going on alone."""
    import os
    import signal
    import subprocess
    import time

    from test_stopping import processes_with

    for peer_id in ("first", "second"):
        _peer(tmp_path / "peers", peer_id, "reference")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    env["AGENTCONF_CACHE"] = str(tmp_path / ".cache")
    # SHELL's checks wait on timeouts: both runs are surely going when the signal comes.
    matrix = subprocess.Popen(
        [sys.executable, "-m", "agentconf", "matrix", "--clauses", "SHELL", "--jobs", "2"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(
            processes_with("AGENTCONF_CACHE", str(tmp_path / ".cache"))) < 3:
        time.sleep(0.2)
    time.sleep(2)
    matrix.send_signal(signal.SIGTERM)
    output, _ = matrix.communicate(timeout=120)
    assert matrix.returncode == 128 + signal.SIGTERM, output
    assert "interrupted by SIGTERM" in output
    assert processes_with("AGENTCONF_CACHE", str(tmp_path / ".cache")) == []
