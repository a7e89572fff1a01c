"""Playing a learner: `learn new`, then, lesson by lesson, `learn` before and after the lesson's
solution is put in. A solution is tests/learn/solutions/<lesson>/: files to copy over the project
(`mytools/...`), and `from-plain.txt`, names of files taken as they are from
examples/plain-python/plain/, the stdlib-only implementation the course ends at."""

import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = Path(__file__).resolve().parent / "solutions"
PLAIN = REPO / "examples" / "plain-python" / "plain"
FROM_PLAIN = "from-plain.txt"
PACKAGE = "mytools"
LEARN_BOUND_S = 900  # only catches a hang; a lesson takes seconds to a minute


@dataclass(frozen=True)
class Attempt:
    lesson: str
    status: int
    output: str
    current_after: str  # learn.toml's `current` once the command ended
    passed_after: tuple[str, ...]


def agentconf(*words: str, cwd: Path,
              timeout: float = LEARN_BOUND_S) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "agentconf", *words], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def apply_solution(project: Path, lesson: str) -> list[str]:
    """Puts the lesson's solution into the project; the files it changed, relative."""
    folder = SOLUTIONS / lesson
    changed = []
    listed = folder / FROM_PLAIN
    if listed.is_file():
        for name in listed.read_text("utf-8").split():
            shutil.copyfile(PLAIN / name, project / PACKAGE / name)
            changed.append(f"{PACKAGE}/{name}")
    for source in sorted(folder.rglob("*")):
        if source.is_file() and source.name != FROM_PLAIN:
            relative = source.relative_to(folder)
            (project / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, project / relative)
            changed.append(relative.as_posix())
    return changed


def attempt(project: Path, lesson: str) -> Attempt:
    done = agentconf("learn", "--dir", str(project), cwd=project.parent)
    plan = tomllib.loads((project / "learn.toml").read_text("utf-8"))
    return Attempt(lesson, done.returncode, done.stdout + done.stderr, str(plan["current"]),
                   tuple(plan["passed"]))
