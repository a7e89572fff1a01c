"""The course as a product: `agentconf learn show` prints the current lesson's page from the
installed package (the pages under docs/learn/ are not in a wheel: they are rendered from the
same course), each lesson run keeps a report of its own, and the learner's report (progress, the
lesson, the hint) is never overwritten by a run of another lesson (`--lesson`)."""

from pathlib import Path

from agentconf.learn.course import load_course
from agentconf.learn.pages import DOCS, page_name

from .journey import agentconf

REPO = Path(__file__).resolve().parents[2]


def test_show_prints_a_lessons_page_as_docs_learn_has_it(tmp_path: Path) -> None:
    course = load_course()
    for number, lesson in ((1, course.lessons[0]), (7, course.lessons[6])):
        done = agentconf("learn", "show", lesson.id, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout == (DOCS / page_name(number, lesson)).read_text("utf-8")


def test_show_in_a_project_is_the_current_lessons_page_and_bad_names_are_one_line(
    tmp_path: Path,
) -> None:
    project = tmp_path / "p"
    assert agentconf("learn", "new", str(project), cwd=tmp_path).returncode == 0
    done = agentconf("learn", "show", cwd=project)
    assert done.returncode == 0 and done.stdout.startswith("# Lesson 1: "), done.stderr
    wrong = agentconf("learn", "show", "nope", cwd=project)
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert "unknown lesson 'nope'" in wrong.stderr
    outside = agentconf("learn", "show", cwd=tmp_path)
    assert outside.returncode == 2 and "learn.toml" in outside.stderr


def test_the_learners_report_is_theirs_and_another_lesson_does_not_overwrite_it(
    tmp_path: Path,
) -> None:
    project = tmp_path / "p"
    assert agentconf("learn", "new", str(project), cwd=tmp_path).returncode == 0
    first = agentconf("learn", cwd=project)
    assert "Your lesson report: reports/learn/lesson.md" in first.stdout, first.stdout[-800:]
    report = project / "reports/learn/lesson.md"
    mine = report.read_text("utf-8")
    for part in ("lesson 1 of 12", "Progress: [............]", "FAILS: RESULT-01", "Hint",
                 "agentconf learn show envelope"):
        assert part in mine, part
    other = agentconf("learn", "--lesson", "registry", cwd=project)
    assert "reports/learn/registry/lesson.md" in other.stdout, other.stdout[-800:]
    assert report.read_text("utf-8") == mine
    assert (project / "reports/learn/registry/report.html").is_file()
    assert (project / "reports/learn/envelope/conformance.json").is_file()


def test_the_readmes_opening_lines_name_the_course() -> None:
    opening = (REPO / "README.md").read_text("utf-8").splitlines()[:20]
    assert any("agentconf learn" in line for line in opening), opening
