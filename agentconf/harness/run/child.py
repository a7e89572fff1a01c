"""The pytest child process of `agentconf run`, `replay` and `snapshots`: its isolated config,
command line and environment, the event stream followed while it runs, and the signals that
stop it (the whole process group, the implementation's processes included).
"""

import contextlib
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from agentconf.harness.disk import outer
from agentconf.harness.disk.temproot import TEMPROOT_VARIABLE, memory_temproot
from agentconf.harness.report import (
    TestEvent,
)
from agentconf.harness.report.events import (
    RUN_END,
    RUN_START,
    TEST,
    EventStreamError,
    Outcome,
    parse_test_event,
)
from agentconf.harness.resources import suites_dir
from agentconf.harness.target.adapters.base import RUN_VARIABLE, kill_marked
from agentconf.harness.target.launch import bytecode_env, cache_dir

# The plugins a run needs, loaded by name because autoloading is off (see the module docstring).
PYTEST_PLUGINS = ("agentconf.harness.plugin", "xdist.plugin", "syrupy", "_hypothesis_pytestplugin")
# Environment that would let the user's shell change what pytest does.
SCRUBBED_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "HYPOTHESIS_PROFILE")
POLL_SECONDS = 0.2
# After run_end, how long pytest may take to exit. An in-process implementation whose call never
# returned leaves a thread that Python waits for at exit; the results are complete by then.
EXIT_GRACE_SECONDS = 30.0
# This many checks in a row ending in the same error: the implementation is broken for every
# check, and the rest of the run would only wait for more of the same (hours, for a hang).
BREAKER_SAME_ERRORS = 25


class Interrupted(BaseException):
    """SIGTERM or SIGHUP while the suites ran (SIGINT raises KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum




@contextlib.contextmanager
def isolated_config() -> Iterator[Path]:
    """An empty pytest config of our own, so no ini/pyproject/conftest of the user's is used."""
    with tempfile.TemporaryDirectory(prefix="agentconf-run-") as folder:
        ini = Path(folder) / "pytest.ini"
        # Python's own traceback format for a failing check: pytest's default parses the suite
        # module's source (ast) for every frame of every failure, a fifth of the CPU of a run
        # with many failing checks, for text only pytest.log and a harness error show (a
        # check's evidence is its exception's message). `replay` asks for --tb=long itself.
        # A green run removes its temporary folder (pytest's numbered basetemp, on /dev/shm when
        # there is room: disk/temproot.py) instead of leaving the last sandbox in memory; a red
        # run keeps it for the failures' sandboxes, and pytest keeps the newest three of those.
        ini.write_text("[pytest]\naddopts = --tb=native\ntmp_path_retention_policy = failed\n",
                       encoding="utf-8")
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
    # Hypothesis keeps its Unicode tables (the characters a codec can encode, ~1.5 s of CPU to
    # build in each process) in its storage folder, by default ./.hypothesis of the current
    # folder: every run left one in the user's folder and built the tables again in each worker.
    # The kit's cache keeps them once (the suites use no example database: nothing else is kept).
    env.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(cache_dir() / "hypothesis"))
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
        if test.outcome == Outcome.NA:
            # Mostly decided before any call (a tool the listing lacks): it says nothing of the
            # implementation's health. Under xdist the workers' checks interleave in the stream,
            # and an n/a between two errors made the count hang on which worker wrote first.
            return
        if test.outcome != Outcome.ERROR:
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


def run_child(arguments: Sequence[str], snapshot_dir: Path | None, log: Path,
              follower: EventFollower) -> tuple[int | None, BaseException | None]:
    """`agentconf run`'s pytest child, run to its end or to an interruption: its exit status
    (None when it had to be stopped) and the interruption, if any."""
    marker = secrets.token_hex(8)
    stopped: BaseException | None = None
    try:
        with isolated_config() as config:
            command = pytest_command(config, arguments)
            env = pytest_env(snapshot_dir, marker, scratch=config.parent)
            status = run_pytest(command, env, log, follower)
    except (KeyboardInterrupt, Interrupted) as interruption:
        stopped, status = interruption, None
    finally:
        # Whatever the run started and that outlived it (a daemon of an in-process tool, a
        # server of a killed worker) carries the run's marker.
        kill_marked(RUN_VARIABLE, marker)
        outer.sweep(marker)  # canaries in /tmp of workers killed mid-test
    return status, stopped


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


def tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text("utf-8", "replace").splitlines()[-lines:])
    except OSError:
        return ""

