"""A module's name means one thing across the package (issue 43): two modules of the same name in
agentconf/ are one concept seen from two sides, or one of them is renamed for what it holds.
A newcomer who has read `harness/session/answers.py` and then meets another `answers.py` would
otherwise assume it is the same job and look in the wrong file.

The pairs that do mean the same thing are listed below with the reason; each entry names its
files exactly, so a third module of that name is caught like any other."""

from collections import defaultdict
from pathlib import Path

import agentconf

PACKAGE = Path(agentconf.__file__).resolve().parent

# A package's __init__.py and __main__.py are named by Python, not by us.
_PYTHON_NAMES = frozenset({"__init__.py", "__main__.py"})

# name -> (the files that share it, why they mean the same thing).
SAME_MEANING: dict[str, tuple[frozenset[str], str]] = {
    "compare.py": (
        frozenset({"agentconf/commands/compare.py", "agentconf/harness/report/compare.py"}),
        "commands/compare.py is the `agentconf compare` command of report/compare.py's table"),
    "matrix.py": (
        frozenset({"agentconf/commands/matrix.py", "agentconf/harness/report/matrix.py"}),
        "commands/matrix.py is the `agentconf matrix` command of report/matrix.py's document"),
    "serve.py": (
        frozenset({"agentconf/commands/serve.py", "agentconf/reference/serve.py"}),
        "commands/serve.py is the `agentconf serve` command of the reference's stdio server"),
}

# Names that still mean two things, each with what holds its rename back: a debt, not a pass.
# When the rename lands, `test_every_allowed_name_is_still_shared` fails until the entry goes.
NOT_YET: dict[str, tuple[frozenset[str], str]] = {}


def shared_names(package: Path,
                 allowed: dict[str, tuple[frozenset[str], str]]) -> dict[str, list[str]]:
    """Every module name of `package` held by more than one file, with those files (relative to
    the package's parent), unless `allowed` names exactly that set of files."""
    holders: dict[str, list[str]] = defaultdict(list)
    for path in package.rglob("*.py"):
        if path.name not in _PYTHON_NAMES:
            holders[path.name].append(path.relative_to(package.parent).as_posix())
    return {name: sorted(paths) for name, paths in sorted(holders.items())
            if len(paths) > 1 and (name not in allowed or set(paths) != allowed[name][0])}


def _allowed() -> dict[str, tuple[frozenset[str], str]]:
    return {**SAME_MEANING, **NOT_YET}


def test_no_two_modules_share_a_name_with_different_meanings() -> None:
    assert shared_names(PACKAGE, _allowed()) == {}


def test_every_allowed_name_is_still_shared() -> None:
    # An entry whose files were renamed or removed would allow a future duplicate unseen.
    stale = {name: sorted(files) for name, (files, _) in _allowed().items()
             if not all((PACKAGE.parent / file).is_file() for file in files)}
    assert stale == {}


def _plant(root: Path, *files: str) -> None:
    for file in files:
        (root / file).parent.mkdir(parents=True, exist_ok=True)
        (root / file).write_text('"""planted"""\n', "utf-8")


def test_the_check_catches_a_planted_duplicate(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    _plant(package, "__init__.py", "a/__init__.py", "a/tools.py", "b/__init__.py", "b/tools.py",
           "b/__main__.py", "__main__.py", "c/serve.py", "d/serve.py")
    allowed = {"serve.py": (frozenset({"pkg/c/serve.py", "pkg/d/serve.py"}), "one concept")}
    assert shared_names(package, allowed) == {"tools.py": ["pkg/a/tools.py", "pkg/b/tools.py"]}
    # An allowed pair does not cover a third module of its name.
    _plant(package, "e/serve.py")
    assert shared_names(package, allowed) == {
        "serve.py": ["pkg/c/serve.py", "pkg/d/serve.py", "pkg/e/serve.py"],
        "tools.py": ["pkg/a/tools.py", "pkg/b/tools.py"]}
