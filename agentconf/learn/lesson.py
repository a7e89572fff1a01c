"""Running one lesson: its clauses only, with the suites, as `agentconf run --clauses` does, and
the verdict a lesson gets: passed when every clause passes, or is n/a with its reason shown."""

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.harness.profile.model import ProfileError
from agentconf.harness.run import runner
from agentconf.harness.target.spec import SpecError, resolve

from .course import Lesson
from .project import Plan, ProjectError

REPORT = Path("reports") / "learn"  # under the project folder: a folder per lesson, lesson.md
PASSING = ("pass",)
NOT_APPLICABLE = ("n/a",)
REASON_CHARS = 240
INTERRUPTED = 128  # runner.run answers 128 + the signal when a run was stopped


@dataclass(frozen=True, slots=True)
class ClauseOutcome:
    id: str
    status: str  # a clause status of conformance.json; "n/a" when no check ran
    evidence: str
    reproduce: str
    case: str | None = None  # the golden case the evidence comes from, when it is one

    @property
    def passed(self) -> bool:
        return self.status in PASSING or self.status in NOT_APPLICABLE

    @property
    def reason(self) -> str:
        """Why a clause is n/a, as the check said it."""
        lines = [line.strip() for line in self.evidence.splitlines() if line.strip()]
        for index, line in enumerate(lines):
            if "n/a" in line or "not judged" in line:
                # "...stopped at a finding charged to X:" says what the finding was next.
                following = lines[index + 1:index + 2] if line.endswith(":") else []
                return " ".join([line, *following])[:REASON_CHARS]
        return lines[0][:REASON_CHARS] if lines else "no check ran"


@dataclass(frozen=True, slots=True)
class LessonOutcome:
    lesson: Lesson
    clauses: tuple[ClauseOutcome, ...]  # the lesson's, in its order
    elsewhere: tuple[ClauseOutcome, ...]  # other clauses a finding was charged to
    report: Path

    complete: bool = True  # every planned check ran (a run stopped early judges nothing)

    @property
    def passed(self) -> bool:
        return self.complete and all(outcome.passed for outcome in self.clauses)

    @property
    def failing(self) -> list[ClauseOutcome]:
        return [outcome for outcome in self.clauses if not outcome.passed]


def run_lesson(plan: Plan, lesson: Lesson) -> LessonOutcome:
    """Runs the lesson's clauses against the project (the run's own console output is kept
    from the learner: the lesson view says what matters) and reads conformance.json."""
    profile = plan.folder / plan.profile
    if not profile.is_file():
        raise ProjectError(f"no {plan.profile} in {plan.folder}: learn.toml's `profile` names "
                           "the file that says how to start the project")
    try:
        spec = resolve(None, str(profile))
        expectations = runner.gather_expectations(spec, None)
    except (SpecError, ProfileError, ValueError) as error:
        raise ProjectError(str(error)) from None
    report = plan.folder / REPORT / lesson.id  # each lesson's run in a folder of its own
    options = runner.RunOptions(spec=spec, impl=None, profile=str(profile), report_dir=report,
                                expectations=expectations, clauses=tuple(lesson.clause_ids()))
    console = io.StringIO()
    try:
        status = runner.run(options, out=console)
    except (runner.CannotStart, runner.RunError) as error:
        raise ProjectError(" ".join(str(error).split())) from None
    if status >= INTERRUPTED:  # the checks done so far do not judge a lesson
        raise KeyboardInterrupt
    return read_outcome(lesson, report)


def read_outcome(lesson: Lesson, report: Path) -> LessonOutcome:
    document = json.loads((report / "conformance.json").read_text("utf-8"))
    found = {entry["id"]: _outcome(entry) for entry in document["clauses"]}
    ids = lesson.clause_ids()
    mine = tuple(found.get(cid) or ClauseOutcome(cid, "n/a", "no check ran", "") for cid in ids)
    others = tuple(outcome for cid, outcome in found.items()
                   if cid not in ids and not outcome.passed)
    summary = document.get("summary", {})
    complete = summary.get("executed", 0) >= summary.get("planned", 0)
    return LessonOutcome(lesson, mine, others, report, complete)


def _outcome(entry: dict[str, Any]) -> ClauseOutcome:
    tests = entry.get("tests") or []
    evidence = str(entry.get("evidence") or "")
    reproduce = str(entry.get("reproduce") or "")
    failing = [test for test in tests if test.get("outcome") in ("fail", "error")]
    failing.sort(key=_telling)
    case = None
    if failing:
        evidence = str(failing[0].get("evidence") or evidence)
        reproduce = str(failing[0].get("reproduce") or reproduce)
        case = failing[0].get("case")
    elif tests and not evidence:
        evidence = str(tests[0].get("evidence") or "")
    return ClauseOutcome(str(entry["id"]), str(entry["status"]), evidence, reproduce,
                         str(case) if case else None)


def _telling(test: dict[str, Any]) -> tuple[bool, bool]:
    """The failing check that reads best first: one of the clause itself (not one that ran into
    it while checking another), showing its request or naming the case it played."""
    evidence = str(test.get("evidence") or "")
    return evidence.startswith("found while"), not ("request:" in evidence or test.get("case"))
