"""`agentconf selftest --coverage` and the out-of-contract list it reads.

The command is run for real at a tiny scale (one clause: seconds, not minutes). The full-scale
measurement (minutes) runs only with AGENTCONF_FULL_COVERAGE=1 set.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agentconf.selfcheck.coverage import (
    CoverageError,
    Exclusion,
    analyse,
    load_exclusions,
    render,
)

TIMEOUT_S = 900  # only to turn a hang into a failure
DATA = Path(__file__).resolve().parents[2] / "agentconf" / "contract" / "data"


def selftest(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    env.update(HOME=str(cwd), TMPDIR=str(cwd))  # every scratch folder of the run lands in cwd
    return subprocess.run(
        [sys.executable, "-m", "agentconf", "selftest", *args], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
    )


# ---------------------------------------------------------------- out_of_contract.toml


def test_every_out_of_contract_entry_names_code_that_exists_with_a_reason() -> None:
    entries = load_exclusions()
    assert entries
    for entry in entries:
        span = entry.span()  # raises for a missing file or function
        assert len(span) >= 1 and len(entry.reason) > 20, entry.label
        source = (DATA.parents[2] / entry.file).read_text().splitlines()
        assert span.stop - 1 <= len(source), f"{entry.label} runs past the end of the file"


def test_no_out_of_contract_entry_is_listed_twice() -> None:
    labels = [entry.label for entry in load_exclusions()]
    assert len(labels) == len(set(labels))


def test_a_function_entry_spans_the_whole_definition_with_its_decorators() -> None:
    entry = Exclusion(file="agentconf/reference/dispatch.py", reason="r", function="_stop")
    source = (DATA.parents[2] / entry.file).read_text().splitlines()
    span = entry.span()
    assert source[span.start - 1].startswith("async def _stop(")
    assert "async def" not in "\n".join(source[span.start : span.stop - 1])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[out_of_contract]]\nfile = "agentconf/reference/serve.py"\n', "reason"),
        ('[[out_of_contract]]\nfile = "x.py"\nreason = "r"\nfunction = "f"\nlines = [1, 2]\n',
         "not both"),
        ('[[out_of_contract]]\nfile = "x.py"\nreason = "r"\nlines = [5, 2]\n', "[first, last]"),
        ('[[out_of_contract]]\nfile = "x.py"\nreason = "r"\nfunctoin = "f"\n', "functoin"),
        ("[[out_of_contract]\n", "out_of_contract.toml"),
    ],
)
def test_a_malformed_out_of_contract_entry_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(CoverageError, match=words.replace("[", r"\[").replace("]", r"\]")):
        load_exclusions(text)


def test_an_entry_for_a_function_that_is_gone_is_an_error() -> None:
    entry = Exclusion(file="agentconf/reference/dispatch.py", reason="r", function="vanished")
    with pytest.raises(CoverageError, match="defines no 'vanished'"):
        entry.span()


def test_an_entry_for_a_file_that_is_gone_is_an_error() -> None:
    with pytest.raises(CoverageError, match="does not exist"):
        Exclusion(file="agentconf/reference/gone.py", reason="r").span()


# ---------------------------------------------------------------- the analysis


def test_excluded_statements_leave_the_percentage_and_are_listed_apart(tmp_path: Path) -> None:
    import coverage

    data = coverage.CoverageData(basename=str(tmp_path / ".coverage"))
    data.write()  # nothing ran: every counted statement is missed
    serve = Exclusion(file="agentconf/reference/serve.py", reason="the transport")
    report = analyse(tmp_path / ".coverage", [serve])
    by_path = {item.path: item for item in report.files}
    assert by_path["agentconf/reference/serve.py"].counted == frozenset()
    assert by_path["agentconf/reference/dispatch.py"].missing  # still counted, and missed
    assert report.percent == 0.0
    text = render(report, 95.0)
    # The count is the file's statements, whatever size the transport grows to.
    listed = re.search(r"serve\.py \((\d+) statements\): the transport", text)
    assert listed and int(listed[1]) == report.exclusions[0].statements > 0
    assert "agentconf/reference/dispatch.py:" in text and "BELOW" in text


# ---------------------------------------------------------------- the command


def test_selftest_coverage_at_a_tiny_scale_names_the_lines_no_clause_reaches(
    tmp_path: Path,
) -> None:
    done = selftest("--coverage", "--clauses", "EOL-04", "--fail-under", "99", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr  # one clause is far below 99%
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    assert "suites:" in out and "passed" in out
    table = {line.split()[0]: line.split() for line in out.splitlines()
             if line.startswith("agentconf/reference/") and line.split()[-1].endswith("%")}
    # An edit of a BOM file runs the EOL splice, and never the shell.
    assert table["agentconf/reference/sandbox/eol.py"][-1] == "100%"
    assert int(table["agentconf/reference/tools/bash.py"][-1].rstrip("%")) < 50
    assert "agentconf/reference/serve.py" not in table  # out of contract: not in the table
    assert "lines no clause exercises:" in out and "(in " in out
    assert "out of the contract" in out and "agentconf/reference/serve.py (" in out
    assert "contract coverage of agentconf/reference:" in out and "required 99%: BELOW" in out
    assert sorted(os.listdir(tmp_path)) == []  # the run cleaned up after itself


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--coverage", "--clauses", "NOPE-99"], "NOPE-99"),
        (["--coverage", "--fail-under", "150"], "--fail-under"),
        (["--clauses", "EOL-04"], "--coverage"),
        (["--coverage", "--table"], "--table"),
    ],
)
def test_bad_coverage_options_are_one_line_and_exit_2(
    tmp_path: Path, args: list[str], words: str
) -> None:
    done = selftest(*args, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in done.stderr


@pytest.mark.skipif(
    not os.environ.get("AGENTCONF_FULL_COVERAGE"),
    reason="full scale takes minutes: set AGENTCONF_FULL_COVERAGE=1 to run it",
)
def test_the_suites_reach_95_percent_of_the_reference_in_the_contract(tmp_path: Path) -> None:
    done = selftest("--coverage", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr


def test_a_line_range_past_the_end_of_its_file_is_an_error() -> None:
    entry = Exclusion(file="agentconf/reference/results.py", reason="r", lines=(1, 10_000))
    with pytest.raises(CoverageError, match="past the end"):
        entry.span()
