"""A disguise drafted and judged as a new user would: the raw `agentconf init --from` of the
disguised server (nothing edited), then `agentconf run` of that draft; and the reference judged
the same way, for comparison. Each is a child process working in a folder the caller owns."""

import json
import shlex
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .dimensions import Disguise

# Only catches a hang: a draft takes seconds, a whole run of a disguise tens of minutes.
DRAFT_BOUND_S = 600
RUN_BOUND_S = 7200
_EVIDENCE_LINES = 3
# How long a child stopped with SIGINT gets to stop what it started and write its partial report
# (the kit honours SIGINT within seconds) before it is killed.
_STOP_GRACE_S = 60


@dataclass(frozen=True)
class Verdict:
    status: str
    evidence: str  # the first check that came to this status: its evidence's first lines


@dataclass(frozen=True)
class Mutant:
    """A mutant to serve disguised: MODULE:CLASS (the gallery's `Entry.target`), imported with
    `gallery`, when given, on sys.path."""

    target: str
    gallery: Path | None = None


def server_command(disguise_file: Path, mutant: Mutant | None = None) -> str:
    """The disguised server's command line, `{root}` left for the kit to fill."""
    words = [sys.executable, "-m", "agentconf.selfcheck.disguise", "--disguise",
             str(disguise_file)]
    if mutant is not None:
        words += ["--mutant", mutant.target]
        if mutant.gallery is not None:
            words += ["--gallery", str(mutant.gallery)]
    return " ".join(shlex.quote(word) for word in words) + " {root}"


def draft(folder: Path, disguise: Disguise, mutant: Mutant | None = None) -> Path:
    """Writes the disguise and the raw draft of its server into `folder`; the draft's path."""
    disguise_file = folder / "disguise.json"
    disguise_file.write_text(disguise.model_dump_json(indent=1), "utf-8")
    spec = "mcp:" + server_command(disguise_file, mutant)
    status, console = _child(
        [sys.executable, "-m", "agentconf", "init", "--from", spec, str(folder)], folder,
        DRAFT_BOUND_S)
    (folder / "draft-console.txt").write_text(console, "utf-8")
    profile = folder / "agentconf.toml"
    if status != 0 or not profile.is_file():
        raise RuntimeError(f"init --from failed ({status}): {console[-2000:]}")
    return profile


def judge(impl: str, report: Path, clauses: str | None = None, jobs: int = 2
          ) -> dict[str, Verdict]:
    """`agentconf run --impl IMPL -n JOBS [--clauses CLAUSES] --report REPORT`: each clause's
    verdict (the console is kept beside the report; a red run is a verdict, not an error)."""
    selection = ["--clauses", clauses] if clauses else []
    status, console = _child(
        [sys.executable, "-m", "agentconf", "run", "--impl", impl, "-n", str(jobs),
         "--report", str(report), *selection], report.parent, RUN_BOUND_S)
    (report.parent / f"{report.name}-console.txt").write_text(console, "utf-8")
    if not (report / "conformance.json").is_file():
        raise RuntimeError(f"agentconf run wrote no report ({status}): {console[-2000:]}")
    return read_verdicts(report / "conformance.json")


def _child(command: list[str], cwd: Path, bound_s: float) -> tuple[int, str]:
    """(exit status, stdout + stderr) of a kit command. Interrupted (Ctrl-C, a bound, an error
    of the caller), the child is asked to stop with SIGINT so that it stops its own servers and
    sandboxes, and killed only if it has not after a grace period."""
    child = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        console, _ = child.communicate(timeout=bound_s)
    except BaseException:
        child.send_signal(signal.SIGINT)
        try:
            child.communicate(timeout=_STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
        raise
    return child.returncode, console


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
