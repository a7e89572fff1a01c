"""`agentconf run`: the suites in a pytest subprocess, the event stream in, the reports out.

pytest runs in a child process with a config file and rootdir of our own, plugin autoloading off
(only the plugins the suites need are loaded by name), no cache provider and no bytecode, so neither
a user's pytest.ini, PYTEST_ADDOPTS or stray plugins can change the run, and nothing is written
into the shipped suites. The child writes the plugin's event stream; this process follows it for
progress, then aggregates it into clause statuses (report.aggregate) and writes the reports.
"""

import contextlib
import os
import re
import secrets
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TextIO

from agentconf.contract import CATEGORIES, CLAUSES, Clause, active_clauses
from agentconf.harness.disk import outer
from agentconf.harness.disk.temproot import TEMPROOT_VARIABLE, memory_temproot
from agentconf.harness.disk.workspace import SandboxWorkspace, remove_tree
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
from agentconf.harness.report.console import Progress, render_summary
from agentconf.harness.report.events import (
    RUN_END,
    RUN_START,
    TEST,
    EventStreamError,
    parse_test_event,
)
from agentconf.harness.report.expectations import CASE_SEPARATOR, close_clause_ids, render_baseline
from agentconf.harness.report.write import REPORT_FILES
from agentconf.harness.resources import suites_dir
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import RUN_VARIABLE, AdapterEnv, kill_marked
from agentconf.harness.target.launch import bytecode_env
from agentconf.harness.target.spec import ImplSpec
from agentconf.harness.verdicts.errors import ImplementationFailure

# The plugins a run needs, loaded by name because autoloading is off (see the module docstring).
PYTEST_PLUGINS = ("agentconf.harness.plugin", "xdist.plugin", "syrupy", "_hypothesis_pytestplugin")
# Environment that would let the user's shell change what pytest does.
SCRUBBED_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "HYPOTHESIS_PROFILE")
POLL_SECONDS = 0.2
# After run_end, how long pytest may take to exit. An in-process implementation whose call never
# returned leaves a thread that Python waits for at exit; the results are complete by then.
EXIT_GRACE_SECONDS = 30.0
HARNESS_BUG = "this is a bug in agentconf, please report it"
# The start check before the suites: one session, one tools/list.
PREFLIGHT_TIMEOUT_S = 30.0
# This many checks in a row ending in the same error: the implementation is broken for every
# check, and the rest of the run would only wait for more of the same (hours, for a hang).
BREAKER_SAME_ERRORS = 25


class RunError(Exception):
    """The suites could not be run at all: agentconf's fault or a broken installation."""


class CannotStart(Exception):
    """The implementation did not start and list its tools: nothing could be checked."""


class Interrupted(BaseException):
    """SIGTERM or SIGHUP while the suites ran (SIGINT raises KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass(frozen=True, slots=True)
class RunOptions:
    spec: ImplSpec
    impl: str | None  # as given on the command line, passed on unchanged
    profile: str | None
    report_dir: Path
    expectations: Expectations
    clauses: tuple[str, ...] = ()  # ids or categories; empty: all
    workers: int | None = None
    hypothesis_profile: str = "ci"
    snapshot_update: bool = False
    snapshot_dir: Path | None = None
    write_baseline: Path | None = None


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


# ------------------------------------------------------------------ the pytest child process


@contextlib.contextmanager
def isolated_config() -> Iterator[Path]:
    """An empty pytest config of our own, so no ini/pyproject/conftest of the user's is used."""
    with tempfile.TemporaryDirectory(prefix="agentconf-run-") as folder:
        ini = Path(folder) / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        yield ini


def pytest_command(config: Path, arguments: Sequence[str]) -> list[str]:
    suites = suites_dir()
    command = [sys.executable, "-m", "pytest", "-c", str(config), "--rootdir", str(suites.parent)]
    command += ["-p", "no:cacheprovider"]
    for plugin in PYTEST_PLUGINS:
        command += ["-p", plugin]
    return command + list(arguments)


def pytest_env(snapshot_dir: Path | None = None, marker: str | None = None,
               scratch: Path | None = None) -> dict[str, str]:
    """The child's environment; `scratch`, a folder removed after the run, becomes its TMPDIR."""
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
    if marker is not None:
        # Everything the run starts inherits it: what outlives the run is found and killed.
        env[RUN_VARIABLE] = marker
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(bytecode_env())
    # The child imports python:MODULE specs from the user's folder, as this process did.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.getcwd(), env.get("PYTHONPATH")]))
    if snapshot_dir is not None:
        env["AGENTCONF_SNAPSHOT_DIR"] = str(snapshot_dir.resolve())
    temproot = memory_temproot(env)
    if temproot is not None:
        env[TEMPROOT_VARIABLE] = temproot
    if scratch is not None:
        # What an in-process implementation makes with tempfile outside any call (a module-level
        # editor at import: openhands-aci) lands in the run's own folder, removed with it. The
        # sandboxes stay where the user's TMPDIR (or the memory folder) put them.
        env.setdefault(TEMPROOT_VARIABLE, tempfile.gettempdir())
        env["TMPDIR"] = str(scratch)
    return env


