"""`agentconf run`: the suites in a pytest subprocess, the event stream in, the reports out.

pytest runs in a child process with a config file and rootdir of our own, plugin autoloading off
(only the plugins the suites need are loaded by name), no cache provider and no bytecode, so neither
a user's pytest.ini, PYTEST_ADDOPTS or stray plugins can change the run, and nothing is written
into the shipped suites. The child writes the plugin's event stream; this process follows it for
progress, then aggregates it into clause statuses (report.aggregate) and writes the reports.
"""

import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TextIO

from agentconf.contract import CATEGORIES, CLAUSES, Clause, active_clauses
from agentconf.harness.profile.model import Profile
from agentconf.harness.report import (
    ClauseResult,
    EventLog,
    Expectations,
    Status,
    TestEvent,
    aggregate,
    build_document,
    load_expectations,
    parse_expectations,
    read_events,
    verdict_of,
    write_reports,
)
from agentconf.harness.report.aggregate import hung_or_died
from agentconf.harness.report.console import Progress, render_summary
from agentconf.harness.report.events import (
    EventStreamError,
)
from agentconf.harness.report.expectations import CASE_SEPARATOR, close_clause_ids, render_baseline
from agentconf.harness.report.write import REPORT_FILES
from agentconf.harness.resources import suites_dir
from agentconf.harness.run.child import (
    EXIT_GRACE_SECONDS,
    SNAPSHOT_TEST,
    EventFollower,
    impl_arguments,
    isolated_config,
    pytest_command,
    pytest_env,
    run_child,
    snapshot_report,
    tail,
)
from agentconf.harness.run.preflight import preflight
from agentconf.harness.run.suite_files import suite_files
from agentconf.harness.target.spec import ImplSpec

HARNESS_BUG = "this is a bug in agentconf, please report it"
# The start check before the suites: one session, one tools/list.


class RunError(Exception):
    """The suites could not be run at all: agentconf's fault or a broken installation."""


class CannotStart(Exception):
    """The implementation did not start and list its tools: nothing could be checked."""



@dataclass(frozen=True, slots=True)
class RunOptions:
    spec: ImplSpec
    impl: str | None  # as given on the command line, passed on unchanged
    profile: str | None
    report_dir: Path
    expectations: Expectations
    clauses: tuple[str, ...] = ()  # ids or categories; empty: all
    workers: str | None = None  # pytest-xdist -n: a number or "auto"; None: in this process
    hypothesis_profile: str = "ci"
    snapshot_update: bool = False
    snapshot_dir: Path | None = None
    write_baseline: Path | None = None
    origin: str = ""  # how the implementation was chosen, when not named in full (discover.py)


def report_name(spec: ImplSpec) -> str:
    """A folder name for reports/<implementation-name>/ that is safe on every filesystem."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", spec.display_name).strip("-.")
    return name or "implementation"


def select_clauses(requested: Sequence[str]) -> list[Clause]:
    """The active clauses named by ids or categories; every name must exist (ValueError if not)."""
    if not requested:
        return active_clauses()
    wanted: set[str] = set()
    for name in requested:
        key = name.strip().upper()
        if key in CATEGORIES:
            wanted |= {c.id for c in CLAUSES.values() if c.category == key}
        elif key in CLAUSES:
            wanted.add(key)
        else:
            close = close_clause_ids(key, CATEGORIES)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ValueError(f"unknown clause or category {name!r}{hint}")
    return [clause for clause in active_clauses() if clause.id in wanted]


def profile_expectations(spec: ImplSpec) -> Expectations:
    table = spec.profile.expected_failures
    source = f"{spec.profile.path or 'profile'} [expected_failures]"
    return parse_expectations(table, source) if table else Expectations()


def gather_expectations(spec: ImplSpec, file: Path | None) -> Expectations:
    found = profile_expectations(spec)
    return found.merged(load_expectations(file)) if file is not None else found


def run_arguments(options: RunOptions, events: Path) -> list[str]:
    # A run of a few clauses collects the modules that hold them (suite_files.py); none found
    # (a clause with no check yet): all of them, and the clause is reported as such.
    files = suite_files(suites_dir(), options.clauses) if options.clauses else []
    targets = [str(path) for path in files] or [str(suites_dir())]
    arguments = [*targets, "-q", "-rN", "--agentconf-events", str(events)]
    arguments += impl_arguments(options.impl, options.profile)
    arguments += ["--hypothesis-profile", options.hypothesis_profile]
    if options.clauses:
        arguments += ["--agentconf-clauses", ",".join(options.clauses)]
    if options.workers is not None:
        arguments += ["-n", str(options.workers)]
    if options.snapshot_update:
        arguments.append("--snapshot-update")
    return arguments


# ------------------------------------------------------------------ baselines


def baseline_entries(results: Sequence[ClauseResult]) -> list[tuple[str, str]]:
    """Today's failures as expected-failures entries: listed ones keep their key and reason."""
    entries: dict[str, str] = {}
    today = date.today().isoformat()
    for result in results:
        if result.status is Status.XFAIL or (result.status is Status.PASS and result.expected):
            entries.update(result.expected)  # the second: a listed race this run missed
        elif result.status is Status.FAIL or hung_or_died(result.status, result.tests):
            bad = "fail" if result.status is Status.FAIL else "error"
            failing = [t for t in result.tests if t.outcome == bad]
            first = (failing[0].evidence.strip().splitlines() or ["no evidence"])[0][:120]
            reason = f"{'fails' if bad == 'fail' else 'hangs or dies'} since {today}: {first}"
            if failing and all(t.case for t in failing):
                # Only some data cases fail: list those, so a new failing case still shows.
                for test in failing:
                    entries[f"{result.clause.id}{CASE_SEPARATOR}{test.case}"] = reason
            else:
                entries[result.clause.id] = reason
    return sorted(entries.items())


