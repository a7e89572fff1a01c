"""`agentconf selftest`: check that this installation catches every mutant of the gallery."""

import argparse
import sys

HELP = "run the mutant gallery against the suites and print the kill rate"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-j", "--jobs", type=int, default=2, help="mutants checked at once (default 2)")
    parser.add_argument(
        "--mutant", action="append", metavar="NAME", help="check only this mutant (repeatable)"
    )
    parser.add_argument(
        "--table", action="store_true", help="print the clause-to-mutant table (docs/mutants.md)"
    )


def run(args: argparse.Namespace) -> int:
    from agentconf.cli import UsageError
    from agentconf.selftest import check_gallery, gallery, kill_rate, render_table

    if args.table:
        sys.stdout.write(render_table())
        return 0

    known = {entry.name for entry in gallery().entries()}
    unknown = sorted(set(args.mutant or ()) - known)
    if unknown:
        raise UsageError(f"unknown mutant(s): {', '.join(unknown)}")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")

    def show(verdict: object) -> None:
        mark = "killed  " if verdict.killed else "SURVIVED"  # type: ignore[attr-defined]
        print(f"{mark} {verdict.mutant:<34} {', '.join(verdict.kills)}  {verdict.detail}",  # type: ignore[attr-defined]
              flush=True)

    verdicts = check_gallery(args.jobs, set(args.mutant) if args.mutant else None, show)
    killed, total = kill_rate(verdicts)
    print(f"\nkill rate: {killed}/{total} mutants caught ({100 * killed / max(total, 1):.0f}%)")
    return 0 if killed == total else 1
