"""Verdicts identical before and after a change that should not change them (a restructuring):
every check's outcome, per implementation, compared between two checkouts or against a saved
JSON file.

    python scripts/compare_verdicts.py save verdicts.json                 # this checkout
    python scripts/compare_verdicts.py save old.json --checkout ../main   # another checkout
    python scripts/compare_verdicts.py compare old.json verdicts.json     # exit 1 on a difference
    python scripts/compare_verdicts.py check old.json                     # save here, compare
    python scripts/compare_verdicts.py save old.json --from-report reference=reports/reference

Each spec is checked with `agentconf run --impl SPEC --report DIR` from the checkout itself
(its own `agentconf` package first on PYTHONPATH, so one venv serves both). What is compared,
per check (the event stream's `test` lines, keyed by node id): the outcome, the clauses it was
charged to, the clause it was found while checking, the golden case; per clause: the status of
conformance.json. Evidence is not compared (it names temporary folders and durations), but a
check whose n/a reason changed is reported apart, since the reason is what a reader sees.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]
# The reference, the plain-Python example and, when node is installed, the Node example.
DEFAULT_SPECS = ("reference", "examples/plain-python/agentconf.toml")
NODE_SPEC = "peers/examples-node/agentconf.toml"
RUN_BOUND_S = 3600

Verdicts = dict[str, dict[str, Any]]  # spec -> {"checks": {nodeid: ...}, "clauses": {id: status}}


def default_specs() -> list[str]:
    return [*DEFAULT_SPECS, *([NODE_SPEC] if shutil.which("node") else [])]


def read_report(report: Path) -> dict[str, Any]:
    """One run's verdicts from its report folder (events.jsonl and conformance.json)."""
    checks: dict[str, dict[str, Any]] = {}
    for line in (report / "events.jsonl").read_text("utf-8").splitlines():
        event = json.loads(line)
        if event.get("event") != "test":
            continue
        checks[event["nodeid"]] = {
            "outcome": event["outcome"],
            "clauses": event.get("clauses", []),
            "found_while": event.get("found_while"),
            "case": event.get("case"),
            "na_reason": event.get("evidence", "") if event["outcome"] == "n/a" else None,
        }
    document = json.loads((report / "conformance.json").read_text("utf-8"))
    clauses = {clause["id"]: clause["status"] for clause in document["clauses"]}
    return {"checks": checks, "clauses": clauses, "verdict": document["verdict"]}


def from_reports(pairs: list[str], out: Path) -> None:
    """Save the verdicts of runs already made (SPEC=REPORT_DIR each), e.g. a checkout's CI."""
    verdicts = {}
    for pair in pairs:
        spec, _, folder = pair.partition("=")
        verdicts[spec] = read_report(Path(folder))
    out.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n", "utf-8")


def run_spec(checkout: Path, spec: str, workers: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(checkout), *filter(None, [os.environ.get("PYTHONPATH")])])}
    with tempfile.TemporaryDirectory(prefix="agentconf-verdicts-") as scratch:
        report = Path(scratch) / "report"
        done = subprocess.run(
            [sys.executable, "-m", "agentconf", "run", "--impl", spec, "-n", str(workers),
             "--report", str(report)],
            cwd=checkout, env=env, capture_output=True, text=True, timeout=RUN_BOUND_S,
            check=False)
        if not (report / "events.jsonl").exists():
            raise SystemExit(f"{spec}: no report ({done.returncode}):\n{done.stderr[-2000:]}")
        return read_report(report)


def save(checkout: Path, specs: list[str], out: Path, workers: int) -> Verdicts:
    verdicts = {}
    for spec in specs:
        print(f"running {spec} in {checkout} ...", file=sys.stderr)
        verdicts[spec] = run_spec(checkout, spec, workers)
    out.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n", "utf-8")
    return verdicts


def differences(before: Verdicts, after: Verdicts) -> tuple[list[str], list[str]]:
    """(verdict differences, n/a reasons that changed wording only)."""
    found: list[str] = []
    reasons: list[str] = []
    for spec in sorted(set(before) | set(after)):
        if spec not in before or spec not in after:
            found.append(f"{spec}: only in {'after' if spec not in before else 'before'}")
            continue
        old, new = before[spec]["checks"], after[spec]["checks"]
        for nodeid in sorted(set(old) | set(new)):
            if nodeid not in old or nodeid not in new:
                found.append(f"{spec}: {nodeid} only {'after' if nodeid not in old else 'before'}")
                continue
            judged = ("outcome", "clauses", "found_while", "case")
            changed = [key for key in judged if old[nodeid][key] != new[nodeid][key]]
            if changed:
                found.append(f"{spec}: {nodeid}: " + "; ".join(
                    f"{key} {old[nodeid][key]!r} -> {new[nodeid][key]!r}" for key in changed))
            elif old[nodeid]["na_reason"] != new[nodeid]["na_reason"]:
                reasons.append(f"{spec}: {nodeid}: {old[nodeid]['na_reason']!r} -> "
                               f"{new[nodeid]['na_reason']!r}")
        for clause, status in sorted(before[spec]["clauses"].items()):
            if after[spec]["clauses"].get(clause) != status:
                found.append(f"{spec}: clause {clause}: {status} -> "
                             f"{after[spec]['clauses'].get(clause)}")
    return found, reasons


def compare(before: Verdicts, after: Verdicts) -> int:
    found, reasons = differences(before, after)
    for spec in sorted(set(before) & set(after)):
        print(f"{spec}: {len(after[spec]['checks'])} checks, {len(after[spec]['clauses'])} "
              f"clauses, green {after[spec]['verdict'].get('green')}")
    for line in reasons:
        print(f"n/a reason reworded: {line}")
    for line in found:
        print(f"DIFFERENT: {line}")
    print("identical verdicts" if not found else f"{len(found)} difference(s)")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("save", "check"):
        command = sub.add_parser(name)
        command.add_argument("file", type=Path)
        command.add_argument("--checkout", type=Path, default=REPOSITORY)
        command.add_argument("--spec", action="append", help="default: " + ", ".join(
            default_specs()))
        command.add_argument("-n", type=int, default=1, help="workers per run")
        command.add_argument("--out", type=Path, help="check: where to save this run")
        command.add_argument("--from-report", action="append", metavar="SPEC=DIR",
                             help="save: read runs already made instead of running")
    both = sub.add_parser("compare")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    reports = sub.add_parser("reports", help="compare two report folders of one spec")
    reports.add_argument("before", type=Path)
    reports.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "compare":
        return compare(json.loads(args.before.read_text("utf-8")),
                       json.loads(args.after.read_text("utf-8")))
    if args.command == "reports":
        return compare({"report": read_report(args.before)}, {"report": read_report(args.after)})
    specs = args.spec or default_specs()
    if args.command == "save" and args.from_report:
        from_reports(args.from_report, args.file)
        return 0
    if args.command == "save":
        save(args.checkout.resolve(), specs, args.file, args.n)
        return 0
    before = json.loads(args.file.read_text("utf-8"))
    out = args.out or Path(tempfile.mkdtemp(prefix="agentconf-verdicts-")) / "after.json"
    after = save(args.checkout.resolve(), [spec for spec in specs if spec in before], out, args.n)
    print(f"this run saved in {out}", file=sys.stderr)
    return compare(before, after)


if __name__ == "__main__":
    raise SystemExit(main())
