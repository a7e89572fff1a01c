"""The stdio paths reach the same verdicts as the in-process path: `agentconf serve` over the
`cmd:` protocol, and `agentconf serve --mcp` through the kit's own `mcp:` adapter, are the
reference behind a pipe, so every check — suites, golden cases, message snapshots, the modes
of SURFACE and PERMISSION, cancellation — must come out the same.

Each piped check starts a server (about a second of imports under load; an MCP server twice
that), so a whole piped run costs ten to twenty minutes on 2 cores. CI pipes the categories
where the transport is what is tested (envelopes, validation, listing, annotations, concurrency,
cancellation, the modes, bounded output); AGENTCONF_FULL_PARITY=1 pipes every check, as
`scripts/parity.sh` does. Each piped run is compared with the direct one, check by check.
"""

import json
import os
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from once import once

from agentconf.harness.resources import fixtures_dir

RUN_BOUND_S = 3600  # only catches a hang; a server starts for every check
Outcomes = tuple[dict[str, str], dict[str, str]]
CI_CATEGORIES = {
    "cmd": "RESULT,REGISTRY,VALIDATE,TRUNCATE,CONCUR,CANCEL,SURFACE,PERMISSION",
    "mcp": "REGISTRY,VALIDATE,ANNOTATION,CONCUR,CANCEL,SURFACE,PERMISSION",
}
FULL = bool(os.environ.get("AGENTCONF_FULL_PARITY"))
# Checks a transport cannot carry, n/a over it by design (the only differences allowed).
TRANSPORT_LIMITS = {
    "mcp": {
        "suites/test_result.py::test_a_lone_surrogate_in_an_argument_gets_an_envelope":
            "the MCP SDK writes UTF-8 JSON unescaped: a lone surrogate cannot be sent",
    },
}

# Clauses the in-process reference cannot be judged by, n/a in the direct run by design; a piped
# run judges RESULT-09 (the channel exists there), so its checks may differ from the direct ones.
DIRECT_NOT_APPLICABLE = {
    "SHELL-13": "the reference's bash claims no sandbox: the shell is not confined, a fact",
    "RESULT-09": "in process there is no stdio channel",
}
CHANNEL_CHECKS = "suites/test_channel.py::"


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
    snapshots = str(fixtures_dir() / "snapshots" / "reference")
    serve = f"{sys.executable} -m agentconf serve"
    arguments = {
        "direct": (),
        "cmd": ("--impl", f"cmd:{serve} --root {{root}}", "--snapshot-dir", snapshots),
        "mcp": ("--impl", f"mcp:{serve} --mcp --root {{root}}", "--snapshot-dir", snapshots),
    }

    @cache
    def run(name: str) -> Outcomes:
        subset = () if FULL or name == "direct" else ("--clauses", CI_CATEGORIES[name])
        # The direct run serves both piped tests, on whichever worker each lands (tests/once.py).
        return once(tmp_path_factory, f"parity-{name}",
                    lambda folder: _outcomes(folder / "report", *arguments[name], *subset))

    return run


def _differing(left: dict[str, str], right: dict[str, str]) -> dict[str, tuple[str, str | None]]:
    return {
        nodeid: (outcome, right.get(nodeid))
        for nodeid, outcome in left.items()
        if right.get(nodeid) != outcome
    }


def _piped_matches_direct(runs: Callable[[str], Outcomes], name: str) -> dict[str, str]:
    """Asserts the piped run `name` reaches the direct run's verdict on each clause and check it
    ran; returns its clause statuses."""
    direct_clauses, direct_tests = runs("direct")
    piped_clauses, piped_tests = runs(name)
    assert {cid: status for cid, status in direct_clauses.items() if status != "pass"} == {
        cid: "n/a" for cid in DIRECT_NOT_APPLICABLE}
    # Over a pipe the channel is there to judge, and the reference keeps it clean.
    assert piped_clauses.get("RESULT-09", "pass") == "pass"
    categories = None if FULL else set(CI_CATEGORIES[name].split(","))
    ran = {cid: status for cid, status in piped_clauses.items()
           if (categories is None or cid.split("-")[0] in categories) and cid != "RESULT-09"}
    assert ran == {cid: direct_clauses[cid] for cid in ran}, {
        cid: (direct_clauses.get(cid), status) for cid, status in ran.items()
        if status != direct_clauses.get(cid)}
    assert len(piped_tests) >= 100, f"{name}: only {len(piped_tests)} checks ran"
    limits = tuple(TRANSPORT_LIMITS.get(name, {}))
    expected = {nodeid: "n/a" if nodeid.startswith(limits) else direct_tests.get(nodeid)
                for nodeid in piped_tests if not nodeid.startswith(CHANNEL_CHECKS)}
    differing = _differing({n: o for n, o in piped_tests.items() if n in expected}, expected)
    assert not differing, differing
    if FULL:
        assert set(piped_tests) == set(direct_tests)
    return ran


def test_the_reference_over_stdio_reaches_the_same_verdict_on_every_check(runs) -> None:
    _piped_matches_direct(runs, "cmd")


def test_the_reference_over_mcp_reaches_the_same_verdict_on_every_check(runs) -> None:
    ran = _piped_matches_direct(runs, "mcp")
    new_categories = {"ANNOTATION", "SURFACE", "PERMISSION", "CANCEL"}
    assert new_categories <= {clause.split("-")[0] for clause in ran}