def write_baseline(path: Path, results: Sequence[ClauseResult], spec: ImplSpec) -> Expectations:
    entries = baseline_entries(results)
    header = (
        f"agentconf expected failures for {spec.display_name}, written {date.today()} by\n"
        "`agentconf run --write-baseline`. Each line is a clause (or CLAUSE-ID::case-id) that\n"
        "fails today, with the reason. A listed clause that starts to pass turns the run red:\n"
        "delete its line. Use it with `agentconf run --expected-failures FILE`."
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_baseline(entries, header), encoding="utf-8")
    return parse_expectations(dict(entries), str(path))


# ------------------------------------------------------------------ the run


def finish(
    options: RunOptions,
    clauses: Sequence[Clause],
    log: EventLog,
    out: TextIO,
    pytest_status: int | None = None,
    snapshots: Sequence[str] = (),
) -> int:
    """Aggregation, baseline, reports and summary from a complete event log; the exit status."""
    # A finding is charged to its own clause (an escape met while checking REGISTRY-02 is
    # CONFINE-14's): that clause is reported even when the run did not select it.
    charged = {cid for test in log.tests for cid in test.clauses}
    clauses = [*clauses, *(clause for clause in active_clauses()
                           if clause.id in charged and clause not in clauses)]
    results = aggregate(clauses, log.tests, options.expectations)
    if options.write_baseline is not None:
        written = write_baseline(options.write_baseline, results, options.spec)
        # The new file replaces the old one; the profile's own list still applies.
        expectations = profile_expectations(options.spec).merged(written)
        results = aggregate(clauses, log.tests, expectations)
        out.write(f"wrote the baseline {options.write_baseline}\n")
    verdict = verdict_of(results, log, pytest_status, whole=not options.clauses)
    document = build_document(results, log, verdict, options.spec.text, options.clauses or None)
    write_reports(document, options.report_dir)
    out.write(render_summary(document, str(options.report_dir), snapshots))
    kept = (log.end or {}).get("sandboxes")
    if verdict.exit_code and isinstance(kept, str) and os.path.isdir(kept):
        out.write(f"the failing checks' sandboxes are kept in {kept} (pytest keeps its newest "
                  "three runs' folders there; safe to delete)\n")
    return verdict.exit_code


def run(options: RunOptions, out: TextIO = sys.stdout) -> int:
    clauses = select_clauses(options.clauses)
    _clear_report_dir(options.report_dir)
    events = options.report_dir / "events.jsonl"
    pytest_log = options.report_dir / "pytest.log"
    out.write(first_line(options) + "\n")
    out.writelines(f"{line}\n" for line in unproven_lines(options.spec.profile))
    progress = Progress(stream=out)

    def on_test(test: TestEvent) -> None:
        progress.planned = follower.planned
        progress(test)

    cause = preflight(options.spec, keep_logs_in=options.report_dir / "start-logs")
    if cause is not None:
        raise CannotStart(f"{options.spec.display_name} did not start and list its tools, so "
                          f"nothing was checked:\n{cause}")
    follower = EventFollower(events, on_test)
    status, stopped = run_child(run_arguments(options, events), options.snapshot_dir,
                                pytest_log, follower)
    progress.finish()
    _say_how_it_stopped(out, stopped, follower, status)
    log = _read_log(events, pytest_log, status, stopped)
    if log.end is None and stopped is None and follower.broken is None:
        # The report says the run did not finish; why is in pytest's log, which a matrix run
        # removes with its scratch folder (rare, and not yet explained).
        out.write(f"agentconf: pytest exited with status {status} before its run_end event (an "
                  "implementation in its process may have ended it); the last lines of "
                  f"{pytest_log}:\n{tail(pytest_log) or '(none: it is empty)'}\n")
    code = finish(options, clauses, log, out, status, _snapshot_lines(options, log, pytest_log))
    if stopped is not None:
        signum = signal.SIGINT if isinstance(stopped, KeyboardInterrupt) else getattr(
            stopped, "signum", signal.SIGTERM)
        return 128 + int(signum)
    return code


