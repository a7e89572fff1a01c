"""The suites catch broken implementations: each one in impls/ is wrong in exactly one way that a
real project got wrong, and the clause aimed at that mistake must fail against it while the
reference passes the same clause. (The full gallery lives in tests/mutants/.)
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SUITES = HERE.parents[1] / "suites"

BROKEN = [
    ("first_match_edit", "EDIT-03", "test_edit.py"),
    ("head_only_truncation", "TRUNCATE-02", "test_truncate.py"),
    ("prefix_check_write", "CONFINE-04", "test_confine.py"),
    ("lf_only_edit", "EOL-01", "test_eol.py"),
    ("no_realpath_read", "SYMLINK-09", "test_symlink.py"),
]


def _outcomes(impl: str, clause: str, module: str, tmp_path: Path) -> list[str]:
    """Runs one clause's tests against `impl` in a subprocess; the outcomes of its tests."""
    events = tmp_path / f"{clause}.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(HERE / "impls"), os.environ.get("PYTHONPATH", "")]
    )}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
         str(tmp_path), f"--agentconf-impl={impl}", f"--agentconf-clauses={clause}",
         f"--agentconf-events={events}", str(SUITES / module)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert events.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    records = [json.loads(line) for line in events.read_text("utf-8").splitlines() if line]
    return [r["outcome"] for r in records if r.get("event") == "test" and clause in r["clauses"]]


@pytest.mark.parametrize(("module", "clause", "suite"), BROKEN, ids=[b[0] for b in BROKEN])
def test_the_clause_aimed_at_a_broken_implementation_fails(module, clause, suite, tmp_path) -> None:
    outcomes = _outcomes(f"python:{module}:create", clause, suite, tmp_path)
    assert outcomes, f"no test of {clause} ran"
    assert "fail" in outcomes, f"{clause} did not catch {module}: {outcomes}"


@pytest.mark.parametrize(("module", "clause", "suite"), BROKEN, ids=[b[1] for b in BROKEN])
def test_the_reference_passes_the_same_clause(module, clause, suite, tmp_path) -> None:
    outcomes = _outcomes("reference", clause, suite, tmp_path)
    assert outcomes and set(outcomes) == {"pass"}, f"{clause} on the reference: {outcomes}"
