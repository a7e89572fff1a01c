"""Every mutant of the gallery checked in one pytest session instead of one `agentconf run` each.

A run's fixed cost (an interpreter, the kit's imports, collecting the 1,200 checks of the suites:
about 3 s of CPU) used to be paid once per mutant, 140 times, for about ten checks each. Here one
pytest child collects the suites once and plays each check against the mutants whose clauses it
checks (selfcheck/gallery_plugin.py); the verdict per mutant is the same aggregation of the same
events `agentconf run` makes, with no expected failures.
"""

from __future__ import annotations

import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.contract import CLAUSES
from agentconf.harness.disk import outer
from agentconf.harness.report import Expectations, aggregate, read_events
from agentconf.harness.report.events import EventStreamError
from agentconf.harness.resources import suites_dir
from agentconf.harness.run.child import isolated_config, pytest_command, pytest_env, run_pytest
from agentconf.harness.target.adapters.base import RUN_VARIABLE, kill_marked

from . import gallery_plugin
from .gallery_plugin import Target, target_of, write_targets


@dataclass(frozen=True)
class SessionResult:
    statuses: dict[str, dict[str, str]]  # target -> clause -> status
    evidence: dict[str, dict[str, str]]  # target -> clause -> evidence
    problem: str | None  # why the session could not judge every target, if it could not


def check_targets(targets: Sequence[Target], jobs: int = 1, env: dict[str, str] | None = None,
                  log_dir: Path | None = None) -> SessionResult:
    """One pytest child over the packaged suites for every target; clause statuses per target,
    aggregated from the event stream exactly as `agentconf run` aggregates its own."""
    marker = secrets.token_hex(8)
    with tempfile.TemporaryDirectory(prefix="agentconf-gallery-") as scratch, \
            isolated_config() as config:
        folder = Path(log_dir) if log_dir is not None else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        listing = Path(scratch) / "targets.json"
        write_targets(targets, listing)
        events, log = folder / "events.jsonl", folder / "pytest.log"
        arguments = [str(suites_dir()), "-q", "-rN", "--agentconf-events", str(events),
                     "--agentconf-impl", targets[0].spec, "--hypothesis-profile", "ci",
                     "-p", gallery_plugin.__name__, "--agentconf-gallery", str(listing)]
        if jobs > 1:
            arguments += ["-n", str(jobs)]
        child_env = {**pytest_env(marker=marker, scratch=config.parent), **(env or {})}
        try:
            status = run_pytest(pytest_command(config, arguments), child_env, log)
        finally:
            kill_marked(RUN_VARIABLE, marker)
            outer.sweep(marker)
        try:
            tests = read_events(events).tests
        except EventStreamError as error:
            tail = "\n".join(log.read_text("utf-8", "replace").splitlines()[-15:])
            return SessionResult({}, {}, f"pytest exited {status} without events ({error}):\n"
                                         f"{tail}")
        if not tests:  # read while the log still exists (the scratch folder goes next)
            tail = "\n".join(log.read_text("utf-8", "replace").splitlines()[-15:])
            return SessionResult({}, {}, f"pytest exited {status} having run no check:\n{tail}")
    by_target: dict[str, list[Any]] = {}
    for test in tests:
        by_target.setdefault(target_of(test.nodeid) or "", []).append(test)
    statuses: dict[str, dict[str, str]] = {}
    evidence: dict[str, dict[str, str]] = {}
    for target in targets:
        results = aggregate([CLAUSES[c] for c in target.clauses], by_target.get(target.name, []),
                            Expectations())
        statuses[target.name] = {r.clause.id: str(r.status) for r in results}
        evidence[target.name] = {r.clause.id: r.evidence for r in results}
    return SessionResult(statuses, evidence, None)