def impl_arguments(impl: str | None, profile: str | None) -> list[str]:
    arguments = []
    if impl is not None or profile is None:
        arguments += ["--agentconf-impl", impl or "reference"]
    if profile is not None:
        arguments += ["--agentconf-profile", profile]
    return arguments


def run_arguments(options: RunOptions, events: Path) -> list[str]:
    arguments = [str(suites_dir()), "-q", "-rN", "--agentconf-events", str(events)]
    arguments += impl_arguments(options.impl, options.profile)
    arguments += ["--hypothesis-profile", options.hypothesis_profile]
    if options.clauses:
        arguments += ["--agentconf-clauses", ",".join(options.clauses)]
    if options.workers is not None:
        arguments += ["-n", str(options.workers)]
    if options.snapshot_update:
        arguments.append("--snapshot-update")
    return arguments


class EventFollower:
    """Reads complete lines appended to the events file since the last look."""

    def __init__(self, path: Path, on_test: Callable[[TestEvent], None]) -> None:
        self.path = path
        self.on_test = on_test
        self.offset = 0
        self.partial = b""
        self.ended = False
        self.planned = 0
        self._same: tuple[str, int] = ("", 0)
        self.broken: str | None = None  # set when the circuit breaker trips

    def _count(self, test: TestEvent) -> None:
        if test.outcome != "error":
            self._same = ("", 0)
            return
        cause = (test.evidence.strip().splitlines() or [""])[0][:200]
        seen = self._same[1] + 1 if cause == self._same[0] else 1
        self._same = (cause, seen)
        if seen >= BREAKER_SAME_ERRORS and self.broken is None:
            self.broken = f"{seen} checks in a row ended in the same error: {cause}"

    def poll(self) -> None:
        try:
            with self.path.open("rb") as stream:
                stream.seek(self.offset)
                chunk = stream.read()
        except FileNotFoundError:
            return
        self.offset += len(chunk)
        *lines, self.partial = (self.partial + chunk).split(b"\n")
        for line in lines:
            self._show(line)

    def _show(self, line: bytes) -> None:
        import json

        try:
            record = json.loads(line)
        except ValueError:
            return  # the final read reports malformed lines; progress only shows what it can
        if not isinstance(record, dict):
            return
        kind = record.get("event")
        if kind == RUN_START:
            self.planned = int(record.get("planned") or 0)
        elif kind == RUN_END:
            self.ended = True
        elif kind == TEST:
            with contextlib.suppress(EventStreamError):
                test = parse_test_event(record)
                self._count(test)
                self.on_test(test)


def run_pytest(
    command: Sequence[str], env: dict[str, str], log: Path, follower: EventFollower | None = None
) -> int | None:
    """Runs pytest to completion (its output into `log`), following events as they come.

    Returns pytest's exit status, or None when pytest hung after the run had ended and was
    stopped (see EXIT_GRACE_SECONDS).
    """
    ended_at: float | None = None
    with log.open("wb") as output, _signals_interrupt():
        child = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True,  # its own process group, so every worker can be stopped
        )
        try:
            while child.poll() is None:
                if follower is not None:
                    follower.poll()
                    if follower.ended and ended_at is None:
                        ended_at = time.monotonic()
                    if follower.broken is not None:
                        _kill_group(child)
                        return None
                if ended_at is not None and time.monotonic() - ended_at > EXIT_GRACE_SECONDS:
                    _kill_group(child)
                    return None
                time.sleep(POLL_SECONDS)
        except BaseException:
            _kill_group(child)
            raise
    if follower is not None:
        follower.poll()
    return child.returncode


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP stop the run like Ctrl-C does (the child is killed, the partial
    report written), instead of killing this process and orphaning the pytest child."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, _frame: object) -> None:
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


_SYRUPY_HEADER = "snapshot report summary"
SNAPSHOT_TEST = "test_messages.py::test_message_snapshot"
_PYTEST_TOTALS = re.compile(r"^=*\s*\d+ (passed|failed|skipped|deselected|error)")


def snapshot_report(path: Path) -> list[str]:
    """syrupy's own counts ("54 snapshots passed. 1 snapshot failed.") from pytest's output."""
    try:
        lines = path.read_text("utf-8", "replace").splitlines()
    except OSError:
        return []
    for index in range(len(lines) - 1, -1, -1):
        if _SYRUPY_HEADER in lines[index]:
            report = []
            for line in lines[index + 1:]:
                if line.startswith(("=", "---")) or _PYTEST_TOTALS.match(line):
                    break
                if line.strip():
                    report.append(line.strip())
            return report
    return []


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text("utf-8", "replace").splitlines()[-lines:])
    except OSError:
        return ""


# ------------------------------------------------------------------ baselines


