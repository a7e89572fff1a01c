"""First runs by kind of implementation: what a user feels the first time (issue 46).

Each shape is drafted with `agentconf init --from`, nothing edited, and run with `-n 2` on the
draft, as a new user does; its wall is set beside the reference's `-n 2` run of the same
moment. The shapes are small programs in benchmarks/shapes/ (the reference's tools, so every
verdict is the reference's and only the cost of a start differs) and the first real peer (a
Node MCP server), when installed:

- a Node MCP server without state (server-filesystem, peers/);
- a Python MCP server with a read guard, 0.5 s of CPU before it answers (stateful);
- a Python MCP server without state, 1 s of CPU before it answers;
- an in-process tool system whose factory spends 0.5 s of CPU.

A start is counted from the kit's own account (conformance.json `run.server_starts`): its count
and seconds, set against the checks' own time (the sum of their durations, as the console does).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

PYTHON = sys.executable
SHAPES = Path(__file__).resolve().parent / "shapes"
# The goals the issue sets for every row.
STARTS_SHARE = 0.25
OVER_REFERENCE = 2.0


@dataclass
class FirstRun:
    label: str
    draft_s: float
    wall_s: float
    cpu_s: float
    executed: int
    starts: int
    start_s: float
    checks_s: float
    finished: bool
    note: str = ""

    @property
    def share(self) -> float:
        return self.start_s / self.checks_s if self.checks_s else 0.0


def shapes(peer_cache: Path) -> list[tuple[str, str]]:
    """(label, init --from spec) for every shape this machine can run."""
    found = [
        ("a Python MCP server with a read guard",
         f"mcp:{PYTHON} {SHAPES / 'slow_start_mcp.py'} {{root}} --guard"),
        ("a slow-to-start Python MCP server without state",
         f"mcp:{PYTHON} {SHAPES / 'slow_start_mcp.py'} {{root}}"),
        ("an in-process tool system with a slow factory", "python:slow_factory:create"),
    ]
    server = peer_cache / "server-filesystem" / "node_modules" / ".bin" / "mcp-server-filesystem"
    if server.exists():
        found.insert(0, ("a Node MCP server (server-filesystem)", f"mcp:{server} {{root}}"))
    return found


def _environment() -> dict[str, str]:
    """benchmarks/shapes on the import path, for python:slow_factory:create."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SHAPES), env.get("PYTHONPATH")]))
    return env


def _timed(command: list[str], cwd: Path) -> tuple[float, float, subprocess.CompletedProcess]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=_environment(), capture_output=True, text=True,
                          check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def first_run(label: str, spec: str, folder: Path, workers: int = 2,
              clauses: str | None = None) -> FirstRun:
    """`init --from SPEC`, then `run -n WORKERS` on the raw draft (`clauses`: a few, to try it)."""
    project = folder / label.replace(" ", "-").strip("()")
    project.mkdir(parents=True, exist_ok=True)
    draft_s, _, drafted = _timed([PYTHON, "-m", "agentconf", "init", "--from", spec, "."],
                                 project)
    profile = project / "agentconf.toml"
    if drafted.returncode != 0 or not profile.is_file():
        tail = (drafted.stderr.strip().splitlines() or ["no message"])[-1]
        return FirstRun(label, draft_s, 0, 0, 0, 0, 0, 0, False, f"the draft failed: {tail}")
    report = project / "report"
    wall, cpu, done = _timed([PYTHON, "-m", "agentconf", "run", "-n", str(workers), "--impl",
                              str(profile), "--report", str(report),
                              *(["--clauses", clauses] if clauses else [])], project)
    document_path = report / "conformance.json"
    if not document_path.is_file():
        tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return FirstRun(label, draft_s, wall, cpu, 0, 0, 0, 0, False, f"no report: {tail}")
    document = json.loads(document_path.read_text("utf-8"))
    starts = document["run"].get("server_starts") or {}
    checks = {test["nodeid"]: test["duration"] or 0.0
              for clause in document["clauses"] for test in clause["tests"]}
    return FirstRun(label, draft_s, wall, cpu, document["summary"]["executed"],
                    int(starts.get("count", 0)), float(starts.get("seconds", 0.0)),
                    sum(checks.values()), True)
