"""The learner's own report: the lesson view (where they stand, the failing clause, its evidence,
the hint) as a file, beside the run's generic reports. Each lesson's run writes its own folder
(reports/learn/<lesson>/); reports/learn/lesson.md is the current lesson's, which a run of
another lesson (`--lesson`) never overwrites.
"""

from pathlib import Path

from .lesson import REPORT, LessonOutcome
from .project import Plan

LESSON_REPORT = "lesson.md"


def write_lesson_report(plan: Plan, outcome: LessonOutcome, view: str, current: bool) -> Path:
    """Writes the view into the lesson's folder, and as the learner's report when `current`;
    the path the learner should open."""
    lesson = outcome.lesson
    text = (f"# agentconf learn: lesson {plan.number(lesson)} of {len(plan.lessons)}, "
            f"{lesson.title}\n\nThe lesson's page: `agentconf learn show {lesson.id}`. The run's "
            f"full report: `{outcome.report / 'report.html'}`.\n\n```text\n{view.rstrip()}\n```\n")
    own = outcome.report / LESSON_REPORT
    own.write_text(text, encoding="utf-8")
    if not current:
        return own
    learner = plan.folder / REPORT / LESSON_REPORT
    learner.write_text(text, encoding="utf-8")
    return learner
