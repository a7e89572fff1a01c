"""The suite modules a run of a few clauses needs: pytest is given those files alone.

Collecting all the suite modules costs about 1.7 s of CPU in every pytest process of a run
(each imported with assertion rewriting, every parametrized check built); one module costs about
0.85 s. A run of a few clauses (a lesson of the course, a CI job on one category, a tool author's
`--clauses EDIT`) collects the modules that hold them.

Which module holds a clause's checks is read from its source: the clause ids that its
`pytest.mark.clause(...)` calls name as literals. A module naming a clause any other way (the
golden cases, from their data files) or selecting checks by `pytest.mark.scenario` (the message
snapshots) is always given. The plugin's clause filter still selects within every file given,
so a module given too many changes nothing; tests/harness/run/test_suite_files.py holds every
collected check to a module given for its clause.
"""

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

_ALWAYS = "always"


@cache
def _tags(module: Path) -> frozenset[str]:
    """The clause ids a module names literally in `mark.clause(...)`, or {"always"}."""
    tags: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text("utf-8"), str(module))):
        if not isinstance(node, ast.Call):
            continue
        called = ast.unparse(node.func)
        if called.endswith("mark.scenario"):
            return frozenset({_ALWAYS})
        if not called.endswith("mark.clause"):
            continue
        named = [a.value for a in node.args if isinstance(a, ast.Constant)]
        if len(named) != len(node.args) or not all(isinstance(v, str) for v in named):
            return frozenset({_ALWAYS})
        tags.update(str(value) for value in named)
    return frozenset(tags)


def suite_files(suites: Path, wanted: Iterable[str]) -> list[Path]:
    """The modules of `suites` (its category folders included) holding checks of `wanted`
    (clause ids or categories)."""
    names = set(wanted)
    chosen = []
    for module in sorted(suites.rglob("test_*.py")):
        tags = _tags(module)
        if _ALWAYS in tags or any(t in names or t.split("-")[0] in names for t in tags):
            chosen.append(module)
    return chosen
