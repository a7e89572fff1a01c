#!/usr/bin/env python3
"""Regenerate the conformance matrix into a scratch folder and compare its verdicts, cell by
cell, with the committed docs/matrix/matrix.json: the matrix is only worth citing if a second
run says the same.

    .venv/bin/python scripts/matrix_twice.py [-n 2] [--only IDS]

Exit 0 when every (implementation, clause) status is the same, 1 otherwise (the differing cells
are listed), 2 on bad input.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from agentconf.harness.report.matrix import verdicts

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", default="2")
    parser.add_argument("--only", help="comma-separated peer ids (default: every kept one)")
    args = parser.parse_args()
    committed_path = REPO / "docs" / "matrix" / "matrix.json"
    if not committed_path.is_file():
        print(f"matrix_twice: {committed_path} does not exist; run agentconf matrix first",
              file=sys.stderr)
        return 2
    committed = json.loads(committed_path.read_text("utf-8"))
    ids = args.only or ",".join(entry["id"] for entry in committed["implementations"])
    # Kept when a cell differs: the second run's reports (conformance.json, report.html) are
    # what tells a flaky check from a kit bug.
    scratch = tempfile.mkdtemp(prefix="agentconf-matrix-twice-")
    subprocess.run([sys.executable, "-m", "agentconf", "matrix", "--rerun", "--only", ids,
                    "-n", args.n, "--out", scratch], cwd=REPO, check=False)
    again = json.loads((Path(scratch) / "matrix.json").read_text("utf-8"))
    first, second = verdicts(committed), verdicts(again)
    wanted = set(ids.split(","))
    first = {key: value for key, value in first.items() if key[0] in wanted}
    differing = sorted(key for key in first.keys() | second.keys()
                       if first.get(key) != second.get(key))
    for implementation, clause in differing:
        print(f"{implementation} {clause}: {first.get((implementation, clause))} then "
              f"{second.get((implementation, clause))}")
    print(f"matrix_twice: {len(first)} cells compared, {len(differing)} differ")
    if differing:
        print(f"matrix_twice: the second run's reports are kept in {scratch}")
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
