"""`pytest --agentconf-impl SPEC` as a user types it in their project (the `pytest` command, not
`python -m pytest`): their module importable, the option never silently ignored beside their own
tests, clause ids usable with -k, ./agentconf.toml found as `agentconf run` finds it, one outcome
per escape and a failure shown without the kit's own frames."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PYTEST = Path(sys.executable).parent / "pytest"
MYTOOLS = "from agentconf.reference import create\n"
PROFILE = ('[implementation]\nspec = "python:mytools:create"\nname = "mytools"\n'
           "[capabilities]\ngrep = false\n")


def pytest_in(folder: Path, *args: str, pythonpath: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "HYPOTHESIS_", "PYTHONPATH"))}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run([str(PYTEST), "-p", "no:cacheprovider", "-n", "0", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "mytools.py").write_text(MYTOOLS, "utf-8")
    return tmp_path


def test_the_projects_own_module_is_importable(project: Path) -> None:
    done = pytest_in(project, "-q", "--agentconf-impl", "python:mytools:create",
                     "--agentconf-clauses", "READ-01")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_beside_the_projects_own_tests_the_option_warns_or_runs_the_suites_too(
    project: Path,
) -> None:
    (project / "tests").mkdir()
    (project / "tests/test_own.py").write_text("def test_own():\n    assert True\n", "utf-8")
    alone = pytest_in(project, "-q", "--agentconf-impl", "python:mytools:create")
    assert alone.returncode == 0, alone.stdout[-2000:]
    assert "1 passed" in alone.stdout
    assert "checks nothing here" in alone.stdout and "--agentconf-suites" in alone.stdout
    both = pytest_in(project, "-q", "-rA", "--agentconf-impl", "python:mytools:create",
                     "-k", "test_own or READ-01", "--agentconf-suites")
    assert both.returncode == 0, both.stdout[-2000:]
    assert "test_own.py::test_own" in both.stdout and "test_read" in both.stdout
    assert "checks nothing here" not in both.stdout


def test_a_clause_id_selects_its_checks_with_k(project: Path) -> None:
    done = pytest_in(project, "--collect-only", "-q", "--agentconf-impl", "python:mytools:create",
                     "-k", "EOL-01")
    assert done.returncode == 0, done.stdout[-2000:]
    selected = [line for line in done.stdout.splitlines() if "::" in line]
    assert selected and all("eol" in line.lower() for line in selected), selected


def test_the_profile_in_the_folder_is_used_as_agentconf_run_uses_it(project: Path) -> None:
    """[capabilities] grep = false: GREP-02 is n/a for both front doors, never passed by one."""
    (project / "agentconf.toml").write_text(PROFILE, "utf-8")
    done = pytest_in(project, "-rs", "--agentconf-impl", "python:mytools:create",
                     "--agentconf-clauses", "GREP-02")
    assert "found in this folder" in done.stdout
    assert "lacks grep (required by GREP-02)" in done.stdout and " passed" not in done.stdout
    run = subprocess.run([str(PYTEST.with_name("agentconf")), "run", "--clauses", "GREP-02"],
                         cwd=project, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    document = (project / "reports/mytools/conformance.json").read_text("utf-8")
    assert '"status": "n/a"' in document


def test_one_escape_is_one_failure_shown_without_the_kits_frames(tmp_path: Path) -> None:
    args = ("--agentconf-impl", "python:agentconf.selfcheck.gallery:EditUnconfined", "-k",
            "test_edit_file_never_changes_a_file_outside and cold-relative")
    done = pytest_in(tmp_path, *args)
    assert "1 failed" in done.stdout and "error" not in done.stdout.splitlines()[-1], done.stdout
    assert "escape after edit_file" in done.stdout
    assert "harness/session/client.py" not in done.stdout
    full = pytest_in(tmp_path, *args, "--fulltrace")
    assert "harness/session/client.py" in full.stdout


def test_a_golden_case_failure_shows_the_case_not_the_player(tmp_path: Path) -> None:
    """The case player's module is imported with the suites, after pytest is configured."""
    done = pytest_in(tmp_path, "--agentconf-impl",
                     "python:agentconf.selfcheck.gallery:LfOnlyWrite", "-k",
                     "eol-crlf-single-line-edit")
    assert "1 failed" in done.stdout, done.stdout[-2000:]
    assert "should hold b'alpha\\r\\nBETA" in done.stdout
    assert "harness/cases/play.py" not in done.stdout
