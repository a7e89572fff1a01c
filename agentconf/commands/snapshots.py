"""`agentconf snapshots record|update|check`: the message snapshots of one implementation.

Only the snapshot checks run (not the whole suites), so recording does not wait for, or fail on,
unrelated clauses. record writes the snapshots that do not exist yet and rewrites none (syrupy's
--snapshot-update-new-only); update rewrites every changed one (--snapshot-update); check compares.
Each prints syrupy's counts and every changed message with its diff. Exit status: 0 when every
message now has a snapshot that matches, 1 when one differs or a scenario could not be played,
2 for bad input or an implementation that does not start.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from agentconf.cli import UsageError, implementation
from agentconf.harness.report.events import EventStreamError, Outcome, TestEvent, read_events
from agentconf.harness.resources import fixtures_dir, suites_dir
from agentconf.harness.run import child, runner
from agentconf.harness.run.preflight import preflight

HELP = "record, update or check an implementation's message snapshots (only the snapshot checks)"
MODES = {"record": ["--snapshot-update-new-only"], "update": ["--snapshot-update"], "check": []}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=tuple(MODES),
                        help="record: write missing snapshots; update: rewrite changed ones too; "
                             "check: compare only")
    parser.add_argument("--impl", metavar="SPEC", help="the implementation (default: reference)")
    parser.add_argument("--profile", metavar="FILE", help="the implementation's agentconf.toml")
    parser.add_argument("--snapshot-dir", metavar="DIR", type=Path,
                        help="where its snapshots live (required except for the reference, "
                             "whose shipped ones are the default)")
    parser.add_argument("-n", dest="workers", metavar="N", type=runner_workers,
                        help="run the snapshot checks in N processes (pytest-xdist)")


def runner_workers(text: str) -> str:
    from agentconf.commands.run import workers

    return workers(text)


def run(args: argparse.Namespace) -> int:
    spec = implementation(args)
    folder: Path | None = args.snapshot_dir
    if folder is None and spec.text != "reference":
        raise UsageError("--snapshot-dir DIR is required: where this implementation's message "
                         "snapshots live (a folder of your repository)")
    if folder is not None and folder.exists() and not folder.is_dir():
        raise UsageError(f"--snapshot-dir {folder} is not a directory")
    shown = folder or fixtures_dir() / "snapshots" / "reference"
    cause = preflight(spec)
    if cause is not None:
        print(f"agentconf snapshots: {spec.display_name} did not start and list its tools:\n"
              f"{cause}", file=sys.stderr)
        return 2
    with child.isolated_config() as config, tempfile.TemporaryDirectory(
            prefix="agentconf-snapshots-") as scratch:
        events, log = Path(scratch) / "events.jsonl", Path(scratch) / "pytest.log"
        arguments = [f"{suites_dir() / 'test_messages.py'}::test_message_snapshot", "-q", "-rN",
                     "--agentconf-events", str(events),
                     *child.impl_arguments(args.impl, args.profile), *MODES[args.action]]
        if args.workers is not None:
            arguments += ["-n", str(args.workers)]
        command = child.pytest_command(config, arguments)
        print(f"agentconf snapshots {args.action}: {spec.display_name}, snapshots in {shown}")
        status = child.run_pytest(command, child.pytest_env(folder, scratch=Path(scratch)), log)
        try:
            tests = read_events(events).tests
        except EventStreamError as error:
            print(f"agentconf snapshots: pytest exited with status {status} without results "
                  f"({error}); {runner.HARNESS_BUG}. Last lines of its output:\n"
                  f"{child.tail(log)}", file=sys.stderr)
            return 1
        return _summarise(args.action, tests, child.snapshot_report(log))


def _summarise(action: str, tests: list[TestEvent], counts: list[str]) -> int:
    changed = [t for t in tests if t.outcome is Outcome.MESSAGE_CHANGED]
    broken = [t for t in tests if t.outcome in (Outcome.FAIL, Outcome.ERROR,
                                                 Outcome.HARNESS_ERROR)]
    absent = [t for t in tests if t.outcome is Outcome.NA]
    missing = [t for t in changed if t.evidence.startswith("message not recorded")]
    for test in changed:
        if test not in missing:
            print(f"\nMESSAGE CHANGED {_scenario(test)}\n{test.evidence}")
    if missing:
        print(f"\n{len(missing)} message(s) not recorded: "
              + ", ".join(_scenario(test) for test in missing))
        print(missing[0].evidence.splitlines()[-1])  # the command that records them
    for test in broken:
        first = (test.evidence.strip().splitlines() or [""])[0]
        print(f"\nNOT {'RECORDED' if action != 'check' else 'CHECKED'} {_scenario(test)}: the "
              f"scenario ended in {test.outcome} ({first}); `agentconf run` reports it under "
              f"{', '.join(test.clauses)}")
    print()
    if counts:
        print(" ".join(counts))
    if absent:
        print(f"{len(absent)} scenario(s) n/a (the implementation lacks what they need)")
    if changed or broken:
        print(f"{len(changed)} message(s) differ from their snapshots, {len(broken)} scenario(s) "
              "could not be played")
        return 1
    print(f"{len(tests) - len(absent)} message(s) match their snapshots")
    return 0


def _scenario(test: TestEvent) -> str:
    return test.nodeid.rpartition("[")[2].rstrip("]") or test.nodeid
