"""`agentconf matrix` sharded as the CI workflow runs it: each peer in its own process and folder
(`--only X --out DIR`), then `agentconf matrix combine DIR...`, gives the cells one run over the
same peers gives; a peer that cannot be installed or started is a row "could not run" with its
reason, and the others publish. Real peers of this repository: the reference, plain-python (an
independent implementation over cmd:) and the official MCP filesystem server."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from cli import agentconf, assert_usage_error

from agentconf.harness.report.matrix import matrix_json_schema, verdicts

REPO = Path(__file__).resolve().parents[2]
PEERS = REPO / "peers"
CACHE = REPO / ".cache" / "peers"
# A few clauses on which the three differ: the filesystem server departs from EDIT-03, and its
# edit_file has no replace_all (EDIT-04 n/a).
CLAUSES = "READ-01,EDIT-03,EDIT-04,CONFINE-12"
THREE = ["reference", "plain-python", "server-filesystem"]



def _installed(peer: str) -> bool:
    """Installed from today's lockfile: the matrix then installs nothing (the test writes nothing
    into the checkout's cache)."""
    lock, installed = PEERS / peer / "package-lock.json", CACHE / peer / "package-lock.json"
    return (CACHE / peer / "node_modules" / ".package-lock.json").is_file() and \
        installed.is_file() and installed.read_bytes() == lock.read_bytes()


# CI installs it (.ci/run); a developer runs: bash scripts/install-peers.sh server-filesystem
needs_filesystem = pytest.mark.skipif(
    not _installed("server-filesystem") and not os.environ.get("CI"),
    reason="server-filesystem is not installed from its lockfile")


def _matrix(site: Path) -> dict:
    document = json.loads((site / "matrix.json").read_text("utf-8"))
    jsonschema.validate(document, matrix_json_schema())
    return document


