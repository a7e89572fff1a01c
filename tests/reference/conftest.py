"""Fixtures for the reference's own tests (the helpers live in reference_box.py)."""

from collections.abc import Callable
from pathlib import Path

import pytest
from reference_box import Box, make_box


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return make_box(tmp_path)


@pytest.fixture
def box_with(tmp_path: Path) -> Callable[..., Box]:
    """A box whose system gets the given config (limits, gate, disabled tools...)."""
    return lambda **config: make_box(tmp_path, **config)
