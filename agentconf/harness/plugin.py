"""pytest plugin (entry point `pytest11`): options, markers, fixtures, outcomes, the event stream.

It is loaded in every pytest run of the environment, so everything it does is keyed on its own
markers, fixtures and options: a test that uses none of them sees no difference. Its hypothesis
profiles (`ci`, `deep`) are registered but loaded only for a conformance run (an --agentconf-*
option given, or the kit's own suites and tests, whose conftests ask for it): a project's own
hypothesis profile is never replaced.

Outcomes (docs/ARCHITECTURE.md): pass / fail (an AssertionError, which includes ContractViolation
and EscapeDetected) / n/a (verdicts.errors.NotApplicable, a skip) / error (ImplementationFailure) /
harness-error (anything else: our bug, kept apart as MCP conformance does).
The worker that ran a test attaches its outcome and evidence to the report's `user_properties`;
the controller alone writes the event stream, so `-n 2` works. What the plugin keeps per
process (the implementation, the options) is run/plugin_state.py's `RunState`.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
import warnings
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from agentconf.contract import CAPABILITIES, CLAUSES
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace, remove_tree
from agentconf.harness.disk.temproot import tolerate_shared_temproot
from agentconf.harness.profile.model import ProfileError
from agentconf.harness.report.events import Outcome
from agentconf.harness.run import front_door, replay_calls
from agentconf.harness.run.applicability import (
    clause_ids,
    needs_unrevealed,
    required_capabilities,
    skip_if_missing,
    why_missing,
)
from agentconf.harness.run.hypothesis_settings import load_hypothesis_profile
from agentconf.harness.run.order import WAITS_HELP, spread_fresh, spread_waits
from agentconf.harness.run.plugin_state import (
    SNAPSHOT_DIR_ENV,
    STATE,
    TIMEOUT_VARIABLE,
    RunState,
    replay_command,
    state_info,
)
from agentconf.harness.session.client import Client
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import DEFAULT_TIMEOUT_S, AdapterEnv
from agentconf.harness.target.launch import (
    launch_env,
    run_setup_commands,
    state_folders,
    write_setup_files,
)
from agentconf.harness.target.processes import stop_left
from agentconf.harness.target.reuse import needs_fresh_session
from agentconf.harness.target.spec import ImplSpec, SpecError, resolve
from agentconf.harness.verdicts import outcomes
from agentconf.harness.verdicts.errors import (
    not_applicable,
    take_judged_in_part,
    take_not_judged,
)

_PASSED = pytest.StashKey[bool]()
_FAILED = pytest.StashKey[bool]()
_REMEMBERED = pytest.StashKey[bool]()  # the test's session made a call it may remember
# The test's implementation may still be at work after its last answer, or its failure is not
# a plain departure (a hang, a death, a bug of the kit): its kept server is retired, not kept.
_UNSETTLED = pytest.StashKey[bool]()
_COMMANDED = pytest.StashKey[bool]()  # the test ran a command or cancelled a call
_REVEALED = pytest.StashKey[bool]()  # the test called tool_search: its session revealed tools
_BEYOND = pytest.StashKey[bool]()  # the test called a tool a profile declares under [tools.extra]
# Seconds the test spent starting a server of its own, for the console's account of the run.
_START = pytest.StashKey[float]()
_START_AHEAD = pytest.StashKey[bool]()  # the server it started was a spare (target/spare.py)
_ESCAPED = pytest.StashKey[bool]()  # the check itself met an escape: reported once, by it
_BESIDE = pytest.StashKey[bool]()  # the suites were added beside the project's own tests
_LEFT_OUT = pytest.StashKey[bool]()  # a project's own tests only: the suites were not added


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
    group.addoption("--agentconf-suites", action="store_true", default=False,
                    help="collect the packaged conformance suites beside this project's own "
                         "tests (a folder with no tests gets them without it)")
    group.addoption("--agentconf-snapshot-dir", metavar="DIR", default=None,
                    help=f"this implementation's message snapshots (default: ${SNAPSHOT_DIR_ENV}, "
                         "else the reference's shipped ones)")


def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    """`pytest --agentconf-impl X` with no test paths runs the packaged suites from anywhere (a
    checkout or an installed wheel), beside the project's own tests when it has some: what
    `agentconf run` runs, with pytest's own output (run/front_door.py)."""
    known = early_config.known_args_namespace
    wanted = getattr(known, "agentconf_impl", None) or getattr(known, "agentconf_profile", None)
    if wanted and not getattr(known, "file_or_dir", None):
        targets = front_door.collection_targets(
            early_config, bool(getattr(known, "agentconf_suites", False)))
        args += targets
        early_config.stash[_BESIDE] = len(targets) > 1
        early_config.stash[_LEFT_OUT] = not targets


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash.get(STATE, None)
    if state is None or not state.explicit:
        return []
    return front_door.header(state.impl, state.profile, state.origin,
                             config.stash.get(_BESIDE, False))


