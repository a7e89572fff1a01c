"""`agentconf learn`: a course from a naive tool system to a conformant one.

    agentconf learn new DIR        write the naive project and its plan of lessons into DIR
    agentconf learn [--dir DIR]    run the current lesson's clauses and teach the first failure
    agentconf learn show [LESSON]  the lesson's page (the current one's by default)
"""

import argparse
from pathlib import Path

from agentconf.cli import UsageError
from agentconf.learn.project import LANGUAGES, ProjectError, create_project, load_plan

HELP = ("a course: build a conformant tool system lesson by lesson (learn new DIR, then learn; "
        "learn show prints the lesson's page)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("words", nargs="*", metavar="new DIR | show [LESSON]",
                        help="`new DIR` starts a project; `show` prints the lesson's page; "
                             "nothing runs the current lesson")
    parser.add_argument("--dir", type=Path, default=Path("."),
                        help="the project folder (default: the current folder)")
    parser.add_argument("--lesson", metavar="ID", help="run this lesson instead of the current")
    parser.add_argument("--lang", choices=LANGUAGES, default="python",
                        help="the language of the starting point (learn new)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.words[:1] == ["new"] and len(args.words) == 2:
            return _new(Path(args.words[1]), args.lang)
        if args.words[:1] == ["show"] and len(args.words) <= 2:
            return _show(args.dir, (args.words[1:] or [args.lesson])[0])
        if args.words:
            raise UsageError(f"unknown words {' '.join(args.words)!r}: use `learn new DIR`, "
                             "`learn show [LESSON]`, or `learn` alone in a project folder")
        return _lesson(args.dir, args.lesson)
    except ProjectError as error:
        raise UsageError(str(error)) from None


def _new(folder: Path, lang: str) -> int:
    plan = create_project(folder, lang)
    first = plan.lesson()
    print(f"Wrote a first attempt at a tool system into {folder}: mytools/ (six tools), "
          "agentconf.toml (how agentconf starts it) and learn.toml (the plan and your progress).")
    print(f"{len(plan.lessons)} lessons; the first is: {first.title}.")
    print(f"Next: cd {folder} && agentconf learn show (the lesson's page), then agentconf learn "
          "(its checks)")
    return 0


def _show(folder: Path, lesson_id: str | None) -> int:
    """The lesson's page, rendered from the course as docs/learn/ is (so a wheel has it too):
    the current lesson of the project in `folder`, or any lesson of the course by its id."""
    from agentconf.learn.course import CourseError, load_course
    from agentconf.learn.pages import render_lesson

    course = load_course()
    if lesson_id is None:
        lesson_id = load_plan(folder).current
    try:
        lesson = course.lesson(lesson_id)
    except CourseError as error:
        raise UsageError(str(error)) from None
    number = [entry.id for entry in course.lessons].index(lesson.id) + 1
    print(render_lesson(course, number, lesson), end="")
    return 0


def _lesson(folder: Path, lesson_id: str | None) -> int:
    # Imported here: the runner and the gallery are only needed once a lesson runs.
    from agentconf.learn.lesson import run_lesson
    from agentconf.learn.render import render_outcome
    from agentconf.learn.report import write_lesson_report

    plan = load_plan(folder)
    lesson = plan.lesson(lesson_id)
    print(f"Checking lesson {plan.number(lesson)}: {lesson.title} "
          f"({len(lesson.clause_ids())} clauses)...", flush=True)
    current = lesson.id == plan.current
    outcome = run_lesson(plan, lesson)
    if outcome.passed:
        plan.record_pass(lesson)
        plan.save()
    view = render_outcome(plan, outcome)
    print(view, end="")
    try:
        report = write_lesson_report(plan, outcome, view, current)
    except OSError as error:
        raise UsageError(f"cannot write the lesson's report: {error}") from None
    print(f"Your lesson report: {report} (the run's: {outcome.report / 'report.html'})")
    return 0 if outcome.passed else 1
