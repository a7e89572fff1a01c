"""`agentconf explain CLAUSE`: what a clause asks, why, and what checks it."""

import argparse
import ast
import re
from pathlib import Path

from agentconf.cli import UsageError
from agentconf.contract import CAPABILITIES, CLAUSES, Clause
from agentconf.contract.sources import SOURCES
from agentconf.harness.report.expectations import close_clause_ids
from agentconf.harness.resources import suites_dir
from agentconf.harness.run import runner

HELP = "show a clause: requirement, rationale, source, capabilities, tests and mutants"

# The gallery's documented table: generated into docs/ (or kept beside the mutants).
REPOSITORY = Path(__file__).resolve().parents[2]
MUTANT_TABLES = (REPOSITORY / "docs" / "mutants.md", REPOSITORY / "tests" / "mutants" / "README.md")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("clause", metavar="CLAUSE", help="a clause id such as CONFINE-05")
    parser.add_argument("--static", action="store_true",
                        help="find the tests by reading the suites' source instead of collecting")


def find_clause(text: str) -> Clause:
    key = text.strip().upper()
    if key in CLAUSES:
        return CLAUSES[key]
    close = close_clause_ids(key) or [cid for cid in CLAUSES if cid.startswith(key + "-")][:5]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"unknown clause {text!r}{hint}")


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


def run(args: argparse.Namespace) -> int:
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