def _clear_report_dir(report_dir: Path) -> None:
    """A previous run's files must not outlive this run, nor be mistaken for its results."""
    report_dir.mkdir(parents=True, exist_ok=True)
    for name in (*REPORT_FILES, "events.jsonl", "pytest.log"):
        (report_dir / name).unlink(missing_ok=True)


def _say_how_it_stopped(out: TextIO, stopped: BaseException | None, follower: EventFollower,
                        status: int | None) -> None:
    if stopped is not None:
        name = "SIGINT" if isinstance(stopped, KeyboardInterrupt) else str(stopped)
        out.write(f"agentconf: interrupted by {name}; the report shows the checks done so far\n")
    elif follower.broken is not None:
        out.write(f"agentconf: stopped early: {follower.broken}\n")
    elif status is None:
        out.write(f"warning: pytest did not exit {EXIT_GRACE_SECONDS:.0f}s after the run ended "
                  "(a call into the implementation never returned) and was stopped\n")


def _read_log(events: Path, pytest_log: Path, status: int | None,
              stopped: BaseException | None) -> EventLog:
    """The run's events; an interruption re-raised, or a RunError, when there are none to read."""
    try:
        return read_events(events)
    except EventStreamError as error:
        if stopped is not None:
            raise stopped from None
        raise RunError(
            f"pytest exited with status {status} without a usable event stream ({error}); "
            f"{HARNESS_BUG}. Last lines of {pytest_log}:\n{tail(pytest_log)}"
        ) from None


def first_line(options: RunOptions) -> str:
    """Which implementation this run checks, and how it was chosen, before anything runs."""
    spec = options.spec
    named = spec.profile.spec if spec.text == options.profile and spec.profile.spec else spec.text
    how = f"; {options.origin}" if options.origin else ""
    return f"agentconf: checking {spec.display_name} ({named}{how})"


def unproven_lines(profile: Profile) -> list[str]:
    """The premises the draft could not prove, said before anything runs: the checks standing on
    them are not judged, and the cause is the profile's, not the implementation's."""
    lines = [f"  {tool} {kind}: {why}" for tool, premise in profile.unproven.items()
             for kind, why in (("calls", premise.calls), ("refusals", premise.refusals),
                               *((f"argument {name}", text)
                                 for name, text in premise.arguments.items())) if why]
    if not lines:
        return []
    return ["agentconf: NOT JUDGED: the checks standing on these premises ([unproven] in the "
            "profile), which its draft could not prove:", *lines]


def command_arguments(impl: str | None, profile: str | None) -> str:
    """`--impl X --profile P` as a user types them after `agentconf run` (or `snapshots`)."""
    words = []
    if impl is not None or profile is None:
        words += ["--impl", impl or "reference"]
    if profile is not None:
        words += ["--profile", profile]
    return shlex.join(words)


def _snapshot_lines(options: RunOptions, log: EventLog, pytest_log: Path) -> list[str]:
    """syrupy's counts; when the snapshot checks ran without a folder, the command that makes one
    (they are n/a then, which the issue of a silent n/a showed nobody notices)."""
    counted = snapshot_report(pytest_log)
    if counted:
        return counted
    ran = any(SNAPSHOT_TEST in test.nodeid for test in log.tests)
    if ran and options.snapshot_dir is None and options.spec.text != "reference":
        return [f"not checked (no snapshot folder); record them: agentconf snapshots record "
                f"{command_arguments(options.impl, options.profile)} --snapshot-dir DIR"]
    return []


# ------------------------------------------------------------------ collection (explain)


def collect_clause_tests(timeout_s: float = 120.0) -> dict[str, list[str]]:
    """{nodeid: clause ids} for every suite test, by collecting the suites (no test runs)."""
    import json

    from agentconf.harness.report.collect import OUT_ENV

    with isolated_config() as config:
        out = config.parent / "collected.json"
        command = pytest_command(config, [str(suites_dir()), "--collect-only", "-q",
                                          "-p", "agentconf.harness.report.collect",
                                          *impl_arguments("reference", None)])
        env = {**pytest_env(), OUT_ENV: str(out)}
        try:
            done = subprocess.run(command, env=env, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            raise RunError(f"collecting the suites took over {timeout_s:.0f}s") from None
        if not out.exists():
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-10:])
            raise RunError(f"collecting the suites failed (pytest status {done.returncode}):\n"
                           f"{tail}")
        return json.loads(out.read_text("utf-8"))
