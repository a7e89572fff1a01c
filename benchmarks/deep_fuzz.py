"""The deep fuzz job: CONFINE and SYMLINK against an implementation with hypothesis's `deep`
profile, then how many hostile paths were tried and whether any escaped.

    .venv/bin/python benchmarks/deep_fuzz.py [--impl SPEC] [--clauses CONFINE,SYMLINK] [-n 2]

It is `agentconf run --clauses CONFINE,SYMLINK --hypothesis-profile deep` plus a summary of the
run's event stream: each test event carries `calls` (requests sent to the implementation) and
`paths` (those that carried a path), counted by the harness's client. Not part of the default CI
path: it takes minutes. Exit status: 0 when no check failed or errored.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", default="reference")
    parser.add_argument("--clauses", default="CONFINE,SYMLINK")
    parser.add_argument("-n", dest="workers", default=None)
    parser.add_argument("--report", type=Path, default=None,
                        help="where the run's reports go (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agentconf-deep-") as temporary:
        report = args.report or Path(temporary) / "report"
        command = [sys.executable, "-m", "agentconf", "run", "--impl", args.impl,
                   "--clauses", args.clauses, "--hypothesis-profile", "deep",
                   "--report", str(report)]
        if args.workers:
            command += ["-n", args.workers]
        print("$", " ".join(command), flush=True)
        status = subprocess.run(command, check=False).returncode
        events = report / "events.jsonl"
        if not events.exists():
            print("deep fuzz: the run wrote no event stream", file=sys.stderr)
            return 1
        tests = [record for record in map(json.loads, events.read_text().splitlines())
                 if record.get("event") == "test"]
    outcomes: dict[str, int] = {}
    for test in tests:
        outcomes[test["outcome"]] = outcomes.get(test["outcome"], 0) + 1
    calls = sum(test.get("calls", 0) for test in tests)
    paths = sum(test.get("paths", 0) for test in tests)
    escapes = [test for test in tests if "escape after" in (test.get("evidence") or "")]
    print(f"\ndeep fuzz of {args.clauses} against {args.impl}: {len(tests)} tests, "
          f"{calls} calls, {paths} of them with a hostile or plain path; "
          f"outcomes {json.dumps(outcomes, sort_keys=True)}; escapes found: {len(escapes)}")
    for test in escapes[:5]:
        print(f"- {test['nodeid']}: {test['evidence'][:300]}")
    bad = outcomes.get("fail", 0) + outcomes.get("error", 0) + outcomes.get("harness-error", 0)
    return 0 if bad == 0 and status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
