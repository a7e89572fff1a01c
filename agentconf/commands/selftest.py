"""`agentconf selftest`: check that this installation catches every mutant of the gallery."""

import argparse
import sys

HELP = "run the mutant gallery against the suites and print the kill rate"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-j", "--jobs", type=int, default=2, help="mutants checked at once (default 2)"
    )
    parser.add_argument(
        "--mutant", action="append", metavar="NAME", help="check only this mutant (repeatable)"
    )
    parser.add_argument(
        "--table", action="store_true", help="print the clause-to-mutant table (docs/mutants.md)"
    )
    parser.add_argument(
        "--coverage", action="store_true",
        help="instead of the mutants: run the suites alone against the reference under coverage "
             "and print the lines of agentconf/reference no clause exercises",
    )
    parser.add_argument(
        "--clauses", metavar="IDS",
        help="with --coverage: only these comma-separated clause ids or categories",
    )
    parser.add_argument(
        "--fail-under", type=float, default=None, metavar="PERCENT",
        help="with --coverage: exit 1 below this contract coverage (default 95)",
    )


def run(args: argparse.Namespace) -> int:
    from agentconf.cli import UsageError
    from agentconf.selfcheck.mutants import (
        MutantCheck,
        check_gallery,
        gallery,
        kill_rate,
        render_table,
    )

    try:
        found = gallery().entries()
    except FileNotFoundError:
        found = []
    if not found:
        raise UsageError("the mutant gallery is not in this installation (each category's "
                         "mutants ship with its suites: suites/<category>/mutants.py, in the "
                         "wheel under agentconf/_data/suites)")
    if args.coverage:
        return _coverage(args)
    if args.table:
        sys.stdout.write(render_table())
        return 0
    if args.clauses is not None or args.fail_under is not None:
        raise UsageError("--clauses and --fail-under go with --coverage")

    known = {entry.name for entry in found}
    unknown = sorted(set(args.mutant or ()) - known)
    if unknown:
        raise UsageError(f"unknown mutant(s): {', '.join(unknown)}")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")

    def show(check: MutantCheck) -> None:
        mark = "killed  " if check.killed else "SURVIVED"
        print(f"{mark} {check.mutant:<34} {', '.join(check.kills)}  {check.detail}", flush=True)

    checks = check_gallery(args.jobs, set(args.mutant) if args.mutant else None, show)
    killed, total = kill_rate(checks)
    print(f"\nkill rate: {killed}/{total} mutants caught ({100 * killed / max(total, 1):.0f}%)")
    return 0 if killed == total else 1


def _coverage(args: argparse.Namespace) -> int:
    from agentconf.cli import UsageError
    from agentconf.contract import CATEGORIES, CLAUSES
    from agentconf.selfcheck.coverage import DEFAULT_FAIL_UNDER, CoverageError, run_coverage

    if args.mutant or args.table:
        raise UsageError("--coverage does not combine with --mutant or --table")
    fail_under = DEFAULT_FAIL_UNDER if args.fail_under is None else args.fail_under
    if not 0 <= fail_under <= 100:
        raise UsageError("--fail-under must be a percentage between 0 and 100")
    clauses = [name.strip().upper() for name in (args.clauses or "").split(",") if name.strip()]
    if args.clauses is not None and not clauses:
        raise UsageError("--clauses names no clause")
    unknown = [name for name in clauses if name not in CLAUSES and name not in CATEGORIES]
    if unknown:
        raise UsageError(f"unknown clause or category: {', '.join(unknown)}")
    print("running the conformance suites against the reference under coverage "
          "(serially; the full suites take minutes)...", flush=True)
    try:
        report, text = run_coverage(clauses, fail_under)
    except CoverageError as error:
        print(f"agentconf selftest: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0 if report.percent >= fail_under else 1