def baseline_entries(results: Sequence[ClauseResult]) -> list[tuple[str, str]]:
    """Today's failures as expected-failures entries: listed ones keep their key and reason."""
    entries: dict[str, str] = {}
    today = date.today().isoformat()
    for result in results:
        if result.status is Status.XFAIL:
            entries.update(result.expected)
        elif result.status is Status.FAIL:
            failing = [t for t in result.tests if t.outcome == "fail"]
            first = (failing[0].evidence.strip().splitlines() or ["no evidence"])[0][:120]
            reason = f"fails since {today}: {first}"
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
    verdict = verdict_of(results, log, pytest_status)
    document = build_document(results, log, verdict, options.spec.text, options.clauses or None)
    write_reports(document, options.report_dir)
    out.write(render_summary(document, str(options.report_dir), snapshots))
    return verdict.exit_code


def run(options: RunOptions, out: TextIO = sys.stdout) -> int:
    clauses = select_clauses(options.clauses)
    options.report_dir.mkdir(parents=True, exist_ok=True)
    # A previous run's files must not outlive this run, nor be mistaken for its results.
    for name in (*REPORT_FILES, "events.jsonl", "pytest.log"):
        (options.report_dir / name).unlink(missing_ok=True)
    events = options.report_dir / "events.jsonl"
    pytest_log = options.report_dir / "pytest.log"
    out.write(f"agentconf: checking {options.spec.display_name} ({options.spec.text})\n")
    progress = Progress(stream=out)

    def on_test(test: TestEvent) -> None:
        progress.planned = follower.planned
        progress(test)

    cause = preflight(options.spec)
    if cause is not None:
        raise CannotStart(f"{options.spec.display_name} did not start and list its tools, so "
                          f"nothing was checked:\n{cause}")
    follower = EventFollower(events, on_test)
    marker = secrets.token_hex(8)
    stopped: BaseException | None = None
    try:
        with isolated_config() as config:
            command = pytest_command(config, run_arguments(options, events))
            env = pytest_env(options.snapshot_dir, marker, scratch=config.parent)
            status = run_pytest(command, env, pytest_log, follower)
    except (KeyboardInterrupt, Interrupted) as interruption:
        stopped, status = interruption, None
    finally:
        # Whatever the run started and that outlived it (a daemon of an in-process tool, a
        # server of a killed worker) carries the run's marker.
        kill_marked(RUN_VARIABLE, marker)
        outer.sweep(marker)  # canaries in /tmp of workers killed mid-test
    progress.finish()
    if stopped is not None:
        name = "SIGINT" if isinstance(stopped, KeyboardInterrupt) else str(stopped)
        out.write(f"agentconf: interrupted by {name}; the report shows the checks done so far\n")
    elif follower.broken is not None:
        out.write(f"agentconf: stopped early: {follower.broken}\n")
    elif status is None:
        out.write(f"warning: pytest did not exit {EXIT_GRACE_SECONDS:.0f}s after the run ended "
                  "(a call into the implementation never returned) and was stopped\n")
    try:
        log = read_events(events)
    except EventStreamError as error:
        if stopped is not None:
            raise stopped from None
        raise RunError(
            f"pytest exited with status {status} without a usable event stream ({error}); "
            f"{HARNESS_BUG}. Last lines of {pytest_log}:\n{_tail(pytest_log)}"
        ) from None
    code = finish(options, clauses, log, out, status, _snapshot_lines(options, log, pytest_log))
    if stopped is not None:
        signum = signal.SIGINT if isinstance(stopped, KeyboardInterrupt) else getattr(
            stopped, "signum", signal.SIGTERM)
        return 128 + int(signum)
    return code


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


def preflight(spec: ImplSpec, timeout_s: float = PREFLIGHT_TIMEOUT_S) -> str | None:
    """Starts the implementation once in a sandbox of its own and lists its tools: None when it
    did, else the cause (its error, its stderr). Runs in a thread, so that even a `python:`
    factory that never returns costs `timeout_s`, not the run."""
    outcome: list[str | None] = []
    folder = Path(tempfile.mkdtemp(prefix="agentconf-preflight-"))

    def attempt() -> None:
        sandbox = SandboxWorkspace(base=folder)
        env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp,
                         call_timeout_s=min(timeout_s, 10.0), start_timeout_s=timeout_s,
                         log_dir=sandbox.logs,
                         extra_env=spec.environment(sandbox.root, sandbox.home, sandbox.tmp))
        try:
            adapter = open_adapter(spec, env)
        except ImplementationFailure as error:
            outcome.append(str(error))
            return
        except Exception as error:  # an import error of a python: factory, a bad command...
            outcome.append(f"{type(error).__name__}: {error}")
            return
        try:
            adapter.list_tools()
            outcome.append(None)
        except Exception as error:
            outcome.append(str(error) if isinstance(error, ImplementationFailure)
                           else f"{type(error).__name__}: {error}")
        finally:
            with contextlib.suppress(Exception):
                adapter.close()

    worker = threading.Thread(target=attempt, name="agentconf-preflight", daemon=True)
    worker.start()
    worker.join(timeout_s + 5.0)
    if not worker.is_alive():
        with contextlib.suppress(OSError):
            remove_tree(folder)
    if not outcome:
        return f"no answer within {timeout_s:.0f} s (starting it, or to tools/list)"
    return outcome[0]


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
