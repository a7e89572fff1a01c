"""Suite-wide options: where the message snapshots of the implementation under test live.

`--agentconf-snapshot-dir DIR` (or AGENTCONF_SNAPSHOT_DIR, which `agentconf run --snapshot-dir`
sets) names the folder; without it the reference uses its shipped `fixtures/snapshots/reference`,
and any other implementation has no snapshots, so its snapshot tests are n/a with the reason.
syrupy's own `--snapshot-update` records or rewrites them.
"""

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation

from agentconf.harness.resources import fixtures_dir

SNAPSHOT_DIR_ENV = "AGENTCONF_SNAPSHOT_DIR"
NO_DIR = (
    "n/a: no snapshot directory for this implementation; pass --agentconf-snapshot-dir DIR "
    "(agentconf run --snapshot-dir DIR) with --snapshot-update to record its messages"
)
NOT_RECORDED = "n/a: no snapshots recorded; run with --snapshot-update"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("agentconf").addoption(
        "--agentconf-snapshot-dir",
        metavar="DIR",
        default=None,
        help="this implementation's message snapshots (default: the reference's shipped ones)",
    )


def is_reference(config: pytest.Config) -> bool:
    impl = config.getoption("--agentconf-impl", default=None)
    profile = config.getoption("--agentconf-profile", default=None)
    return impl in (None, "reference") and profile is None


def snapshot_dir(config: pytest.Config) -> Path | None:
    chosen = config.getoption("--agentconf-snapshot-dir") or os.environ.get(SNAPSHOT_DIR_ENV)
    if chosen:
        return Path(chosen).resolve()
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


@pytest.fixture
def message_snapshot(
    request: pytest.FixtureRequest, snapshot: SnapshotAssertion
) -> Callable[[str], None]:
    """`message_snapshot(text)` asserts `text` equals this test's recorded snapshot."""
    config = request.config
    folder = snapshot_dir(config)
    if folder is None:
        pytest.skip(NO_DIR)
    extension = _extension_for(folder)
    assertion = snapshot.use_extension(extension)
    recorded = Path(
        extension.get_location(test_location=assertion.test_location, index=assertion.index)
    )
    updating = bool(config.option.update_snapshots)

    def check(text: str) -> None:
        # The reference ships its snapshots, so a missing one is its failure; anyone else's
        # missing snapshot means nothing was recorded yet, which is not a verdict.
        if not recorded.exists() and not updating and not is_reference(config):
            pytest.skip(NOT_RECORDED)
        assert assertion == text

    return check
