"""Suite-wide fixtures: the message snapshots of the implementation under test, and read-first.

`--agentconf-snapshot-dir DIR` (or AGENTCONF_SNAPSHOT_DIR, which `agentconf run --snapshot-dir`
sets) names the folder; without it the reference uses its shipped `fixtures/snapshots/reference`,
and any other implementation has no snapshots, so its snapshot tests are n/a with the reason.
A message that differs from its snapshot, or has none in a folder that was named, raises
`MessageChanged` with the diff: outcome `message-changed`, apart from every clause's verdict.
`agentconf snapshots record|update|check` (syrupy's --snapshot-update-new-only, --snapshot-update,
or neither) writes and compares them.
"""

import difflib
import inspect
import shlex
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation

from agentconf.contract.modes import ALLOWED_PROGRAMS, DENY, MODES, READ_ONLY
from agentconf.harness.plugin import implementation, load_hypothesis_profile
from agentconf.harness.resources import fixtures_dir
from agentconf.harness.run.plugin_state import run_state, snapshots_command
from agentconf.harness.session.client import Client
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.mode_launch import Mode, open_in_mode, profile_modes
from agentconf.harness.verdicts.errors import MessageChanged, not_applicable

ModeOpener = Callable[[str], Client]


def pytest_configure(config: pytest.Config) -> None:
    # `pytest suites` without an --agentconf option still runs with the kit's profile.
    load_hypothesis_profile(config)


def is_reference(config: pytest.Config) -> bool:
    impl = config.getoption("--agentconf-impl", default=None)
    profile = config.getoption("--agentconf-profile", default=None)
    return impl in (None, "reference") and profile is None


def snapshot_dir(config: pytest.Config) -> Path | None:
    chosen = run_state(config).snapshot_dir
    if chosen is not None:
        return chosen
    if is_reference(config):
        return fixtures_dir() / "snapshots" / "reference"
    return None


@cache  # one class per folder: syrupy keeps track of extension classes
def _extension_for(folder: Path) -> type[SingleFileSnapshotExtension]:
    """One UTF-8 text file per scenario under `folder`: easy to review, easy to diff."""

    class MessageSnapshot(SingleFileSnapshotExtension):
        _write_mode = WriteMode.TEXT
        file_extension = "txt"

        @classmethod
        def dirname(cls, *, test_location: PyTestLocation) -> str:
            # syrupy relates a snapshot to its test through a folder named after the module.
            return str(folder / test_location.basename)

    return MessageSnapshot


def message_diff(recorded: str, now: str) -> str:
    """`- recorded` / `+ now` lines, the unchanged ones indented: short messages read whole."""
    lines = difflib.ndiff(recorded.splitlines(), now.splitlines())
    return "\n".join(line.rstrip() for line in lines if not line.startswith("?"))


@pytest.fixture
def message_snapshot(
    request: pytest.FixtureRequest, snapshot: SnapshotAssertion
) -> Callable[[str], None]:
    """`message_snapshot(text)` compares `text` with this test's recorded snapshot."""
    config = request.config
    folder = snapshot_dir(config)
    if folder is None:
        not_applicable(f"no snapshot folder for this implementation; record its messages with "
                    f"`{snapshots_command(run_state(config), 'record')} --snapshot-dir DIR`")
    extension = _extension_for(folder)
    assertion = snapshot.use_extension(extension)
    recorded = Path(
        extension.get_location(test_location=assertion.test_location, index=assertion.index)
    )

    def check(text: str) -> None:
        before = recorded.read_text("utf-8") if recorded.exists() else None
        if assertion == text:  # syrupy counts it, and writes it when recording or updating
            return
        state = run_state(config)
        if before is None:
            raise MessageChanged(
                f"message not recorded: no snapshot {recorded}\n{message_diff('', text)}\n"
                f"record it: {snapshots_command(state, 'record')}", missing=True)
        raise MessageChanged(
            f"message changed from its snapshot {recorded}\n{message_diff(before, text)}\n"
            f"accept the new wording: {snapshots_command(state, 'update')}")

    return check


# ---- read first: every write and edit of the confinement suites is played twice -------------

# A model reads before it writes. An implementation whose read-before-write guard refuses unread
# files hides, from a write played cold, an escape the model gets by reading first (read
# `link_out_file`, then write it). So each confinement and symlink check that writes or edits
# runs again with every write and edit preceded by a read of the same path.
_READ_FIRST_MODULES = ("test_confine", "test_symlink")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rpartition(".")[2]
    if module not in _READ_FIRST_MODULES or "client" not in metafunc.fixturenames:
        return
    source = inspect.getsource(metafunc.function)
    if '"write_file"' in source or '"edit_file"' in source or "hostile" in source:
        metafunc.fixturenames.append("read_first")
        metafunc.parametrize("read_first", [False, True], ids=["cold", "read-first"],
                             indirect=True)


@pytest.fixture
def read_first(request: pytest.FixtureRequest) -> bool:
    return bool(getattr(request, "param", False))


@pytest.fixture
def client(client: Any, request: pytest.FixtureRequest) -> Any:
    """The plugin's client, told to read before each write when the test is a read-first one."""
    callspec = getattr(request.node, "callspec", None)
    client.read_first = bool(callspec and callspec.params.get("read_first"))
    client.policy_refusal_not_judged = True
    return client
# ---------------------------------------------------------------- sessions in a mode

# How the reference family (the reference in process, `agentconf serve` over cmd: and mcp:, the
# mutant gallery) is started in each mode of contract/modes.py: environment variables, which
# every transport carries (`agentconf serve --read-only / --deny RULE` take the same).
# TODO(Profile.modes): once the profile helper's [modes.<name>] lands as Profile.modes, every
# implementation declares its modes in its profile and this constant goes into the reference's
# own profile; harness/target/mode_launch.py already reads Profile.modes first.
REFERENCE_NAME = "agentconf-reference"
REFERENCE_MODES = {
    READ_ONLY: Mode(env={"AGENTCONF_READ_ONLY": "1"}),
    DENY: Mode(env={"AGENTCONF_DENY": shlex.join(MODES[DENY].rules)}),
    ALLOWED_PROGRAMS: Mode(env={
        "AGENTCONF_ALLOWED_PROGRAMS": shlex.join(MODES[ALLOWED_PROGRAMS].programs)}),
}


@pytest.fixture
def open_mode(request: pytest.FixtureRequest, ws: Any, client: Client) -> Iterator[ModeOpener]:
    """`open_mode(name)`: a fresh session of the implementation started in mode `name`, on
    `ws`'s workspace and judged by its oracle; n/a when the implementation has no such mode."""
    spec, call_timeout_s = implementation(request.config)
    opened: list[Client] = []

    def open_(name: str) -> Client:
        declared = profile_modes(spec)
        if declared is None and spec.profile.path is None:
            if client.listing is None:
                client.list_tools()  # a cmd: server's name comes with its first answers
            if client.adapter.name == REFERENCE_NAME:
                declared = REFERENCE_MODES
        mode = (declared or {}).get(name)
        if mode is None:
            not_applicable(f"the profile declares no way to start the implementation in its "
                        f"{name} mode ([modes.{name}])")
        env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp, call_timeout_s=call_timeout_s,
                         log_dir=ws.logs)
        session = Client(open_in_mode(spec, mode, env), spec.profile, ws.root, ws.oracle,
                         ws.sandbox)
        opened.append(session)
        return session

    yield open_
    for session in opened:
        session.close()
    for session in opened:  # late writes count as much as immediate ones
        session.judge("the end of the session")
