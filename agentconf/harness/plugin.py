"""pytest plugin (entry point `pytest11`): options, markers, fixtures, outcomes, the event stream.

It is loaded in every pytest run of the environment, so everything it does is keyed on its own
markers and fixtures: a test that uses neither sees no difference (apart from the `ci` hypothesis
profile being the default, which is deliberate: reproducible runs everywhere).

Outcomes (docs/ARCHITECTURE.md): pass / fail (an AssertionError, which includes ContractViolation
and EscapeDetected) / n/a (a skip whose reason starts `n/a:`) / error (ImplementationFailure) /
harness-error (anything else: our bug, kept apart as MCP conformance does).
The worker that ran a test attaches its outcome and evidence to the report's `user_properties`;
the controller alone writes the event stream, so `-n 2` works.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.errors import InvalidArgument

from agentconf.contract import CAPABILITIES, CATEGORIES, CLAUSES, TOOL_CAPABILITIES

from . import outcomes
from .adapters import open_adapter
from .adapters.base import AdapterEnv
from .client import Client
from .errors import ImplementationFailure
from .profile import ProfileError
from .reuse import WorkerServer
from .spec import ImplSpec, SpecError, resolve
from .workspace import SandboxWorkspace, remove_tree

DEFAULT_TIMEOUT_S = 10.0
TIMEOUT_VARIABLE = "AGENTCONF_TIMEOUT"
_FAST = {"deadline": None, "database": None, "print_blob": True,
         "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]}
settings.register_profile("ci", derandomize=True, max_examples=25, **_FAST)
settings.register_profile("deep", max_examples=2000, **_FAST)

_STATE = pytest.StashKey["_State"]()
_PASSED = pytest.StashKey[bool]()
_FAILED = pytest.StashKey[bool]()


class _State:
    """What the plugin keeps per pytest process."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.impl: str | None = config.getoption("agentconf_impl")
        self.profile: str | None = config.getoption("agentconf_profile")
        self.explicit = self.impl is not None or self.profile is not None
        self.timeout: float | None = config.getoption("agentconf_timeout")
        if self.timeout is None:
            self.timeout = _timeout_from_environment()
        self.clauses = _parse_clause_filter(config.getoption("agentconf_clauses"))
        self._spec: ImplSpec | None = None
        self._spec_error: str | None = None
        self.kept_server: WorkerServer | None = None
        # The names the first listing of this process advertised. Later sessions are not asked
        # again just to decide n/a (a listing costs the reference more than most calls): a
        # listing is deterministic (REGISTRY-02, judged on its own), and a session that stopped
        # advertising a tool fails the test that calls it rather than passing anything.
        self.advertised: frozenset[str] | None = None

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

    @property
    def spec_text(self) -> str:
        return self.impl or self.profile or "reference"

    def call_timeout(self, spec: ImplSpec) -> float:
        if self.timeout is not None:
            return self.timeout
        if spec.profile.call_timeout_ms is not None:
            return spec.profile.call_timeout_ms / 1000
        return DEFAULT_TIMEOUT_S


# ---- options and configuration ----------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agentconf", "agentconf conformance")
    group.addoption("--agentconf-impl", metavar="SPEC", default=None,
                    help="implementation: reference (default), python:MODULE:FACTORY, "
                         "cmd:COMMAND, mcp:COMMAND or a profile .toml")
    group.addoption("--agentconf-profile", metavar="FILE", default=None,
                    help="profile (agentconf.toml): names, codes, limits, capabilities")
    group.addoption("--agentconf-events", metavar="FILE", default=None,
                    help="write the newline-delimited JSON event stream here")
    group.addoption("--agentconf-clauses", metavar="IDS", default=None,
                    help="comma-separated clause ids or categories: run only their tests")
    group.addoption("--agentconf-timeout", metavar="SECONDS", type=float, default=None,
                    help=f"per-call timeout (default: ${TIMEOUT_VARIABLE}, the profile's, "
                         f"else {DEFAULT_TIMEOUT_S:g})")