def pytest_itemcollected(item: pytest.Item) -> None:
    front_door.add_keywords(item, clause_ids(item))


@pytest.hookimpl(tryfirst=True)  # before hypothesis's own configure, which builds on our profile
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(id): the one contract clause this test checks")
    config.addinivalue_line("markers", "requires(*capabilities): capabilities this test needs")
    config.addinivalue_line("markers", "scenario(*ids): clauses that select a check charged to "
                                       "none (--agentconf-clauses)")
    config.addinivalue_line("markers", WAITS_HELP)
    state = RunState(config)
    if state.explicit or config.getoption("agentconf_events"):
        load_hypothesis_profile(config)
        tolerate_shared_temproot()
        front_door.hide_kit_frames()
    config.stash[STATE] = state
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


@pytest.hookimpl(tryfirst=True)  # before pytest's tmpdir plugin removes a green run's basetemp
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The kept server goes first: it runs in a sandbox inside that folder."""
    pytest_unconfigure(session.config)


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE, None)
    if state is not None:
        state.close()




# ---- collection -------------------------------------------------------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problems = []
    for item in items:
        marks = list(item.iter_markers("clause"))
        if marks and not clause_ids(item):
            problems.append(f"{item.nodeid}: @pytest.mark.clause() names no clause id")
        if len(clause_ids(item)) > 1:
            # A verdict is charged to exactly one clause; what a check needs of another clause
            # is a `requires` capability (n/a when missing), never a second clause to fail.
            problems.append(f"{item.nodeid}: charged to {len(clause_ids(item))} clauses "
                            f"({', '.join(clause_ids(item))}); a check tests exactly one")
        problems += [f"{item.nodeid}: unknown clause id {cid!r} in @pytest.mark.clause"
                     for cid in clause_ids(item) if cid not in CLAUSES]
        problems += [f"{item.nodeid}: unknown capability {name!r} in @pytest.mark.requires"
                     for mark in item.iter_markers("requires") for name in mark.args
                     if name not in CAPABILITIES]
    if problems:
        raise pytest.UsageError("agentconf markers:\n  " + "\n  ".join(problems))
    state = config.stash[STATE]
    if state.explicit or config.getoption("agentconf_events"):
        front_door.hide_kit_frames()  # again: the suites imported more of the harness
    if config.stash.get(_LEFT_OUT, False) and not any(
            item.get_closest_marker("clause") or _uses_agentconf(item) for item in items):
        warnings.warn(front_door.unused_warning(state.impl, state.profile), stacklevel=1)
    wanted = config.stash[STATE].clauses
    if wanted is not None:
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            # A check charged to no clause (a message snapshot) is selected by its scenario's.
            tags = set(clause_ids(item) or [str(arg) for mark in item.iter_markers("scenario")
                                            for arg in mark.args])
            tags |= {cid.split("-")[0] for cid in tags}
            (keep if tags & wanted else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
    items[:] = spread_fresh(spread_waits(items),
                            lambda item: needs_fresh_session(required_capabilities(item)))


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

    kept = request.config.stash[STATE].worker_server(new_base)
    fresh = needs_fresh_session(required_capabilities(request.node))
    unrevealed = needs_unrevealed(request.node)
    base = kept.base(fresh, unrevealed) if kept is not None else new_base()
    workspace = SandboxWorkspace(base=base)
    yield workspace
    stop_left(workspace.started, workspace.base)
    workspace.close_outer()  # outside the sandbox: handed back even when the sandbox is kept
    # Clean: passed, or n/a; a failure's sandbox stays for a look.
    clean = not request.node.stash.get(_FAILED, False) and (
        request.node.stash.get(_PASSED, True))
    if kept is not None:
        kept.release(clean, request.node.stash.get(_REMEMBERED, False),
                     settled=not request.node.stash.get(_UNSETTLED, False),
                     commanded=request.node.stash.get(_COMMANDED, False),
                     revealed=request.node.stash.get(_REVEALED, False),
                     beyond=request.node.stash.get(_BEYOND, False))
    elif clean:
        with contextlib.suppress(OSError):
            remove_tree(base)


@pytest.fixture
def client(request: pytest.FixtureRequest, ws: SandboxWorkspace) -> Iterator[Client]:
    """One fresh session of the implementation under test, judged by `ws`'s oracle."""
    state: RunState = request.config.stash[STATE]
    spec = state.spec()
    needed = required_capabilities(request.node)  # before a session: most of a test's cost
    skip_if_missing(request.node, {name: why for name in needed
                                    if (why := why_missing(name, spec, state)) is not None})
    if spec.profile.setup_state:
        ws.oracle.own_state(state_folders(spec.profile, ws.root, ws.home, ws.tmp))
    if spec.profile.setup_files:  # the implementation's own config, before it starts
        ws.oracle.own(write_setup_files(spec.profile, ws.root, ws.home, ws.tmp))
        ws.rebaseline()
    if spec.profile.setup_commands:  # the root prepared as a user would: its starting state
        ws.oracle.own_state(run_setup_commands(spec.profile, ws.root, ws.home, ws.tmp))
    env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp,
                     call_timeout_s=state.call_timeout(spec), log_dir=ws.logs,
                     extra_env=launch_env(spec.profile, ws.root, ws.home, ws.tmp, spec.mode))
    kept = state.kept_server  # made by the `ws` fixture, which this one follows
    began, starts = time.monotonic(), kept.started if kept is not None else 0
    adapter = (kept.open(env, needs_fresh_session(needed), needs_unrevealed(request.node))
               if kept is not None else open_adapter(spec, env))
    adapter = replay_calls.recorder(adapter, ws.root)  # `agentconf replay` shows the calls
    started = kept.started > starts if kept is not None else True  # in process: a build
    if started:  # counted even when the check then turns out n/a
        request.node.stash[_START] = time.monotonic() - began
    elif kept is not None and kept.taken is not None:  # a spare: what `ws` waited for it
        request.node.stash[_START] = kept.taken.waited_s
        request.node.stash[_START_AHEAD] = True
    session = Client(adapter, spec.profile, ws.root, ws.oracle, ws.sandbox,
                     known_tools=state.listing)
    try:
        if state.advertised is None:  # else the check above said all there is to say
            missing = {name: why for name in needed
                       if (why := session.why_missing(name)) is not None}
            _learn_listing(state, session)
            if started:
                request.node.stash[_START] = time.monotonic() - began
            skip_if_missing(request.node, missing)
        elif spec.text != "reference" and kept is None:
            # A fresh start of someone else's implementation ends with its listing: what it
            # writes into its HOME while starting is its own (the built-in reference writes none).
            session.list_tools()
            request.node.stash[_START] = time.monotonic() - began
        yield session
    finally:
        request.node.stash[_REMEMBERED] = session.may_remember  # for `ws`: keep the server?
        request.node.stash[_REVEALED], request.node.stash[_BEYOND] = (session.revealed,
                                                                      session.called_beyond)
        if session.may_leave_running:
            request.node.stash[_UNSETTLED] = request.node.stash[_COMMANDED] = True
        session.close()
    if request.node.stash.get(_ESCAPED, False):
        return  # the same change outside the root, already the check's one outcome
    # Late writes (a background process, a detached task) count as much as immediate ones.
    try:
        session.judge("the end of the session")
    except BaseException:
        request.node.stash[_FAILED] = True  # before `ws` decides what to keep: this sandbox
        request.node.stash[_UNSETTLED] = True  # something still writes: not a server to keep
        raise


