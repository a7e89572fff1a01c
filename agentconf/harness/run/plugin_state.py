"""What the pytest plugin keeps per pytest process: the implementation under test and the run's
options (--agentconf-*, or the environment `agentconf run` sets), and the commands that replay
a check of this run."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentconf.contract import CATEGORIES, CLAUSES
from agentconf.harness.profile.model import ProfileError
from agentconf.harness.run.discover import choose
from agentconf.harness.target.adapters.base import DEFAULT_TIMEOUT_S
from agentconf.harness.target.reuse import WorkerServer
from agentconf.harness.target.spec import ImplSpec, SpecError, resolve
from agentconf.harness.verdicts.errors import ImplementationFailure

TIMEOUT_VARIABLE = "AGENTCONF_TIMEOUT"
SNAPSHOT_DIR_ENV = "AGENTCONF_SNAPSHOT_DIR"

STATE = pytest.StashKey["RunState"]()


class RunState:
    """What the plugin keeps per pytest process."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.impl: str | None = config.getoption("agentconf_impl")
        self.profile: str | None = config.getoption("agentconf_profile")
        self.explicit = self.impl is not None or self.profile is not None
        # How the implementation was chosen, for the header: ./agentconf.toml is found as
        # `agentconf run` finds it, so both give the same verdicts on the same folder.
        self.origin = ""
        if self.explicit:
            importable(config)
            choice = choose(self.impl, self.profile, config.invocation_params.dir)
            self.impl, self.profile, self.origin = choice.impl, choice.profile, choice.origin
        self.timeout: float | None = config.getoption("agentconf_timeout")
        if self.timeout is None:
            self.timeout = timeout_from_environment()
        self.clauses = clause_filter(config.getoption("agentconf_clauses"))
        chosen = config.getoption("agentconf_snapshot_dir") or os.environ.get(SNAPSHOT_DIR_ENV)
        # Where the message snapshots live when given; None: the reference's shipped ones, or none.
        self.snapshot_dir: Path | None = Path(chosen).resolve() if chosen else None
        self._spec: ImplSpec | None = None
        self._spec_error: str | None = None
        self.kept_server: WorkerServer | None = None
        # The names the first listing of this process advertised. Later sessions are not asked
        # again just to decide n/a (a listing costs the reference more than most calls): a
        # listing is deterministic (REGISTRY-02, judged on its own), and a session that stopped
        # advertising a tool fails the test that calls it rather than passing anything.
        self.advertised: frozenset[str] | None = None
        # That first listing itself: its schemas shape arguments and derive capabilities.
        self.listing: list[dict[str, Any]] | None = None
        # What a suite played once and judges in several checks, by its own key (the message
        # scenarios: suites/test_messages.py). Forgotten with everything else on retarget.
        self.played: dict[str, Any] = {}

    def spec(self) -> ImplSpec:
        if self._spec is None and self._spec_error is None:
            try:
                self._spec = resolve(self.impl, self.profile)
            except (SpecError, ProfileError) as error:
                self._spec_error = str(error)
        if self._spec is None:
            raise ImplementationFailure(f"cannot load the implementation: {self._spec_error}")
        return self._spec

    def worker_server(self, new_base: Callable[[], Path]) -> WorkerServer | None:
        """The kept server of a profile with `reuse`; None when each test starts its own."""
        if self.kept_server is None:
            try:
                spec = self.spec()
            except ImplementationFailure:
                return None  # the client fixture reports it, test by test
            if spec.profile.reuse is None:
                return None
            self.kept_server = WorkerServer(spec, new_base)
        return self.kept_server

    def close(self) -> None:
        if self.kept_server is not None:
            self.kept_server.close()

    def retarget(self, impl: str, timeout: float | None) -> None:
        """Judge another implementation from the next test on, as a fresh run would: nothing
        learnt of the previous one (its spec, listing, kept server) carries over. The mutant
        gallery checks every mutant in one session this way
        (agentconf/selfcheck/gallery_session.py)."""
        self.close()
        self.impl, self.profile, self.timeout = impl, None, timeout
        self._spec = self._spec_error = self.kept_server = None
        self.advertised = self.listing = None
        self.played = {}

    @property
    def spec_text(self) -> str:
        return self.impl or self.profile or "reference"

    def call_timeout(self, spec: ImplSpec) -> float:
        if self.timeout is not None:
            return self.timeout
        if spec.profile.call_timeout_ms is not None:
            return spec.profile.call_timeout_ms / 1000
        return DEFAULT_TIMEOUT_S



def importable(config: pytest.Config) -> None:
    """The folder pytest was started in and its rootdir are importable, as `python -m pytest` and
    `agentconf run` make them: `--agentconf-impl python:mytools:create` finds the project's
    own module whichever way pytest was started."""
    from agentconf.harness.resources import suites_dir

    folders = [config.invocation_params.dir]
    if config.rootpath != suites_dir().parent:  # `agentconf run`'s rootdir holds no user code
        folders.append(config.rootpath)
    for folder in reversed(folders):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))


def timeout_from_environment() -> float | None:
    """AGENTCONF_TIMEOUT, for callers that cannot pass --agentconf-timeout (`agentconf run`)."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise pytest.UsageError(
            f"{TIMEOUT_VARIABLE}={text!r} is not a number of seconds"
        ) from None



def clause_filter(text: str | None) -> set[str] | None:
    if text is None:
        return None
    wanted = {part.strip() for part in text.split(",") if part.strip()}
    unknown = sorted(name for name in wanted if name not in CLAUSES and name not in CATEGORIES)
    if not wanted or unknown:
        raise pytest.UsageError(
            f"--agentconf-clauses: unknown clause id or category {', '.join(unknown) or '(none)'}"
        )
    return wanted


def state_info(state: RunState) -> dict[str, Any]:
    """The implementation's identity for run_start, without starting it."""
    info: dict[str, Any] = {"spec": state.spec_text, "name": state.spec_text, "version": None}
    try:
        spec = resolve(state.impl, state.profile)
        info.update(name=spec.display_name, version=spec.display_version,
                    reuse=spec.profile.reuse, in_process=spec.target_kind.in_process)
    except Exception:
        pass
    return info


def replay_command(state: RunState) -> str:
    """The start of each test's reproduce line; the node id follows."""
    return _command(state, "agentconf replay")


def snapshots_command(state: RunState, verb: str) -> str:
    """`agentconf snapshots VERB` for this run's implementation and snapshot folder."""
    return _command(state, f"agentconf snapshots {verb}")


def _command(state: RunState, line: str) -> str:
    if state.impl is not None or state.profile is None:
        line += f" --impl {shlex.quote(state.impl or 'reference')}"
    if state.profile is not None:
        line += f" --profile {shlex.quote(state.profile)}"
    if state.snapshot_dir is not None:
        # Without it a snapshot check replays as n/a (no snapshots), or against the wrong ones.
        line += f" --snapshot-dir {shlex.quote(str(state.snapshot_dir))}"
    return line


def run_state(config: pytest.Config) -> RunState:
    """The plugin's view of this run (implementation, snapshot folder), for the suites' conftest."""
    return config.stash[STATE]

