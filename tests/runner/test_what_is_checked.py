"""No false green: `agentconf run` with no --impl checks ./agentconf.toml when there is one, says on
its first line what it checks and how it chose it, and a run of the built-in reference says so in
its verdict; an implementation that does not start leaves the log its message points to, in the
report folder, and no temporary folder."""

import re
from pathlib import Path

import pytest
from cli import agentconf

from agentconf.harness.run.discover import choose

PROFILE = '[implementation]\nspec = "python:agentconf.reference:create"\nname = "mytools"\n'


def test_a_bare_run_checks_the_profile_in_this_folder_and_says_so_first(tmp_path: Path) -> None:
    (tmp_path / "agentconf.toml").write_text(PROFILE, "utf-8")
    done = agentconf("run", "--clauses", "READ-01", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("agentconf: checking mytools (python:agentconf.reference:create"), first
    assert "./agentconf.toml, found in this folder" in first
    assert (tmp_path / "reports/mytools/conformance.json").is_file()
    assert "implementation `agentconf.toml`" in (tmp_path / "reports/mytools/report.md").read_text()


def test_a_run_of_the_reference_cannot_be_read_as_a_verdict_on_yours(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    done = agentconf("run", "--clauses", "READ-01", "--summary-md", str(summary), cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    lines = done.stdout.splitlines()
    assert "nothing of yours is checked" in lines[0]
    assert re.match(r"GREEN for the built-in reference tool system, not an implementation of "
                    r"yours .*: report in", lines[-1]), lines[-1]
    assert "This checked the built-in reference tool system" in summary.read_text("utf-8")


@pytest.mark.parametrize(("impl", "profile", "spec", "expected"), [
    (None, None, None, (None, None, "built-in reference")),
    (None, None, "python:m:create", (None, "agentconf.toml", "found in this folder")),
    ("python:m:create", None, "python:m:create", ("python:m:create", "agentconf.toml", "found")),
    ("reference", None, "python:m:create", ("reference", None, "not used: it names python:m")),
    (None, "other.toml", "python:m:create", (None, "other.toml", "")),
    ("cmd:x", None, "", ("cmd:x", "agentconf.toml", "found")),  # a profile that only maps names
    # --impl naming the profile file itself: that profile, said as named (no "is not used").
    ("agentconf.toml", None, "python:m:create", ("agentconf.toml", None, "")),
])
def test_the_profile_here_is_used_unless_another_implementation_is_named(
    tmp_path: Path, impl: str | None, profile: str | None, spec: str | None,
    expected: tuple[str | None, str | None, str],
) -> None:
    if spec is not None:
        text = f'[implementation]\nspec = "{spec}"\n' if spec else '[limits]\n'
        (tmp_path / "agentconf.toml").write_text(text, "utf-8")
    choice = choose(impl, profile, tmp_path)
    assert (choice.impl, choice.profile) == expected[:2]
    assert expected[2] in choice.origin


def test_the_log_a_failed_start_points_to_is_kept_in_the_report_and_no_temp_folder(
        tmp_path: Path) -> None:
    (tmp_path / "dead.py").write_text("import sys\nsys.stderr.write('boom: no config\\n')\n"
                                      "sys.exit(3)\n", "utf-8")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = agentconf("run", "--impl", f"cmd:python3 {tmp_path / 'dead.py'}", "--clauses",
                     "READ-01", "--report", "out", cwd=tmp_path,
                     env_extra={"TMPDIR": str(scratch)})
    assert done.returncode == 2, done.stderr
    log = re.search(r"log (\S+\.log)\)", done.stderr)
    assert log is not None, done.stderr
    kept = tmp_path / log[1]  # as the user's working folder reads it
    assert kept.parent == tmp_path / "out" / "start-logs"
    assert "boom: no config" in kept.read_text("utf-8")
    assert list(scratch.iterdir()) == []