@pytest.hookimpl(tryfirst=True)  # before hypothesis's own configure, which builds on our profile
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the contract clause(s) this test checks")
    config.addinivalue_line("markers", "requires(*capabilities): capabilities this test needs")
    _load_hypothesis_profile(config)
    state = _State(config)
    config.stash[_STATE] = state
    if state.timeout is not None and state.timeout <= 0:
        raise pytest.UsageError(f"--agentconf-timeout ({TIMEOUT_VARIABLE}) must be a positive "
                                "number of seconds")
    if state.explicit:
        try:
            resolve(state.impl, state.profile)
        except (SpecError, ProfileError) as error:
            raise pytest.UsageError(str(error)) from None
    path = config.getoption("agentconf_events")
    if path and not hasattr(config, "workerinput"):  # the controller alone writes events
        writer = outcomes.EventWriter(Path(path), config, state_info(state), replay_command(state))
        config.pluginmanager.register(writer, "agentconf-events")


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()


def _timeout_from_environment() -> float | None:
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


def _load_hypothesis_profile(config: pytest.Config) -> None:
    if config.getoption("hypothesis_profile", None):
        return  # hypothesis's plugin loads the one asked for
    name = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
    try:
        settings.load_profile(name)
    except InvalidArgument:
        raise pytest.UsageError(f"HYPOTHESIS_PROFILE={name!r} is not a registered hypothesis "
                                "profile (agentconf registers ci and deep)") from None


def _parse_clause_filter(text: str | None) -> set[str] | None:
    if text is None:
        return None
    wanted = {part.strip() for part in text.split(",") if part.strip()}
    unknown = sorted(name for name in wanted if name not in CLAUSES and name not in CATEGORIES)
    if not wanted or unknown:
        raise pytest.UsageError(
            f"--agentconf-clauses: unknown clause id or category {', '.join(unknown) or '(none)'}"
        )
    return wanted


def state_info(state: _State) -> dict[str, Any]:
    """The implementation's identity for run_start, without starting it."""
    info: dict[str, Any] = {"spec": state.spec_text, "name": state.spec_text, "version": None}
    try:
        spec = resolve(state.impl, state.profile)
        info.update(name=spec.display_name, version=spec.display_version)
    except Exception:
        pass
    return info


def replay_command(state: _State) -> str:
    """The start of each test's reproduce line; the node id follows."""
    line = "agentconf replay"
    if state.impl is not None or state.profile is None:
        line += f" --impl {shlex.quote(state.impl or 'reference')}"
    if state.profile is not None:
        line += f" --profile {shlex.quote(state.profile)}"
    return line


# ---- collection -------------------------------------------------------------------------------


def clause_ids(item: pytest.Item) -> list[str]:
    return [str(arg) for mark in item.iter_markers("clause") for arg in mark.args]


