"""Checks the mutant gallery both ways and compares every check's outcome.

The old way is one `agentconf run --impl <mutant> --clauses <its clauses>` per mutant (what
`agentconf selftest` did before the gallery session); the new way is one pytest session for every
mutant (agentconf/selfcheck/gallery_session.py). For each mutant, the set of (check, outcome)
pairs and the clause statuses must be the same. Slow (the old way is about 3 s of CPU per mutant):

    .venv/bin/python scripts/compare_gallery.py [-j 2] [--only NAME,NAME]

Exit 0 when every mutant agrees, 1 when one differs (each difference printed), 2 on bad input.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from agentconf.selfcheck.gallery_plugin import target_of
from agentconf.selfcheck.mutants import check_entries, gallery

_PARAM = re.compile(r"-?gallery=\w+-?")


def plain_id(nodeid: str) -> str:
    """A session check's id without its gallery parameter: the id `agentconf run` gives it."""
    stripped = _PARAM.sub(lambda m: "-" if m.group(0).startswith("-") and
                          m.group(0).endswith("-") else "", nodeid)
    return stripped.replace("[]", "")


def outcomes(events: Path, keep: Any = None) -> set[tuple[str, str]]:
    found = set()
    for line in events.read_text("utf-8").splitlines():
        record = json.loads(line)
        if record.get("event") == "test" and (keep is None or keep(record["nodeid"])):
            found.add((plain_id(record["nodeid"]), record["outcome"]))
    return found


def old_way(entry: Any, folder: Path) -> tuple[set[tuple[str, str]], dict[str, str]]:
    env = dict(os.environ)
    if entry.call_timeout_s is not None:
        env["AGENTCONF_TIMEOUT"] = str(entry.call_timeout_s)
    subprocess.run([sys.executable, "-m", "agentconf", "run", "--impl", entry.spec(),
                    "--clauses", ",".join(entry.kills), "--report", str(folder)],
                   env=env, capture_output=True, stdin=subprocess.DEVNULL, check=False)
    report = json.loads((folder / "conformance.json").read_text("utf-8"))
    statuses = {c["id"]: c["status"] for c in report["clauses"] if c["id"] in entry.kills}
    return outcomes(folder / "events.jsonl"), statuses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated mutant names")
    args = parser.parse_args()
    entries = gallery().entries()
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {e.name for e in entries}
        if unknown:
            print(f"compare_gallery: unknown mutant(s) {', '.join(sorted(unknown))}",
                  file=sys.stderr)
            return 2
        entries = [e for e in entries if e.name in wanted]
    with tempfile.TemporaryDirectory(prefix="agentconf-compare-gallery-") as scratch:
        root = Path(scratch)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            old = dict(zip([e.name for e in entries],
                           pool.map(lambda e: old_way(e, root / "old" / e.name), entries),
                           strict=True))
        new = {v.mutant: v for v in check_entries(entries, args.jobs, root / "new")}
        differ = 0
        for entry in entries:
            mine = outcomes(root / "new" / "events.jsonl",
                            lambda nodeid, name=entry.name: target_of(nodeid) == name)
            checks, statuses = old[entry.name]
            if checks != mine or statuses != new[entry.name].statuses:
                differ += 1
                print(f"DIFFERS {entry.name}: statuses old {statuses} new "
                      f"{new[entry.name].statuses}")
                for nodeid, outcome in sorted(checks - mine):
                    print(f"  only old: {outcome:<6} {nodeid}")
                for nodeid, outcome in sorted(mine - checks):
                    print(f"  only new: {outcome:<6} {nodeid}")
        total = sum(len(old[e.name][0]) for e in entries)
        print(f"{len(entries) - differ} of {len(entries)} mutants agree on every check "
              f"({total} checks the old way)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
