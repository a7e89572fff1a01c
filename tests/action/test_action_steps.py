"""The composite action (action.yml) as users run it: its steps run by bash as GitHub's runner
runs them (action_runner.py), on a fresh virtual environment standing for the runner's Python.

The kit is not fetched from an index: its source and this environment's packages are on
PYTHONPATH, and pip runs with no index, so the action's `pip install agentconf-kit[mcp]==V`
finds it installed, as it would after a download, and nothing leaves the machine."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from action_runner import Run, clean_environment, run_action

from agentconf import __version__

REPO = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")
IMPLEMENTATION = '"""A tool system of the user\'s own: the reference under another name."""\n' \
                 "from agentconf.reference import create\n\n__all__ = ['create']\n"


def _environment(tmp_path: Path, python_dir: Path) -> dict[str, str]:
    env = clean_environment()
    env.update(PATH=os.pathsep.join([str(python_dir), env["PATH"]]), HOME=str(tmp_path / "home"),
               PYTHONPATH=os.pathsep.join([str(REPO), sysconfig.get_path("purelib")]),
               PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               TMPDIR=str(tmp_path / "tmp"), AGENTCONF_CACHE=str(tmp_path / "cache"))
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return env


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "checkout"
    folder.mkdir()
    return folder


def _fresh_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "runner-python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    return venv / "bin"


def _run(workspace: Path, tmp_path: Path, python_dir: Path, **inputs: str) -> Run:
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    return run_action(inputs, workspace, _environment(tmp_path, python_dir), temp,
                      github={"event_name": "pull_request", "repository": "someone/tools",
                              "event": {"pull_request": {"head": {"repo": {
                                  "full_name": "a-fork/tools"}}}}})


def test_a_profile_that_does_not_exist_stops_the_action_with_exit_2(
    workspace: Path, tmp_path: Path
) -> None:
    """Today's false green: a misspelt profile was dropped and the reference checked."""
    run = _run(workspace, tmp_path, tmp_path, profile="agentconf-typo.toml")
    plan = run.step("what to check")
    assert plan.status == 2, plan.output
    assert "agentconf-typo.toml" in plan.output and "does not exist" in plan.output
    assert "agentconf-typo.toml' does not exist" in run.summary
    assert not run.step("agentconf run").ran and not run.step("install").ran


def test_no_implementation_named_and_no_profile_here_stops_the_action(
    workspace: Path, tmp_path: Path
) -> None:
    run = _run(workspace, tmp_path, tmp_path)
    assert run.step("what to check").status == 2
    assert "no implementation to check" in run.summary and "reference" in run.summary


def test_matrix_jobs_upload_their_reports_under_names_of_their_own(
    workspace: Path, tmp_path: Path
) -> None:
    names = {run_action({"profile": "missing.toml"}, workspace, _environment(tmp_path, tmp_path),
                        tmp_path, job_index=index).step("what to check").outputs["artifact"]
             for index in (0, 1)}
    assert len(names) == 2, names


def test_a_python_implementation_installed_by_the_workflow_is_what_the_kit_checks(
    workspace: Path, tmp_path: Path
) -> None:
    """python-version left empty: the Python the workflow set up (this fresh venv) gets the
    implementation first, then the kit, which imports it from there."""
    python_dir = _fresh_venv(tmp_path)
    site = subprocess.run([str(python_dir / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "mytools.py").write_text(IMPLEMENTATION, "utf-8")  # the workflow's install
    run = _run(workspace, tmp_path, python_dir, impl="python:mytools:create",
               clauses="READ-01")
    assert not run.step("setup-python").ran
    install = run.step("install agentconf-kit")
    assert install.status == 0, install.output
    assert install.outputs["python"] == str(python_dir / "python")
    checked = run.step("agentconf run")
    assert checked.status == 0, checked.output[-3000:]
    assert checked.output.startswith("agentconf: checking mytools (python:mytools:create)")
    assert "### agentconf: mytools" in run.summary and "GREEN" in run.summary
    upload = run.step("upload-artifact")
    assert upload.ran and upload.given["name"] == "agentconf-conformance-0-1"
    junit = run.step("action-junit-report")
    # A pull request from a fork: no token to write a check run with, so annotations only.
    assert junit.ran and junit.given["annotate_only"] == "true"


def _externally_managed(python: Path) -> bool:
    probe = ("import os, sys, sysconfig; sys.exit(0 if os.path.isfile(os.path.join("
             "sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')) else 1)")
    return python.is_file() and subprocess.run([str(python), "-c", probe],
                                               check=False).returncode == 0


@pytest.mark.skipif(not _externally_managed(SYSTEM_PYTHON),
                    reason="no externally managed (PEP 668) /usr/bin/python3 on this machine")
def test_a_system_python_is_never_pip_installed_into(workspace: Path, tmp_path: Path) -> None:
    """python-version empty on a runner whose `python` is the distribution's own: pip would
    refuse it (PEP 668), so the kit goes into a venv of its own that sees the system's packages."""
    python_dir = tmp_path / "system-bin"
    python_dir.mkdir()
    (python_dir / "python").symlink_to(SYSTEM_PYTHON)
    (workspace / "mytools.py").write_text(IMPLEMENTATION, "utf-8")
    run = _run(workspace, tmp_path, python_dir, impl="python:mytools:create",
               clauses="READ-01")
    install = run.step("install agentconf-kit")
    assert install.status == 0, install.output
    assert install.outputs["python"] == str(tmp_path / "runner-temp/agentconf-venv/bin/python")
    checked = run.step("agentconf run")
    assert checked.status == 0, checked.output[-3000:]


def test_the_action_installs_the_kit_version_it_is_released_with() -> None:
    from ruamel.yaml import YAML

    action = YAML(typ="safe").load((REPO / "action.yml").read_text("utf-8"))
    assert action["inputs"]["version"]["default"] == __version__
    assert action["inputs"]["python-version"]["default"] == ""
    assert shutil.which("bash") is not None


def test_the_workflow_init_writes_sets_python_up_before_the_implementation_and_the_kit(
    tmp_path: Path,
) -> None:
    """The order that makes a python: implementation importable by the kit: the Python first,
    the implementation into it, then the action (which leaves python-version empty)."""
    from ruamel.yaml import YAML

    from agentconf.commands.init import ACTION, FILES

    text = FILES[Path(".github/workflows/agentconf.yml")]
    steps = YAML(typ="safe").load(text)["jobs"]["conformance"]["steps"]
    uses = [step.get("uses", "") for step in steps]
    setup = next(i for i, u in enumerate(uses) if u.startswith("actions/setup-python"))
    ours = next(i for i, u in enumerate(uses) if u.startswith(ACTION))
    assert setup < ours and "python-version" not in steps[ours]["with"]
    assert text.index("setup-python") < text.index("pip install .") < text.index(ACTION)
