"""Where the shipped folders live (suites/, fixtures/), in a checkout and in an installed wheel.

A checkout keeps them at the repository's top level (`<repo>/suites`); the wheel maps them to
`agentconf/_data/suites` (see pyproject's force-include), so a user with `pip install agentconf-kit`
alone can run them. The contract finds the suites itself: its clauses live in their category
folders there (categories.py).
"""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
_CHECKOUT = _PACKAGE.parent


def _shipped_dir(name: str) -> Path:
    for candidate in (_PACKAGE / "_data" / name, _CHECKOUT / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"agentconf's {name}/ folder is missing: looked in {_PACKAGE / '_data' / name} "
        f"and {_CHECKOUT / name}; reinstall agentconf"
    )


def suites_dir() -> Path:
    return _shipped_dir("suites")


def fixtures_dir() -> Path:
    return _shipped_dir("fixtures")