def required_capabilities(item: pytest.Item) -> list[str]:
    needed: list[str] = []
    for clause_id in clause_ids(item):
        clause = CLAUSES.get(clause_id)
        needed += clause.requires if clause else ()
    needed += [str(arg) for mark in item.iter_markers("requires") for arg in mark.args]
    return list(dict.fromkeys(needed))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problems = []
    for item in items:
        marks = list(item.iter_markers("clause"))
        if marks and not clause_ids(item):
            problems.append(f"{item.nodeid}: @pytest.mark.clause() names no clause id")
        problems += [f"{item.nodeid}: unknown clause id {cid!r} in @pytest.mark.clause"
                     for cid in clause_ids(item) if cid not in CLAUSES]
        problems += [f"{item.nodeid}: unknown capability {name!r} in @pytest.mark.requires"
                     for mark in item.iter_markers("requires") for name in mark.args
                     if name not in CAPABILITIES]
    if problems:
        raise pytest.UsageError("agentconf markers:\n  " + "\n  ".join(problems))
    wanted = config.stash[_STATE].clauses
    if wanted is not None:
        keep, drop = [], []
        for item in items:
            tags = set(clause_ids(item))
            tags |= {cid.split("-")[0] for cid in tags}
            (keep if tags & wanted else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
    items.sort(key=_waiting_first)


# Checks of these categories mostly wait (for a timeout, a kill, a grace period). They run first:
# longest first balances parallel workers best. Under xdist the other workers take more of the
# short checks meanwhile, where a wait in a run's tail would leave them idle until it ends.
_WAITING_CATEGORIES = frozenset({"SHELL"})


def _waiting_first(item: pytest.Item) -> int:
    """Sort key: 0 for checks that wait, 1 for the rest (a stable sort keeps their order)."""
    return 0 if {cid.split("-")[0] for cid in clause_ids(item)} & _WAITING_CATEGORIES else 1


# ---- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def ws(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SandboxWorkspace]:
    """A fresh sandbox: root, canaries outside it, and the disk oracle's snapshot.

    Not `tmp_path`: pytest numbers those by listing the base folder for every test, which grew
    quadratic over a run of a thousand tests. A passing test's sandbox is removed at teardown, so
    a run leaves only the failures' sandboxes to look at (and none to clean up next time).
    """
    def new_base() -> Path:
        return Path(tempfile.mkdtemp(prefix="ws-", dir=tmp_path_factory.getbasetemp()))

    kept = request.config.stash[_STATE].worker_server(new_base)
    base = kept.base() if kept is not None else new_base()
    workspace = SandboxWorkspace(base=base)
    yield workspace
    # Clean: passed, or n/a; a failure's sandbox stays for a look.
    clean = not request.node.stash.get(_FAILED, False) and (
        request.node.stash.get(_PASSED, True))
    if kept is not None:
        kept.release(clean)
    elif clean:
        with contextlib.suppress(OSError):
            remove_tree(base)


@pytest.fixture
def client(request: pytest.FixtureRequest, ws: SandboxWorkspace) -> Iterator[Client]:
    """One fresh session of the implementation under test, judged by `ws`'s oracle."""
    state: _State = request.config.stash[_STATE]
    spec = state.spec()
    needed = required_capabilities(request.node)
    # Decided before a session is opened, which for a server is most of a test's cost.
    _skip_if_missing(request.node, [name for name in needed
                                    if not _may_have(name, spec, state.advertised)])
    env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp,
                     call_timeout_s=state.call_timeout(spec), log_dir=ws.logs)
    kept = state.kept_server  # made by the `ws` fixture, which this one follows
    adapter = kept.open(env) if kept is not None else open_adapter(spec, env)
    session = Client(adapter, spec.profile, ws.root, ws.oracle, ws.sandbox)
    try:
        if state.advertised is None:  # else the check above said all there is to say
            missing = session.missing(needed)
            _learn_listing(state, session)
            _skip_if_missing(request.node, missing)
        yield session
    finally:
        session.close()
    # Late writes (a background process, a detached task) count as much as immediate ones.
    try:
        session.judge("the end of the session")
    except BaseException:
        request.node.stash[_FAILED] = True  # before `ws` decides what to keep: this sandbox
        raise


def _learn_listing(state: _State, session: Client) -> None:
    """From a listing taken before the test ran: a test may reveal deferred tools (tool_search)."""
    if state.advertised is None and session.listing is not None:
        # Only a listing of the right shape is kept by the client: objects with a string name.
        state.advertised = frozenset(tool["name"] for tool in session.listing)


def _may_have(capability: str, spec: ImplSpec, advertised: frozenset[str] | None) -> bool:
    """False when the profile switches the capability off, or the tool is known to be absent."""
    switched = spec.profile.capabilities.get(capability)
    if switched is not None:
        return switched
    if capability in TOOL_CAPABILITIES and advertised is not None:
        return spec.profile.tool(capability).name in advertised
    return True


def _skip_if_missing(item: pytest.Item, missing: list[str]) -> None:
    if not missing:
        return
    owners = [cid for cid in clause_ids(item)
              if CLAUSES.get(cid) and set(CLAUSES[cid].requires) & set(missing)]
    by = f" (required by {', '.join(owners)})" if owners else ""
    pytest.skip(f"n/a: the implementation lacks {', '.join(missing)}{by}")


# ---- outcomes ---------------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Iterator[None]:
    report: pytest.TestReport = yield  # type: ignore[misc]
    if report.when == "call":
        item.stash[_PASSED] = report.passed
    if report.failed:
        item.stash[_FAILED] = True
    if item.get_closest_marker("clause") is None and not _uses_agentconf(item):
        return report
    funcargs = getattr(item, "funcargs", {})
    payload = outcomes.phase_payload(report, call, clause_ids(item), funcargs.get("ws"))
    session = funcargs.get("client")
    if report.when == "call" and isinstance(session, Client):
        # How much the test asked of the implementation: the deep fuzz job reports these.
        payload["calls"], payload["paths"] = session.calls, session.paths
    report.user_properties.append((outcomes.PROPERTY, payload))
    return report


def _uses_agentconf(item: pytest.Item) -> bool:
    return bool({"ws", "client"} & set(getattr(item, "fixturenames", ())))
