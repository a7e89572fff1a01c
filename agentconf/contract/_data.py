"""Loads the contract's TOML data files, once."""

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def load(name: str) -> dict[str, Any]:
    return tomllib.loads(files(__package__).joinpath("data", name).read_text("utf-8"))
