"""The stdio paths reach the same verdicts as the in-process path: `agentconf serve` over the
`cmd:` protocol, and `agentconf serve --mcp` through the kit's own `mcp:` adapter, are the
reference behind a pipe, so every check — suites, golden cases, message snapshots, the modes
of SURFACE and PERMISSION, cancellation — must come out the same.

Each piped run goes through a profile with `reuse = "worker"`: the reference keeps session state
(read-before-edit, stale-read), so a kept server serves one check after another and is replaced
only for a check whose verdict depends on a session no other check shaped (one requiring
read_before_edit, stale_read or tool_search: harness/target/reuse.py). That makes these tests
also the verdict-equality test of that sharing rule on a server with session state: a check that
saw a session another check shaped would differ from the direct run. The test asserts the
servers were kept (fewer starts than checks), so the comparison could see such a check.

A server start costs 0.2 s of CPU over cmd: and a second over MCP (its SDK's imports). CI pipes
the categories where the transport is what is tested (envelopes, validation, listing,
annotations, concurrency, cancellation, the modes, bounded output); AGENTCONF_FULL_PARITY=1 pipes
every check, as `scripts/parity.sh` does. Each piped run is compared with the direct one, check
by check.
"""

import json
import os
import shlex
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from once import once, shared_root
from reference_run import Outcomes, outcomes, reference_outcomes

from agentconf.contract.modes import DENY, MODES, READ_ONLY
from agentconf.harness.resources import fixtures_dir

CI_CATEGORIES = {
    # EDIT: the checks of read guards and stale reads, where sharing a server is decided.
    "cmd": "RESULT,REGISTRY,VALIDATE,TRUNCATE,CONCUR,CANCEL,SURFACE,PERMISSION,EDIT",
    "mcp": "REGISTRY,VALIDATE,ANNOTATION,CONCUR,CANCEL,SURFACE,PERMISSION",
}
FULL = bool(os.environ.get("AGENTCONF_FULL_PARITY"))
# Checks a transport cannot carry, n/a over it by design (the only differences allowed).
TRANSPORT_LIMITS = {
    "mcp": {
        "suites/result/test_result.py::test_a_lone_surrogate_in_an_argument_gets_an_envelope":
            "the MCP SDK writes UTF-8 JSON unescaped: a lone surrogate cannot be sent",
    },
}

# Clauses the in-process reference cannot be judged by, n/a in the direct run by design; a piped
# run judges RESULT-09 (the channel exists there), so its checks may differ from the direct ones.
DIRECT_NOT_APPLICABLE = {
    "SHELL-13": "the reference's bash claims no sandbox: the shell is not confined, a fact",
    "RESULT-09": "in process there is no stdio channel",
}
CHANNEL_CHECKS = "suites/result/test_channel.py::"
STARTS = "server-starts.log"  # a line per server start of a piped run
WORKERS = 2  # reference_run.outcomes runs `agentconf run -n 2`


def _profile(folder: Path, name: str) -> Path:
    """The reference served over `name` (cmd or mcp) with kept servers, in the modes the suites
    start the reference family in (suites/conftest.py REFERENCE_MODES, by environment). The
    command is a shell that counts each start in STARTS, then execs the server."""
    serve = shlex.join([sys.executable, "-m", "agentconf", "serve",
                        *(["--mcp"] if name == "mcp" else [])])
    starts = folder / STARTS
    launcher = folder / "serve.sh"
    launcher.write_text(f'#!/bin/sh\necho start >> {shlex.quote(str(starts))}\n'
                        f'exec {serve} --root "$1"\n')
    launcher.chmod(0o755)
    profile = folder / "agentconf.toml"
    profile.write_text(
        "[implementation]\n"
        f"spec = {json.dumps(f'{name}:{launcher} {{root}}')}\n"
        'reuse = "worker"\n\n'
        f"[modes.{READ_ONLY}]\n"
        'env = { AGENTCONF_READ_ONLY = "1" }\n\n'
        f"[modes.{DENY}]\n"
        f"env = {{ AGENTCONF_DENY = {json.dumps(shlex.join(MODES[DENY].rules))} }}\n")
    return profile


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Outcomes]:
    """`runs(name)`: the outcomes of the run `direct`, `cmd` or `mcp`, made on first use."""
    snapshots = str(fixtures_dir() / "snapshots" / "reference")

    def piped(name: str, folder: Path) -> Outcomes:
        subset = () if FULL else ("--clauses", CI_CATEGORIES[name])
        return outcomes(folder / "report", "--impl", str(_profile(folder, name)),
                        "--snapshot-dir", snapshots, *subset)

    @cache
    def run(name: str) -> Outcomes:
        if name == "direct":  # it serves both piped tests and the gallery's (tests/once.py)
            return reference_outcomes(tmp_path_factory)
        return once(tmp_path_factory, f"parity-{name}", lambda folder: piped(name, folder))

    return run


def _differing(left: dict[str, str], right: dict[str, str]) -> dict[str, tuple[str, str | None]]:
    return {
        nodeid: (outcome, right.get(nodeid))
        for nodeid, outcome in left.items()
        if right.get(nodeid) != outcome
    }


def _piped_matches_direct(runs: Callable[[str], Outcomes], name: str, shared: Path
                          ) -> dict[str, str]:
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
    # Servers kept, or the comparison could not see a check that met a shaped session; and
    # replaced, more than once per worker (the runs are -n 2: WORKERS), or the rule never came
    # into play. Measured with the rule "a fresh session only for a check that depends on one": 52
    # starts for 559 checks over a pipe.
    starts = len((shared / f"once-parity-{name}" / STARTS).read_text().splitlines())
    assert 2 * WORKERS < starts < len(piped_tests) * 2 // 3, (starts, len(piped_tests))
    return ran


def test_the_reference_over_stdio_reaches_the_same_verdict_on_every_check(
    runs, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _piped_matches_direct(runs, "cmd", shared_root(tmp_path_factory))


def test_the_reference_over_mcp_reaches_the_same_verdict_on_every_check(
    runs, tmp_path_factory: pytest.TempPathFactory
) -> None:
    ran = _piped_matches_direct(runs, "mcp", shared_root(tmp_path_factory))
    new_categories = {"ANNOTATION", "SURFACE", "PERMISSION", "CANCEL"}
    assert new_categories <= {clause.split("-")[0] for clause in ran}