def implementation(config: pytest.Config) -> tuple[ImplSpec, float]:
    """The implementation under test and its per-call timeout, for a suite that opens a session
    of its own (in a mode: harness/target/mode_launch.py)."""
    state: RunState = config.stash[STATE]
    spec = state.spec()
    return spec, state.call_timeout(spec)


def _learn_listing(state: RunState, session: Client) -> None:
    """From a listing taken before the test ran: a test may reveal deferred tools (tool_search)."""
    if state.advertised is None and session.listing is not None:
        # Only a listing of the right shape is kept by the client: objects with a string name.
        state.advertised = frozenset(tool["name"] for tool in session.listing)
        state.listing = list(session.listing)


# ---- outcomes ---------------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A check that passed on an unproven premise is not judged (verdicts/errors.py
    `not_judged_unless_failed`); one that failed on what it could judge keeps its failure."""
    take_not_judged()  # what an earlier check left, had it ended by an exception
    take_judged_in_part()
    result = yield
    reason, part = take_not_judged(), take_judged_in_part()
    if reason is not None:
        not_applicable(reason)
    if part is not None:
        item.user_properties.append((outcomes.IN_PART, part))
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    if call.excinfo is not None and outcomes.classify_exception(call.excinfo.value) in (
            Outcome.FAIL, Outcome.ERROR, Outcome.MESSAGE_CHANGED):
        item.stash[_ESCAPED] = front_door.escaped(call.excinfo.value)
    report: pytest.TestReport = yield
    expected = hasattr(report, "wasxfail")  # a failure the baseline lists
    if report.when == "call":  # n/a found during the call is as clean as a pass
        item.stash[_PASSED] = report.passed or (report.skipped and not expected)
    if report.failed:
        item.stash[_FAILED] = True
    if (report.failed or expected) and (call.excinfo is None or outcomes.classify_exception(
            call.excinfo.value) not in (Outcome.FAIL, Outcome.MESSAGE_CHANGED)):
        item.stash[_UNSETTLED] = True  # not a plain departure: a hang, a death, a bug of ours
    if item.get_closest_marker("clause") is None and not _uses_agentconf(item):
        return report
    funcargs = getattr(item, "funcargs", {})
    snapshot = "message_snapshot" in getattr(item, "fixturenames", ())
    payload = outcomes.phase_payload(report, call, clause_ids(item), funcargs.get("ws"), snapshot)
    session = funcargs.get("client")
    if report.when == "call" and isinstance(session, Client):
        # How much the test asked of the implementation: the deep fuzz job reports these.
        payload["calls"], payload["paths"] = session.calls, session.paths
    if report.when == "setup" and _START in item.stash:
        payload["start_s"] = item.stash[_START]
        if item.stash.get(_START_AHEAD, False):
            payload["start_ahead"] = True
    report.user_properties.append((outcomes.PROPERTY, payload))
    outcomes.make_sendable(report)
    return report


def _uses_agentconf(item: pytest.Item) -> bool:
    return bool({"ws", "client"} & set(getattr(item, "fixturenames", ())))
