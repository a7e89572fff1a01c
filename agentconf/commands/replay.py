"""`agentconf replay`: re-run one check alone, as a failure's reproduce line says, and show it so
it reads in ten seconds: the calls (request, answer, what changed on the disk), what was expected,
then the clause. pytest's own report is kept in a log beside it, or shown with --tb (the kit's
frames hidden, as pytest hides its own; --fulltrace shows them)."""

import argparse
import json
import os
import sys
from pathlib import Path

from agentconf.cli import UsageError, implementation
from agentconf.contract import CLAUSES
from agentconf.harness.report.events import EventStreamError, TestEvent, read_events
from agentconf.harness.report.visible import visible
from agentconf.harness.resources import suites_dir
from agentconf.harness.run import child
from agentconf.harness.run.replay_calls import CALLS_VARIABLE

HELP = ("re-run one check alone and show its calls, the disk and the clause (a failure's "
        "reproduce line); its calls and pytest's log are kept in ./reports/replay/")
FOLDER = Path("reports") / "replay"  # under the current folder, like a run's reports
TB_STYLES = ("auto", "long", "short", "line", "native", "no")
SHOWN_CALLS = 6
SHOWN_FIELD_CHARS = 400
SHOWN_EVIDENCE_LINES = 14
_CALL_LINES = ("request:", "response:", "sent as:", "note:")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("nodeid", metavar="NODEID",
                        help="the check, as in reports: "
                             "suites/confine/test_confine.py::test_name[case]")
    parser.add_argument("--impl", metavar="SPEC", help="the implementation (default: reference)")
    parser.add_argument("--profile", metavar="FILE", help="the implementation's agentconf.toml")
    parser.add_argument("--hypothesis-seed", metavar="SEED",
                        help="the seed a property check failed with")
    parser.add_argument("--hypothesis-profile", choices=("ci", "deep"), default="ci")
    parser.add_argument("--snapshot-dir", metavar="DIR", type=Path,
                        help="where this implementation's message snapshots live")
    parser.add_argument("--tb", choices=TB_STYLES,
                        help="also show pytest's report of the failure in this style")
    parser.add_argument("--fulltrace", action="store_true",
                        help="with --tb: keep the kit's own frames in the traceback")


def resolve_nodeid(nodeid: str, suites: Path) -> str:
    """The node id with its file made absolute; the file must be one of the suites."""
    file_part, sep, rest = nodeid.partition("::")
    candidates = [suites.parent / file_part, suites / file_part]
    # A report written before the suites had a folder per category names a module by its file
    # alone (suites/test_edit.py): module names are unique across the folders.
    candidates += sorted(suites.glob(f"*/{Path(file_part).name}"))
    for path in candidates:
        if path.is_file() and path.resolve().is_relative_to(suites.resolve()):
            return f"{path.resolve()}{sep}{rest}"
    raise UsageError(f"no suite file {file_part!r}; node ids look like "
                     "suites/confine/test_confine.py::test_name (see a report's reproduce "
                     "line)")


def _tests(events: Path) -> tuple[list[TestEvent], str | None]:
    """The checks replayed, and where a failing one's sandbox is kept (None when removed)."""
    try:
        log = read_events(events)
    except EventStreamError:
        return [], None
    kept = (log.end or {}).get("sandboxes")
    return log.tests, kept if isinstance(kept, str) and os.path.isdir(kept) else None


def run(args: argparse.Namespace) -> int:
    implementation(args)  # bad input is caught here, not deep inside pytest
    target = resolve_nodeid(args.nodeid, suites_dir())
    try:
        FOLDER.mkdir(parents=True, exist_ok=True)
        calls, log = FOLDER / "calls.jsonl", FOLDER / "pytest.log"
        calls.unlink(missing_ok=True)
    except OSError as error:
        raise UsageError(f"cannot write {FOLDER}: {error}") from None
    status, (tests, kept) = _replay(args, target, calls, log)
    # pytest: 0 passed, 1 failed, 4 usage error (say a node id naming no test), 5 nothing ran.
    if status in (4, 5) or not tests:
        print(f"agentconf replay: pytest found no check {args.nodeid!r} to run (its output: "
              f"{log})", file=sys.stderr)
        return 2
    for test in tests:
        print(visible(render(test, _calls(calls), args.impl or args.profile or "reference")))
    print(f"pytest's own report: {log} (this replay's calls: {calls})" + ("" if args.tb else
          " (or here: agentconf replay ... --tb short; every frame: --tb long --fulltrace)"))
    if kept is not None:
        print(f"its sandbox is kept in {kept} (pytest keeps its newest three runs' folders "
              "there; safe to delete)")
    if args.tb:
        print(visible(log.read_text("utf-8", "replace")), end="")
    return 0 if status == 0 else 1


