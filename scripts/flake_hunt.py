"""Runs the whole conformance run N times per implementation on a loaded machine and lists every
check whose outcome changed between runs (issue: verdicts you can trust; "no check is flaky").

    python scripts/flake_hunt.py                 # N=10: the reference, examples/node, plain-python
    python scripts/flake_hunt.py -n 3 --impl reference
    scripts/flake-hunt.sh 10                     # the same, from a shell

The load: `stress-ng --cpu N` when it is installed (Debian: apt-get install stress-ng), else one
CPU-burning child per core. Every run writes its report under a temporary folder that is removed
at the end; the summary goes to stdout and, with --out, to a file. Exit 1 when a check flaked.
"""

import argparse
import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
IMPLEMENTATIONS = {
    "reference": "reference",
    "examples/node": f"cmd:{NODE} {REPO / 'examples/node/agentconf-tools.mjs'} {{root}}",
    # The independent correct-but-different implementation, through its own profile.
    "plain-python": str(REPO / "examples/plain-python/agentconf.toml"),
}


def _burn() -> None:
    while True:
        pass


@contextlib.contextmanager
def loaded(enabled: bool) -> Iterator[str]:
    """The machine kept busy on every core while the block runs; yields what loads it."""
    if not enabled:
        yield "none"
        return
    cores = os.cpu_count() or 2
    stress = shutil.which("stress-ng")
    if stress:
        process = subprocess.Popen([stress, "--cpu", str(cores), "--quiet"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        try:
            yield f"stress-ng --cpu {cores}"
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        return
    burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(cores)]
    for burner in burners:
        burner.start()
    try:
        yield f"{cores} CPU-burning children"
    finally:
        for burner in burners:
            burner.kill()
            burner.join()


def one_run(spec: str, report: Path) -> dict[str, str]:
    """nodeid -> outcome of one full `agentconf run` (the exit status is not the point here)."""
    subprocess.run([sys.executable, "-m", "agentconf", "run", "--impl", spec, "--report",
                    str(report)], cwd=report.parent, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    events = report / "events.jsonl"
    if not events.is_file():
        return {"<run>": "no events written"}
    outcomes = {}
    for line in events.read_text("utf-8").splitlines():
        record = json.loads(line)
        if record.get("event") == "test":
            outcomes[record["nodeid"]] = record["outcome"]
    return outcomes


def hunt(name: str, spec: str, runs: int, scratch: Path) -> tuple[list[str], float]:
    """Lines describing each check whose outcome was not the same in every run."""
    seen: dict[str, list[str]] = defaultdict(list)
    started = time.monotonic()
    for index in range(runs):
        folder = scratch / f"{name.replace('/', '-')}-{index}"
        folder.mkdir()
        outcomes = one_run(spec, folder / "report")
        for nodeid in set(seen) | set(outcomes):
            seen[nodeid].append(outcomes.get(nodeid, "missing"))
        print(f"  {name}: run {index + 1}/{runs}: {len(outcomes)} checks", flush=True)
    flaky = [f"{nodeid}: {' '.join(history)}" for nodeid, history in sorted(seen.items())
             if len(set(history)) > 1]
    return flaky, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=10)
    parser.add_argument("--impl", action="append", choices=sorted(IMPLEMENTATIONS),
                        help="which implementations (default: all)")
    parser.add_argument("--no-load", action="store_true", help="do not load the machine")
    parser.add_argument("--out", type=Path, help="also write the summary here")
    args = parser.parse_args()
    if args.runs < 2:
        parser.error("--runs must be at least 2 to compare anything")
    chosen = args.impl or sorted(IMPLEMENTATIONS)
    if "examples/node" in chosen and NODE is None:
        parser.error("examples/node needs node on PATH (or pass --impl reference)")
    lines, flaked = [], False
    with tempfile.TemporaryDirectory(prefix="agentconf-flake-hunt-") as scratch, \
            loaded(not args.no_load) as load:
        lines.append(f"flake hunt: {args.runs} runs each, load: {load}")
        for name in chosen:
            flaky, seconds = hunt(name, IMPLEMENTATIONS[name], args.runs, Path(scratch))
            lines.append(f"{name}: {len(flaky)} check(s) changed outcome over {args.runs} runs "
                         f"({seconds:.0f} s)")
            lines += [f"  {line}" for line in flaky]
            flaked = flaked or bool(flaky)
    summary = "\n".join(lines) + "\n"
    print(summary, end="")
    if args.out:
        args.out.write_text(summary, "utf-8")
    return 1 if flaked else 0


if __name__ == "__main__":
    sys.exit(main())
