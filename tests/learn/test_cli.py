"""`agentconf learn` from the command line: a new project, and bad input as one line and exit 2."""

import tomllib
from pathlib import Path

import pytest

from agentconf.cli import main
from agentconf.learn.course import load_course

from .journey import agentconf


def test_learn_new_writes_the_naive_project_and_the_plan(tmp_path: Path, capsys) -> None:
    project = tmp_path / "course"
    assert main(["learn", "new", str(project)]) == 0
    assert "agentconf learn" in capsys.readouterr().out
    plan = tomllib.loads((project / "learn.toml").read_text("utf-8"))
    course = load_course()
    assert plan["current"] == course.lessons[0].id and plan["passed"] == []
    assert [lesson["id"] for lesson in plan["lesson"]] == [lesson.id for lesson in course.lessons]
    assert [lesson["clauses"] for lesson in plan["lesson"]] == \
        [list(lesson.clauses) for lesson in course.lessons]
    profile = tomllib.loads((project / "agentconf.toml").read_text("utf-8"))
    assert profile["implementation"]["spec"] == "python:mytools:create"
    assert (project / "mytools" / "__init__.py").is_file()
    assert not list(project.rglob("*.tmpl"))
    assert "reports/" in (project / ".gitignore").read_text("utf-8")


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_learn_without_a_plan_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["learn", "--dir", str(tmp_path)]) == 2
    assert "no learn.toml" in _one_line(capsys)


def test_an_unknown_lesson_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    main(["learn", "new", str(tmp_path / "p")])
    capsys.readouterr()
    assert main(["learn", "--dir", str(tmp_path / "p"), "--lesson", "nope"]) == 2
    assert "unknown lesson 'nope'" in _one_line(capsys)
    plan = tmp_path / "p" / "learn.toml"
    plan.write_text(plan.read_text("utf-8").replace('current = "envelope"', 'current = "x"'))
    assert main(["learn", "--dir", str(tmp_path / "p")]) == 2
    assert "unknown lesson 'x'" in _one_line(capsys)


@pytest.mark.parametrize("text", ["not toml [", 'current = "envelope"\n',
                                  'current = "a"\n[[lesson]]\nid = "a"\ntitle = "A"\n'
                                  'clauses = ["NOPE-01"]\n'])
def test_a_broken_plan_is_one_line_and_exit_2(tmp_path: Path, capsys, text: str) -> None:
    (tmp_path / "learn.toml").write_text(text, encoding="utf-8")
    assert main(["learn", "--dir", str(tmp_path)]) == 2
    assert "learn.toml" in _one_line(capsys)


def test_new_into_a_folder_that_holds_files_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "mine.txt").write_text("keep me\n", encoding="utf-8")
    assert main(["learn", "new", str(tmp_path)]) == 2
    assert "not an empty folder" in _one_line(capsys)
    assert (tmp_path / "mine.txt").read_text("utf-8") == "keep me\n"


def test_unknown_words_are_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["learn", "start", str(tmp_path)]) == 2
    assert "learn new DIR" in _one_line(capsys)


def test_a_project_that_cannot_start_is_one_line_and_exit_2(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert agentconf("learn", "new", str(project), cwd=tmp_path).returncode == 0
    (project / "mytools" / "__init__.py").write_text("raise RuntimeError('broken')\n")
    done = agentconf("learn", cwd=project, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "broken" in done.stderr, done.stderr