def _replay(args: argparse.Namespace, target: str, calls: Path,
            log: Path) -> tuple[int | None, tuple[list[TestEvent], str | None]]:
    arguments = [target, "-vv", f"--tb={args.tb or 'short'}", "-p", "no:cacheprovider",
                 "--hypothesis-profile", args.hypothesis_profile,
                 *child.impl_arguments(args.impl, args.profile)]
    if args.fulltrace:
        arguments.append("--fulltrace")
    if args.hypothesis_seed is not None:
        arguments += ["--hypothesis-seed", args.hypothesis_seed]
    with child.isolated_config() as config:
        events = config.parent / "events.jsonl"
        command = child.pytest_command(config, [*arguments, "--agentconf-events", str(events)])
        env = {**child.pytest_env(args.snapshot_dir, scratch=config.parent),
               CALLS_VARIABLE: str(calls.resolve())}
        status = child.run_pytest(command, env, log)
        return status, _tests(events)


def _calls(path: Path) -> list[dict[str, object]]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError:
        return []
    return [json.loads(line) for line in lines if line.strip()]


def render(test: TestEvent, calls: list[dict[str, object]], checked: str) -> str:
    """What a person reads first: the verdict, the calls, what was expected, then the clause."""
    charged = ", ".join(test.clauses)
    found = f" (found while checking {test.found_while})" if test.found_while else ""
    lines = [f"agentconf replay: {test.outcome.upper()} {charged}{found}",
             f"  check: {test.nodeid}", f"  implementation: {checked}", ""]
    if calls:
        earlier = len(calls) - SHOWN_CALLS
        shown = f"the last {SHOWN_CALLS} of {len(calls)}" if earlier > 0 else str(len(calls))
        lines.append(f"The calls ({shown}):")
        for number, call in enumerate(calls[-SHOWN_CALLS:], start=max(earlier, 0) + 1):
            lines += _call(number, call)
        lines.append("")
    expected = _expected(test.evidence)
    if expected:
        lines += ["What was expected, and what happened:" if test.outcome != "n/a"
                  else "Why it is not applicable:", *(f"  {line}" for line in expected), ""]
    for clause_id in test.clauses:
        clause = CLAUSES.get(clause_id)
        if clause is not None:
            lines += [f"The clause: {clause.id} ({clause.level.value}) {clause.requirement}",
                      f"  why, and what checks it: agentconf explain {clause.id}"]
    return "\n".join(lines)


def _call(number: int, call: dict[str, object]) -> list[str]:
    arguments = json.dumps(call.get("arguments"), ensure_ascii=False, default=repr)
    answer = call.get("answer")
    answer_text = answer if isinstance(answer, str) else json.dumps(
        answer, ensure_ascii=False, sort_keys=True, default=repr)
    changes = call.get("disk") or []
    disk = "; ".join(str(change) for change in changes) if isinstance(changes, list) and \
        changes else "no change"
    return [f"  {number}. {call.get('tool')} {_cut(arguments)}",
            f"     answer: {_cut(answer_text)}", f"     disk:   {_cut(disk)}"]


def _expected(evidence: str) -> list[str]:
    """The evidence without what the calls above already show: the assertion, the mismatch."""
    lines = [line for line in evidence.strip().splitlines()
             if line.strip() and not line.strip().startswith(_CALL_LINES)
             and "::" not in line.split(" ", 1)[0]]
    if len(lines) > SHOWN_EVIDENCE_LINES:
        lines = [*lines[:SHOWN_EVIDENCE_LINES], f"…[{len(lines) - SHOWN_EVIDENCE_LINES} more "
                 "lines: the report or --tb long]"]
    return [_cut(line) for line in lines]


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_FIELD_CHARS else (
        f"{text[:SHOWN_FIELD_CHARS]} …[{len(text) - SHOWN_FIELD_CHARS} chars]")
