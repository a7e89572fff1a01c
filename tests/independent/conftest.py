"""Fixtures for the Node example's black-box tests: a private root per test, beside canaries."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from .node_server import NODE, NodeServer, running

SECRET = "canary-7f3a9c-not-for-the-model"


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    for name in ("root", "outside", "root_evil", "home"):
        (tmp_path / name).mkdir()
    (tmp_path / "outside" / "secret.txt").write_text(SECRET)
    return tmp_path


@pytest.fixture
def root(sandbox: Path) -> Path:
    return sandbox / "root"


@pytest.fixture
def server(sandbox: Path) -> Iterator[NodeServer]:
    if NODE is None:
        pytest.skip("node is not installed on this machine")
    with running(sandbox / "root", sandbox / "home") as live:
        yield live
