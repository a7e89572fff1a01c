"""`agentconf replay`: re-run one check alone and verbosely, as a failure's reproduce line says."""

import argparse
import subprocess
import sys
from pathlib import Path

from agentconf.cli import UsageError, implementation
from agentconf.harness.report.events import EventStreamError, TestEvent, read_events
from agentconf.harness.resources import suites_dir
from agentconf.harness.run import child

HELP = "re-run one check alone, verbosely (the command a failure's 'reproduce' line gives)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("nodeid", metavar="NODEID",
                        help="the check, as in reports: suites/test_confine.py::test_name[case]")
    parser.add_argument("--impl", metavar="SPEC", help="the implementation (default: reference)")
    parser.add_argument("--profile", metavar="FILE", help="the implementation's agentconf.toml")
    parser.add_argument("--hypothesis-seed", metavar="SEED",
                        help="the seed a property check failed with")
    parser.add_argument("--hypothesis-profile", choices=("ci", "deep"), default="ci")
    parser.add_argument("--snapshot-dir", metavar="DIR", type=Path,
                        help="where this implementation's message snapshots live")


def resolve_nodeid(nodeid: str, suites: Path) -> str:
    """The node id with its file made absolute; the file must be one of the suites."""
    file_part, sep, rest = nodeid.partition("::")
    candidates = [suites.parent / file_part, suites / file_part]
    for path in candidates:
        if path.is_file() and path.resolve().is_relative_to(suites.resolve()):
            return f"{path.resolve()}{sep}{rest}"
    raise UsageError(f"no suite file {file_part!r}; node ids look like "
                     "suites/test_confine.py::test_name (see a report's reproduce line)")


def _tests(events: Path) -> list[TestEvent]:
    try:
        return read_events(events).tests
    except EventStreamError:
        return []


def run(args: argparse.Namespace) -> int:
    implementation(args)  # bad input is caught here, not deep inside pytest
    target = resolve_nodeid(args.nodeid, suites_dir())
    arguments = [target, "-vv", "--tb=long",
                 "--hypothesis-profile", args.hypothesis_profile,
                 *child.impl_arguments(args.impl, args.profile)]
    if args.hypothesis_seed is not None:
        arguments += ["--hypothesis-seed", args.hypothesis_seed]
    with child.isolated_config() as config:
        events = config.parent / "events.jsonl"
        command = child.pytest_command(config, [*arguments, "--agentconf-events", str(events)])
        env = child.pytest_env(args.snapshot_dir, scratch=config.parent)
        done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, check=False)
        # pytest says ERROR for anything raised outside the test body (an escape seen at the
        # end of the session, say); the verdict is the kit's outcome, as the report gave it.
        for test in _tests(events):
            charged = ", ".join(test.clauses)
            found = f" (found while checking {test.found_while})" if test.found_while else ""
            print(f"agentconf: {test.outcome.upper()} {charged}{found}: {test.nodeid}")
    # pytest: 0 passed, 1 failed, 4 usage error (say a node id naming no test), 5 nothing ran.
    if done.returncode in (4, 5):
        print(f"agentconf replay: pytest found no check {args.nodeid!r} to run", file=sys.stderr)
        return 2
    return 0 if done.returncode == 0 else 1
