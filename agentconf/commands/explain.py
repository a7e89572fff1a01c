"""`agentconf explain CLAUSE`: what a clause asks, why, and what checks it; a category (`EOL`) or
a capability name (`grep`, `read_before_edit`) lists the clauses it holds or switches off."""

import argparse
import ast
import re
from pathlib import Path

from agentconf.cli import UsageError
from agentconf.contract import CAPABILITIES, CATEGORIES, CLAUSES, Clause
from agentconf.contract.sources import SOURCES
from agentconf.harness.report.expectations import close_clause_ids
from agentconf.harness.resources import suites_dir
from agentconf.harness.run import runner

HELP = ("show a clause (requirement, rationale, source, capabilities, tests, mutants), or the "
        "clauses of a category or a capability")

# The gallery's documented table, generated into a checkout's docs/.
REPOSITORY = Path(__file__).resolve().parents[2]
MUTANT_TABLES = (REPOSITORY / "docs" / "mutants.md",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("clause", metavar="CLAUSE", help="a clause id such as CONFINE-05, a "
                        "category such as EOL, or a capability such as read_before_edit")
    parser.add_argument("--static", action="store_true",
                        help="find the tests by reading the suites' source instead of collecting")


def find_clause(text: str) -> Clause:
    key = text.strip().upper()
    if key in CLAUSES:
        return CLAUSES[key]
    close = close_clause_ids(key) or [cid for cid in CLAUSES if cid.startswith(key + "-")][:5]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"unknown clause {text!r}{hint} (a clause id, a category such as EOL, or a "
                     "capability such as grep)")


def static_tests(clause_id: str, suites: Path) -> list[str]:
    """Tests whose `@pytest.mark.clause(...)` decorator names the clause, by reading the source."""
    found = []
    for module in sorted(suites.rglob("test_*.py")):
        tree = ast.parse(module.read_text("utf-8"), str(module))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Call) and ast.unparse(decorator.func).endswith(
                    "mark.clause"
                ) and any(isinstance(a, ast.Constant) and a.value == clause_id
                          for a in decorator.args):
                    found.append(f"{module.relative_to(suites.parent)}::{node.name}")
    return found


def collected_tests(clause_id: str) -> list[str]:
    return [nodeid for nodeid, ids in runner.collect_clause_tests().items() if clause_id in ids]


def mutants_killing(clause_id: str, tables: tuple[Path, ...] = MUTANT_TABLES) -> list[str] | None:
    """Rows of the mutant gallery's tables that name the clause; None without a gallery."""
    found = [path for path in tables if path.is_file()]
    if not found:
        return None
    rows = []
    for line in found[0].read_text("utf-8").splitlines():
        if not line.startswith("|") or not re.search(rf"\b{re.escape(clause_id)}\b", line):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == clause_id:
            continue  # the per-clause summary row; the mutant rows say more
        rows.append(" — ".join(cell for cell in cells if cell))
    return rows


def explain_group(name: str) -> list[str] | None:
    """The lines for a category or a capability; None when `name` is neither."""
    if name.strip() in CAPABILITIES:  # lower case: `grep` the tool, `GREP` the category
        capability = name.strip()
        members = [c for c in CLAUSES.values() if capability in c.requires and not c.retired]
        head = [f"{capability} (a capability): {CAPABILITIES[capability]}",
                f"Without it these {len(members)} clauses are n/a, never passed "
                f"([capabilities] {capability} = false in a profile switches it off):"]
    elif name.strip().upper() in CATEGORIES:
        category = name.strip().upper()
        members = [c for c in CLAUSES.values() if c.category == category and not c.retired]
        head = [f"{category}: {len(members)} clauses (agentconf explain CLAUSE-ID for one)"]
    else:
        return None
    return [*head, *(f"  {c.id} ({c.level.value}) {c.requirement}" for c in members)]


def run(args: argparse.Namespace) -> int:
    group = explain_group(args.clause)
    if group is not None:
        print("\n".join(group))
        return 0
    clause = find_clause(args.clause)
    print(f"{clause.id} ({clause.level.value}, {clause.category})")
    print(clause.requirement)
    if clause.retired:
        print(f"Retired: {clause.retired}")
    print(f"\nWhy: {clause.rationale}")
    print(f"Source: {SOURCES[clause.source]}")
    if clause.requires:
        print("Requires (n/a without them):")
        for name in clause.requires:
            print(f"  {name}: {CAPABILITIES[name]}")
    else:
        print("Requires: nothing (applies to every implementation)")
    how = "read from the suites' source"
    if args.static:
        tests = static_tests(clause.id, suites_dir())
    else:
        try:
            tests, how = collected_tests(clause.id), "collected from the suites"
        except runner.RunError:
            tests = static_tests(clause.id, suites_dir())
    print(f"\nChecked by ({how}):" if tests else "\nChecked by: no test in the suites yet")
    for nodeid in tests:
        print(f"  {nodeid}")
    mutants = mutants_killing(clause.id)
    if mutants is not None:
        print("\nMutants it kills:" if mutants else "\nMutants it kills: none in the gallery")
        for row in mutants:
            print(f"  {row}")
    return 0
