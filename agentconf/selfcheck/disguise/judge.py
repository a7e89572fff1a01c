"""A disguise drafted and judged as a new user would: the raw `agentconf init --from` of the
disguised server (nothing edited), then `agentconf run` of that draft; and the reference judged
the same way, for comparison. Each is a child process working in a folder the caller owns."""

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .model import Disguise

# Only catches a hang: a draft takes seconds, a whole run of a disguise tens of minutes.
DRAFT_BOUND_S = 600
RUN_BOUND_S = 7200
_EVIDENCE_LINES = 3


@dataclass(frozen=True)
class Verdict:
    status: str
    evidence: str  # the first check that came to this status: its evidence's first lines


@dataclass(frozen=True)
class Mutant:
    """A mutant of the gallery to serve disguised: `mutants.<module>:<name>` under `gallery`."""

    target: str
    gallery: Path


def server_command(disguise_file: Path, mutant: Mutant | None = None) -> str:
    """The disguised server's command line, `{root}` left for the kit to fill."""
    words = [sys.executable, "-m", "agentconf.selfcheck.disguise", "--disguise",
             str(disguise_file)]
    if mutant is not None:
        words += ["--mutant", mutant.target, "--gallery", str(mutant.gallery)]
    return " ".join(shlex.quote(word) for word in words) + " {root}"


def draft(folder: Path, disguise: Disguise, mutant: Mutant | None = None) -> Path:
    """Writes the disguise and the raw draft of its server into `folder`; the draft's path."""
    disguise_file = folder / "disguise.json"
    disguise_file.write_text(disguise.model_dump_json(indent=1), "utf-8")
    spec = "mcp:" + server_command(disguise_file, mutant)
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "init", "--from", spec, str(folder)],
        cwd=folder, capture_output=True, text=True, timeout=DRAFT_BOUND_S, check=False,
        stdin=subprocess.DEVNULL)
    (folder / "draft-console.txt").write_text(done.stdout + done.stderr, "utf-8")
    profile = folder / "agentconf.toml"
    if done.returncode != 0 or not profile.is_file():
        raise RuntimeError(f"init --from failed ({done.returncode}): {done.stderr[-2000:]}")
    return profile


def judge(impl: str, report: Path, clauses: str | None = None, jobs: int = 2
          ) -> dict[str, Verdict]:
    """`agentconf run --impl IMPL -n JOBS [--clauses CLAUSES] --report REPORT`: each clause's
    verdict (the console is kept beside the report; a red run is a verdict, not an error)."""
    selection = ["--clauses", clauses] if clauses else []
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", impl, "-n", str(jobs),
         "--report", str(report), *selection],
        cwd=report.parent, capture_output=True, text=True, timeout=RUN_BOUND_S, check=False,
        stdin=subprocess.DEVNULL)
    (report.parent / f"{report.name}-console.txt").write_text(done.stdout + done.stderr, "utf-8")
    if not (report / "conformance.json").is_file():
        raise RuntimeError(f"agentconf run wrote no report ({done.returncode}): "
                           f"{(done.stdout + done.stderr)[-2000:]}")
    return read_verdicts(report / "conformance.json")


def read_verdicts(conformance: Path) -> dict[str, Verdict]:
    document = json.loads(conformance.read_text("utf-8"))
    return {clause["id"]: Verdict(clause["status"], _evidence(clause))
            for clause in document["clauses"]}


def _evidence(clause: dict[str, object]) -> str:
    tests = clause.get("tests")
    for test in tests if isinstance(tests, list) else []:
        if test.get("outcome") == clause["status"] and test.get("evidence"):
            lines = str(test["evidence"]).strip().splitlines()[:_EVIDENCE_LINES]
            return f"{test.get('nodeid')}: " + " | ".join(lines)
    return ""