def _shard(peer: str, out: Path, cwd: Path, peers: Path = PEERS) -> subprocess.Popen:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
           "HOME": str(cwd), "AGENTCONF_CACHE": str(cwd / ".cache")}
    return subprocess.Popen(
        [sys.executable, "-m", "agentconf", "matrix", "--peers", str(peers), "--cache",
         str(CACHE), "--only", peer, "--out", str(out), "--clauses", CLAUSES, "-n", "1"],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _broken_peers(folder: Path) -> Path:
    """An npm peer without its lockfile (its install fails), a local one whose program does not
    exist (its run fails), and one that no job ever ran."""
    for peer_id, registry, spec in (("no-install", "npm", "mcp:node server.js {root}"),
                                    ("no-start", "local", "cmd:/nonexistent/agentconf-peer"),
                                    ("no-job", "local", "reference")):
        peer = folder / peer_id
        peer.mkdir(parents=True)
        (peer / "peer.toml").write_text(
            f'[peer]\ntitle = "{peer_id}"\npackage = "{peer_id}-pkg"\nversion = "1.0"\n'
            f'registry = "{registry}"\n', "utf-8")
        (peer / "agentconf.toml").write_text(
            f'[implementation]\nspec = "{spec}"\nname = "{peer_id}"\n', "utf-8")
    return folder


@pytest.fixture(scope="module")
def sharded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three real peers, each in its own process and folder at once, plus two broken peers."""
    work = tmp_path_factory.mktemp("sharded")
    broken = _broken_peers(work / "broken-peers")
    jobs = [_shard(peer, work / "shards" / peer, work) for peer in THREE]
    jobs += [_shard(peer, work / "shards" / peer, work, broken)
             for peer in ("no-install", "no-start")]
    for peer, job in zip([*THREE, "no-install", "no-start"], jobs, strict=True):
        output, _ = job.communicate(timeout=600)
        expected = 1 if peer.startswith("no-") else 0
        assert job.returncode == expected, f"{peer}: {output[-3000:]}"
    done = agentconf("matrix", "combine", *sorted(str(p) for p in (work / "shards").iterdir()),
                     "--out", str(work / "site"), "--peers", str(broken), cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    return work


@needs_filesystem
def test_shards_combined_give_the_cells_of_one_run_over_the_same_peers(
    sharded: Path, tmp_path: Path
) -> None:
    done = agentconf("matrix", "--peers", str(PEERS), "--cache", str(CACHE), "--only",
                     ",".join(THREE), "--out", str(tmp_path / "whole"), "--clauses", CLAUSES,
                     "-n", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    whole, combined = _matrix(tmp_path / "whole"), _matrix(sharded / "site")
    assert verdicts(combined) == verdicts(whole)
    assert len(verdicts(whole)) == 3 * len(CLAUSES.split(","))
    # Not all alike: the filesystem server's EDIT-03 and EDIT-04 differ from the reference's.
    assert verdicts(whole)[("server-filesystem", "EDIT-03")] == "fail"
    assert verdicts(whole)[("server-filesystem", "EDIT-04")] == "n/a"
    assert verdicts(whole)[("reference", "EDIT-03")] == "pass"
    for entry in combined["implementations"]:
        assert entry["planned"] == entry["executed"] > 0
        for name in ("report.html", "badge.svg", "badge.json", "peer.json"):
            assert (sharded / "site" / entry["id"] / name).is_file(), (entry["id"], name)


@needs_filesystem
def test_a_peer_that_could_not_run_is_a_row_with_its_reason_and_the_others_publish(
    sharded: Path,
) -> None:
    document = _matrix(sharded / "site")
    assert sorted(e["id"] for e in document["implementations"]) == sorted(THREE)
    failed = {f["id"]: f for f in document["could_not_run"]}
    assert sorted(failed) == ["no-install", "no-job", "no-start"]
    assert failed["no-install"]["stage"] == "install"
    assert "package-lock.json" in failed["no-install"]["reason"]
    assert failed["no-start"]["stage"] == "run"
    assert "wrote no report" in failed["no-start"]["reason"]
    assert "no run of it reached the combine step" in failed["no-job"]["reason"]
    page = (sharded / "site" / "index.html").read_text("utf-8")
    assert page.count("<b>could not run</b>") == 3
    assert not (sharded / "site" / "no-install" / "conformance.json").exists()


def test_combine_of_a_folder_that_holds_no_peer_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert_usage_error(agentconf("matrix", "combine", "empty", cwd=tmp_path), "no peer folder")
    bad = tmp_path / "bad" / "x"
    bad.mkdir(parents=True)
    (bad / "peer.json").write_text('{"id": "x"}', "utf-8")
    assert_usage_error(agentconf("matrix", "combine", "bad", cwd=tmp_path), "peer.json")
    # A previous matrix.json that is not one: nothing of the site is written.
    (tmp_path / "old.json").write_text('{"history": [{"package": "x"}]}', "utf-8")
    assert_usage_error(agentconf("matrix", "combine", "empty", "--previous", "old.json",
                                 "--out", "site", cwd=tmp_path), "old.json is no readable")
    assert not (tmp_path / "site").exists()


def test_the_peer_list_is_a_strategy_matrix_of_every_peer(tmp_path: Path) -> None:
    done = agentconf("matrix", "--peers", str(PEERS), "--list", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    include = json.loads(done.stdout)["include"]
    assert [row["peer"] for row in include] == sorted(p.parent.name
                                                      for p in PEERS.glob("*/peer.toml"))
    python = {row["peer"]: row["python"] for row in include}
    assert python["openhands-aci"] == "3.12" and python["reference"] == "3.12"


def test_one_run_over_a_folder_with_a_broken_peer_publishes_the_others_and_exits_1(
    tmp_path: Path,
) -> None:
    peers = tmp_path / "peers"
    _broken_peers(peers)
    shutil.rmtree(peers / "no-start")  # "no-job" is the reference under another name here
    done = agentconf("matrix", "--peers", str(peers), "--clauses", "READ-01", "-n", "1",
                     cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "could not run: no-install" in done.stderr
    document = _matrix(tmp_path / "docs/matrix")
    assert [e["id"] for e in document["implementations"]] == ["no-job"]
    assert document["implementations"][0]["cells"]["READ-01"]["status"] == "pass"
    assert [(f["id"], f["stage"]) for f in document["could_not_run"]] == [("no-install", "install")]


def test_a_peer_the_kit_cannot_judge_yet_is_listed_with_its_reason_never_run_and_not_a_failure(
    tmp_path: Path,
) -> None:
    peers = tmp_path / "peers"
    _broken_peers(peers)
    shutil.rmtree(peers / "no-install")
    # its program does not exist: were it run, the row would say "could not run (run)"
    toml = peers / "no-start" / "peer.toml"
    toml.write_text(toml.read_text("utf-8")
                    + 'cannot_judge = "answers in a shape no profile can express yet"\n', "utf-8")
    done = agentconf("matrix", "--peers", str(peers), "--clauses", "READ-01", "-n", "1",
                     cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "no-start: not judged yet: answers in a shape" in done.stdout
    document = _matrix(tmp_path / "docs/matrix")
    assert [e["id"] for e in document["implementations"]] == ["no-job"]
    assert [(f["id"], f["stage"], f["reason"]) for f in document["could_not_run"]] == [
        ("no-start", "judge", "answers in a shape no profile can express yet")]
    page = (tmp_path / "docs/matrix/index.html").read_text("utf-8")
    assert "<b>could not run</b> (judge): answers in a shape" in page
