"""`agentconf run` refuses bad input before starting pytest: one line, exit 2, no traceback."""

from pathlib import Path

import pytest
from cli import agentconf, assert_usage_error


@pytest.mark.parametrize(("args", "words"), [
    (["--impl", "bogus"], ["unknown implementation spec 'bogus'"]),
    (["--impl", "python:no_such_module_here:create"], ["no_such_module_here"]),
    (["--impl", "python:missing-factory"], ["python:MODULE:FACTORY"]),
    (["--impl", "cmd:"], ["no command"]),
    (["--profile", "missing.toml"], ["missing.toml"]),
    (["--clauses", "EDIT-3"], ["unknown clause or category 'EDIT-3'", "EDIT-03"]),
    (["--clauses", ","], ["--clauses"]),
    (["-n", "many"], ["-n"]),
    (["--hypothesis-profile", "slow"], ["hypothesis-profile"]),
    (["--expected-failures", "missing.toml"], ["does not exist"]),
])
def test_bad_usage_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], words: list[str]
) -> None:
    assert_usage_error(agentconf("run", *args, cwd=tmp_path), *words)
    assert not (tmp_path / "reports").exists()  # refused before anything ran


def test_an_unknown_clause_in_the_expected_failures_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "xfail.toml").write_text('"EDIT-99" = "typo"\n')
    assert_usage_error(agentconf("run", "--expected-failures", "xfail.toml", cwd=tmp_path),
                       "xfail.toml", "EDIT-99")


def test_a_broken_profile_is_refused_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "agentconf.toml").write_text("[implementation]\nspec = 3\n")
    assert_usage_error(agentconf("run", "--profile", "agentconf.toml", cwd=tmp_path),
                       "agentconf.toml")
    (tmp_path / "agentconf.toml").write_text(
        '[implementation]\nspec = "cmd:true"\n[expected_failures]\n"NOPE-01" = "x"\n')
    assert_usage_error(agentconf("run", "--profile", "agentconf.toml", cwd=tmp_path), "NOPE-01")


def test_a_whole_run_uses_two_workers_a_core_and_a_few_clauses_stay_in_one_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agentconf.commands.run import default_workers

    for cores, workers in ((2, "4"), (3, "6"), (4, "8"), (6, "8"), (16, "16")):
        monkeypatch.setattr("os.sched_getaffinity", lambda _pid, n=cores: set(range(n)))
        assert default_workers(()) == workers, cores
    assert default_workers(("READ-01",)) is None
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: {0})
    assert default_workers(()) is None
