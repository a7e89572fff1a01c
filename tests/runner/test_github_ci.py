"""The GitHub side: the matrix workflow (.github/workflows/matrix.yml), the composite action tool
authors use (action.yml) and the workflow `agentconf init` writes, each valid against GitHub's
schema as check-jsonschema vendors it (no network: a test never fetches a schema), and wired as
the matrix needs: a job per peer from `agentconf matrix --list --json`, a combine job, Pages."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli import agentconf
from ruamel.yaml import YAML

from agentconf import __version__
from agentconf.commands.init import ACTION

REPO = Path(__file__).resolve().parents[2]
CHECK = Path(sys.executable).parent / "check-jsonschema"
# Without a network when the machine allows it: the vendored schema must be all it needs.
OFFLINE = ["unshare", "-rn"] if shutil.which("unshare") and subprocess.run(
    ["unshare", "-rn", "true"], capture_output=True, check=False).returncode == 0 else []


def _valid(path: Path, schema: str) -> None:
    done = subprocess.run([*OFFLINE, str(CHECK), "--builtin-schema", f"vendor.{schema}",
                           str(path)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _yaml(path: Path) -> dict:
    loaded: dict = YAML(typ="safe").load(path.read_text("utf-8"))
    return loaded


def test_the_matrix_workflow_is_valid_and_runs_a_job_per_peer_then_combines() -> None:
    path = REPO / ".github/workflows/matrix.yml"
    _valid(path, "github-workflows")
    workflow = _yaml(path)
    assert set(workflow["on"]) == {"schedule", "release", "workflow_dispatch"}
    jobs = workflow["jobs"]
    assert "agentconf matrix --list --json" in jobs["peers"]["steps"][-1]["run"]
    peer = jobs["peer"]
    assert peer["strategy"]["fail-fast"] is False
    assert peer["strategy"]["matrix"] == "${{ fromJSON(needs.peers.outputs.matrix) }}"
    runs = " ".join(step.get("run", "") for step in peer["steps"])
    assert 'agentconf matrix --only "${{ matrix.peer }}" --out shard' in runs
    upload = next(s for s in peer["steps"] if s.get("uses", "").startswith(
        "actions/upload-artifact"))
    assert upload["if"] == "always()" and upload["with"]["path"] == "shard/${{ matrix.peer }}"
    combine = jobs["combine"]
    assert "!cancelled()" in combine["if"]
    runs = " ".join(step.get("run", "") for step in combine["steps"])
    assert "agentconf matrix combine shards" in runs and "--out docs/matrix" in runs
    uses = [s.get("uses", "") for j in jobs.values() for s in j["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact") for u in uses)
    assert any(u.startswith("actions/deploy-pages") for u in uses)


def test_the_action_is_valid_and_installs_the_kit_by_its_distribution_name() -> None:
    path = REPO / "action.yml"
    _valid(path, "github-actions")
    action = _yaml(path)
    assert {"impl", "profile", "expected-failures", "clauses", "version"} <= set(action["inputs"])
    assert action["inputs"]["version"]["default"] == __version__
    runs = " ".join(step.get("run", "") for step in action["runs"]["steps"])
    assert 'pip install --disable-pip-version-check "agentconf-kit[mcp]==${KIT_VERSION}"' in runs
    assert '--summary-md "$GITHUB_STEP_SUMMARY"' in runs
    uses = [step.get("uses", "") for step in action["runs"]["steps"]]
    assert any(u.startswith("mikepenz/action-junit-report") for u in uses)


def test_the_workflow_init_writes_is_valid_and_uses_the_action(tmp_path: Path) -> None:
    done = agentconf("init", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    path = tmp_path / ".github/workflows/agentconf.yml"
    _valid(path, "github-workflows")
    steps = _yaml(path)["jobs"]["conformance"]["steps"]
    ours = [s for s in steps if s.get("uses", "").startswith(ACTION)]
    assert len(ours) == 1 and ours[0]["uses"] == f"{ACTION}@v{__version__}"
    assert ours[0]["with"]["version"] == __version__
    # Every input it passes is one the action declares.
    assert set(ours[0]["with"]) <= set(_yaml(REPO / "action.yml")["inputs"])


def test_a_schema_violation_is_caught(tmp_path: Path) -> None:
    """The check can fail: a job with no runs-on and no steps is no workflow."""
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  x:\n    steps: 3\n", "utf-8")
    with pytest.raises(AssertionError):
        _valid(broken, "github-workflows")


def test_the_step_summary_lists_the_escape_first_with_its_reproduce_line(tmp_path: Path) -> None:
    """A real run of a gallery mutant whose edit_file reaches outside the root, appended to a
    summary file that holds an earlier step's text (as $GITHUB_STEP_SUMMARY does)."""
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", "utf-8")
    done = agentconf("run", "--impl", "python:agentconf.selfcheck.gallery:EditUnconfined",
                     "--clauses", "CONFINE-12,READ-01", "--report", "report", "--summary-md",
                     str(summary), cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    text = summary.read_text("utf-8")
    assert text.startswith("earlier step\n### agentconf: ")
    assert "— RED" in text
    escapes, failures = text.split("#### Escapes (1)", 1)[1].split("#### Failures (0)", 1)
    assert "**CONFINE-12** (MUST, fail)" in escapes and "escape after" in escapes
    document = json.loads((tmp_path / "report/conformance.json").read_text("utf-8"))
    reproduce = next(c["reproduce"] for c in document["clauses"] if c["id"] == "CONFINE-12")
    assert f"`{reproduce}`" in escapes
    assert "None." in failures


def test_the_step_summary_says_why_when_the_implementation_cannot_start(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    done = agentconf("run", "--impl", "cmd:/nonexistent/agentconf-tool", "--clauses", "READ-01",
                     "--summary-md", str(summary), cwd=tmp_path,
                     env_extra={"PATH": os.environ.get("PATH", "")})
    assert done.returncode == 2, done.stderr
    assert "/nonexistent/agentconf-tool" in summary.read_text("utf-8")
