"""`agentconf run`: check an implementation against the contract and write the reports."""

import argparse
import json
import os
import sys
from pathlib import Path

from agentconf.cli import UsageError, implementation
from agentconf.harness.report import ExpectationsError
from agentconf.harness.run import runner

HELP = "check an implementation against the contract and write reports/<name>/"


def workers(text: str) -> str:
    if text != "auto" and not (text.isdigit()):
        raise argparse.ArgumentTypeError(f"-n takes a number of workers or 'auto', not {text!r}")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", metavar="SPEC", help="reference (default), "
                        "python:MODULE:FACTORY, cmd:COMMAND, mcp:COMMAND or a profile .toml")
    parser.add_argument("--profile", metavar="FILE", help="agentconf.toml: names, limits, "
                        "capabilities and expected failures of the implementation")
    parser.add_argument("--report", metavar="DIR", type=Path,
                        help="where to write the reports (default reports/<implementation-name>)")
    parser.add_argument("-n", dest="workers", metavar="N", type=workers,
                        help="run the checks in N processes (pytest-xdist); default: two per "
                             "core (up to 8, at least one per core) for a whole run, in this "
                             "process for --clauses; 0: in this process")
    parser.add_argument("--clauses", metavar="IDS",
                        help="comma-separated clause ids or categories to check (default: all)")
    parser.add_argument("--expected-failures", metavar="FILE", type=Path,
                        help='TOML of "CLAUSE-ID" or "CLAUSE-ID::case-id" = "reason"')
    parser.add_argument("--write-baseline", metavar="FILE", type=Path,
                        help="write today's failures to FILE as an expected-failures file")
    parser.add_argument("--hypothesis-profile", choices=("ci", "deep"), default="ci",
                        help="ci: fast and deterministic (default); deep: many more examples")
    parser.add_argument("--snapshot-update", action="store_true",
                        help="rewrite the message snapshots from this implementation's answers")
    parser.add_argument("--snapshot-dir", metavar="DIR", type=Path,
                        help="where this implementation's message snapshots live")
    parser.add_argument("--summary-md", metavar="FILE", type=Path,
                        help="append a short Markdown summary (escapes, then failures with their "
                             "reproduce lines) to FILE, such as $GITHUB_STEP_SUMMARY")


# Two workers a core up to this many (never fewer than the cores): past it a worker's share of a
# run's designed waits (about 10 s in all against the reference) is a second or less, and each
# worker's own start (imports, collecting the suites) costs more than that.
MOST_WORKERS = 8


def default_workers(clauses: tuple[str, ...]) -> str | None:
    """A whole run uses twice the cores it has, up to 8 workers (never fewer than its cores).

    A worker runs one check at a time, and a good part of a run is waiting: a command's timeout
    and its kill grace, a server's start. A wait in one process cannot overlap another check
    there (an in-process call owns the process's folder, environment and alarm), so workers
    beyond the cores are what overlaps the waits with other checks' work. On 2 cores, side by
    side (docs/benchmarks.md, tenth round): the reference 13 s with 2 workers, 10.2 s with 4;
    the official filesystem server 17.4 s and 15.2 s; plain-python, a server started per
    check, 98 s and 77 s, for 6% more CPU. A run of a few clauses stays in one process, where
    starting workers would cost more than they save."""
    if clauses:
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if not cores or cores < 2:
        return None
    return str(max(cores, min(2 * cores, MOST_WORKERS)))


def run(args: argparse.Namespace) -> int:
    spec = implementation(args)
    clauses = tuple(c.strip().upper() for c in (args.clauses or "").split(",") if c.strip())
    if args.clauses is not None and not clauses:
        raise UsageError("--clauses needs at least one clause id or category")
    try:
        runner.select_clauses(clauses)
        expectations = runner.gather_expectations(spec, args.expected_failures)
    except (ValueError, ExpectationsError) as error:
        raise UsageError(str(error)) from None
    if args.snapshot_dir is not None and args.snapshot_dir.exists() and \
            not args.snapshot_dir.is_dir():
        raise UsageError(f"--snapshot-dir {args.snapshot_dir} is not a directory")
    options = runner.RunOptions(
        spec=spec,
        impl=args.impl,
        profile=args.profile,
        report_dir=args.report or Path("reports") / runner.report_name(spec),
        expectations=expectations,
        clauses=clauses,
        workers=args.workers if args.workers is not None else default_workers(clauses),
        hypothesis_profile=args.hypothesis_profile,
        snapshot_update=args.snapshot_update,
        snapshot_dir=args.snapshot_dir,
        write_baseline=args.write_baseline,
        origin=getattr(args, "origin", ""),
    )
    try:
        code = runner.run(options)
    except (runner.RunError, runner.CannotStart) as error:
        print(f"agentconf run: {error}", file=sys.stderr)
        _summarize(args.summary_md, None, f"agentconf run: {error}")
        return 2 if isinstance(error, runner.CannotStart) else 1
    except OSError as error:  # an unwritable report folder, a full disk
        raise UsageError(f"cannot write the reports: {error}") from None
    _summarize(args.summary_md, options.report_dir / "conformance.json", "")
    return code


def _summarize(path: Path | None, conformance: Path | None, failure: str) -> None:
    """Append the step summary: the run's, or why there was none."""
    if path is None:
        return
    from agentconf.harness.report.summary import render_summary

    text = f"### agentconf\n\n{failure}\n"
    if conformance is not None and conformance.is_file():
        text = render_summary(json.loads(conformance.read_text("utf-8")))
    try:
        with path.open("a", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise UsageError(f"cannot write the summary {path}: {error}") from None
