"""An expensive fixture value made once per test session, however many xdist workers ask.

A module-scoped fixture is made once per worker: under `-n 2` the tests of one module land on
both workers, and each made its own whole `agentconf run` or learner walk (minutes each, the
same result twice). `xdist_group` would keep such tests on one worker, but it cannot under
pytest 9.2 (it renames `Item._nodeid`, which pytest 9 no longer reads). So the first worker to
ask makes the value under a lock in the session's shared temporary root; the others wait for
it and read it back.
"""

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this session sees (the controller's basetemp)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """`make(folder)`'s value, made by the first worker that asks; `folder` is a fresh folder
    in the shared root (removed with it). A `make` that raises leaves nothing: the next worker
    tries again, and fails as it did."""
    root = shared_root(tmp_path_factory)
    result = root / f"once-{name}.pickle"
    with (root / f"once-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if result.exists():
            value: T = pickle.loads(result.read_bytes())
            return value
        folder = root / f"once-{name}"
        folder.mkdir(exist_ok=True)
        value = make(folder)
        result.write_bytes(pickle.dumps(value))
        return value
