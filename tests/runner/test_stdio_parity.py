"""The stdio paths reach the same verdicts as the in-process path: `agentconf serve` over the
`cmd:` protocol, and `agentconf serve --mcp` through the kit's own `mcp:` adapter, are the
reference behind a pipe, so every check — suites, golden cases, message snapshots, the modes
of SURFACE and PERMISSION, cancellation — must come out the same.

Each run is made once per module and shared: the cmd: run is compared with the direct one and
with the MCP one.
"""

import json
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from agentconf.harness.resources import fixtures_dir

RUN_BOUND_S = 3600  # only catches a hang; an MCP server starts for every check
Outcomes = tuple[dict[str, str], dict[str, str]]


def _outcomes(report: Path, *arguments: str) -> Outcomes:
    subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "-n", "2", "--report", str(report), *arguments],
        capture_output=True,
        text=True,
        timeout=RUN_BOUND_S,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    document = json.loads((report / "conformance.json").read_text())
    clauses = {clause["id"]: clause["status"] for clause in document["clauses"]}
    events = [json.loads(line) for line in (report / "events.jsonl").read_text().splitlines()]
    tests = {e["nodeid"]: e["outcome"] for e in events if e["event"] == "test"}
    return clauses, tests


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Outcomes]:
    """`runs(name)`: the outcomes of the run `direct`, `cmd` or `mcp`, made on first use."""
    base = tmp_path_factory.mktemp("parity")
    snapshots = str(fixtures_dir() / "snapshots" / "reference")
    serve = f"{sys.executable} -m agentconf serve"
    arguments = {
        "direct": (),
        "cmd": ("--impl", f"cmd:{serve} --root {{root}}", "--snapshot-dir", snapshots),
        "mcp": ("--impl", f"mcp:{serve} --mcp --root {{root}}", "--snapshot-dir", snapshots),
    }

    @cache
    def run(name: str) -> Outcomes:
        return _outcomes(base / name, *arguments[name])

    return run


def _differing(left: dict[str, str], right: dict[str, str]) -> dict[str, tuple[str, str | None]]:
    return {
        nodeid: (outcome, right.get(nodeid))
        for nodeid, outcome in left.items()
        if right.get(nodeid) != outcome
    }


def test_the_reference_over_stdio_reaches_the_same_verdict_on_every_check(runs) -> None:
    direct_clauses, direct_tests = runs("direct")
    piped_clauses, piped_tests = runs("cmd")
    assert set(direct_clauses.values()) == {"pass"}
    assert piped_clauses == direct_clauses
    differing = _differing(direct_tests, piped_tests)
    assert not differing, differing
    assert len(direct_tests) >= 120


def test_the_reference_over_mcp_reaches_the_same_verdict_as_over_cmd(runs) -> None:
    piped_clauses, piped_tests = runs("cmd")
    mcp_clauses, mcp_tests = runs("mcp")
    assert set(mcp_clauses.values()) == {"pass"}, {
        clause: status for clause, status in mcp_clauses.items() if status != "pass"
    }
    assert mcp_clauses == piped_clauses
    differing = _differing(piped_tests, mcp_tests)
    assert not differing, differing
    new_categories = {"ANNOTATION", "PATCH", "SURFACE", "PERMISSION", "CANCEL"}
    assert new_categories <= {clause.split("-")[0] for clause in mcp_clauses}
