"""`agentconf cases check`: each kind of malformed case is caught, naming its file and field."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentconf.contract import CANONICAL_TOOLS, CATEGORIES, CLAUSES
from agentconf.harness.cases.load import SCHEMA_PATH, default_cases_dir, lint_directory, load_cases


def _case(**overrides: Any) -> dict[str, Any]:
    case: dict[str, Any] = {
        "id": "a-good-case",
        "description": "Reading a missing file answers NOT_FOUND.",
        "clauses": ["READ-02"],
        "level": "MUST",
        "requires": [],
        "calls": [{"tool": "read_file", "arguments": {"path": "missing.txt"}}],
        "expect": {"error": "NOT_FOUND"},
    }
    case.update(overrides)
    return {key: value for key, value in case.items() if value is not None}


def _write(folder: Path, name: str, *cases: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(json.dumps({"topic": "t", "description": "d", "cases": list(cases)}), "utf-8")
    return path


def _problems(folder: Path) -> list[tuple[str, str, str]]:
    return [(p.file.name, p.pointer, p.message) for p in lint_directory(folder)]


def test_a_sound_case_file_has_no_problems(tmp_path: Path) -> None:
    _write(tmp_path, "ok.json", _case())
    assert lint_directory(tmp_path) == []


@pytest.mark.parametrize(
    ("overrides", "pointer", "words"),
    [
        ({"id": "Not A Slug"}, "/cases/0/id", "does not match"),
        ({"calls": None}, "/cases/0", "'calls' is a required property"),
        ({"calls": []}, "/cases/0/calls", "should be non-empty"),
        ({"level": "MUSTN'T"}, "/cases/0/level", "is not one of"),
        ({"clauses": ["READ-2"]}, "/cases/0/clauses/0", "does not match"),
        ({"clauses": ["READ-99"]}, "/cases/0/clauses/0", "unknown clause id 'READ-99'"),
        # One clause per case: a second clause would be failed by a departure from the first.
        ({"clauses": ["READ-02", "RESULT-02"]}, "/cases/0/clauses", "is too long"),
        ({"requires": ["teleport"]}, "/cases/0/requires/0", "unknown capability 'teleport'"),
        ({"expect": None}, "/cases/0", "no expectation"),
        (
            {"expect": {"error": "FILE_GONE"}},
            "/cases/0/expect/error",
            "unknown error code 'FILE_GONE'",
        ),
        (
            {"expect": {"error": "NOT_FOUND", "success": True}},
            "/cases/0/expect/success",
            "contradicts",
        ),
        ({"expect": {"data_contain": ["x"]}}, "/cases/0/expect", "data_contain"),
        ({"level": "SHOULD"}, "/cases/0/level", "not the level of any of its clauses"),
        ({"tree": {"a.bin": {"hex": "zz"}}}, "/cases/0/tree/a.bin/hex", "zz"),
        ({"tree": {"../escape.txt": "x"}}, "/cases/0/tree", "../escape.txt"),
        (
            {"tree": {"a.txt": {"text": "x", "hex": "00"}}},
            "/cases/0/tree/a.txt",
            "valid under each of",
        ),
        ({"tree": {"l": {"symlink": "<OUTSIDE>/secret.txt"}}}, "/cases/0/requires", "'symlinks'"),
        (
            {"calls": [{"tool": "cat_file", "arguments": {}}]},
            "/cases/0/calls/0/tool",
            "is not one of",
        ),
        (
            {"calls": [{"tool": "read_file", "arguments": {"path": "<LIMIT:max_bananas>"}}]},
            "/cases/0",
            "<LIMIT:max_bananas>",
        ),
        ({"after": {"modes": {"a": "999"}}}, "/cases/0/after/modes/a", "does not match"),
        # Judged without the tool, its TOOL_NOT_FOUND would fail the clause: n/a instead.
        ({"clauses": ["VALIDATE-02"], "expect": {"error": "INVALID_ARGS"}, "calls": [
            {"tool": "write_file", "arguments": {"path": "x.txt", "content": {"text": "hi"}}}]},
         "/cases/0/requires", "must require 'write_file'"),
        # A probe provokes one code: RESULT-02 and init --from read its last answer as that code.
        ({"probe": True, "expect": {"success": False}}, "/cases/0/probe", "exactly one error"),
        ({"probe": True, "expect": {"error": ["NOT_FOUND", "IS_DIRECTORY"]}}, "/cases/0/probe",
         "exactly one error"),
        # A twin varies what the probe names, for init --from's learner: what it names is there.
        ({"probe": True, "twin": {"gone.txt": "lost.md"}}, "/cases/0/twin/gone.txt",
         "occurs nowhere"),
        ({"twin": {"missing.txt": "lost.md"}}, "/cases/0/twin", "only a probe case"),
        ({"probe": True, "twin": {"missing.txt": "missing.txt"}}, "/cases/0/twin/missing.txt",
         "must vary"),
    ],
)
def test_a_malformed_case_is_named_by_file_and_pointer(
    tmp_path: Path, overrides: dict[str, Any], pointer: str, words: str
) -> None:
    _write(tmp_path, "broken.json", _case(**overrides))
    problems = _problems(tmp_path)
    assert any(
        name == "broken.json" and where == pointer and words in message
        for name, where, message in problems
    ), problems


def test_a_file_that_is_not_json_is_one_problem(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"topic": ', "utf-8")
    [(name, pointer, message)] = _problems(tmp_path)
    assert (name, pointer) == ("bad.json", "") and "not readable JSON" in message


def test_a_duplicate_id_in_another_file_names_both_places(tmp_path: Path) -> None:
    _write(tmp_path, "a.json", _case())
    _write(tmp_path, "b.json", _case(description="The same id again."))
    [(name, pointer, message)] = _problems(tmp_path)
    assert (name, pointer) == ("b.json", "/cases/0/id")
    assert "a-good-case" in message and "a.json#/cases/0" in message


def test_a_case_level_expect_beside_the_last_calls_own_is_flagged(tmp_path: Path) -> None:
    call = {"tool": "read_file", "arguments": {"path": "m"}, "expect": {"error": "NOT_FOUND"}}
    _write(tmp_path, "x.json", _case(calls=[call]))
    assert ("x.json", "/cases/0/expect") in {(n, p) for n, p, _ in _problems(tmp_path)}


def test_an_empty_folder_is_a_problem_not_a_pass(tmp_path: Path) -> None:
    assert [message for _, _, message in _problems(tmp_path)] == [
        "no case files (*.json, */cases.json) here"]


def test_one_bad_case_does_not_hide_the_problems_of_its_neighbours(tmp_path: Path) -> None:
    _write(tmp_path, "x.json", _case(id="Bad Id"), _case(id="fine-id", clauses=["NOPE-01"]))
    pointers = {pointer for _, pointer, _ in _problems(tmp_path)}
    assert {"/cases/0/id", "/cases/1/clauses/0"} <= pointers


# A case plays calls on one usual session: checks that need the implementation started in a mode
# (SURFACE, PERMISSION) or a call cancelled while it runs (CANCEL) live in their suites alone.
NOT_CASE_SHAPED = {"SURFACE", "PERMISSION", "CANCEL"}


def test_the_shipped_cases_are_sound_many_and_cover_every_category() -> None:
    cases = load_cases()
    assert len(cases) >= 150
    categories = {CLAUSES[clause].category for case in cases for clause in case.clauses}
    assert categories == set(CATEGORIES) - NOT_CASE_SHAPED


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentconf", "cases", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_check_command_exits_1_naming_file_and_field(tmp_path: Path) -> None:
    _write(tmp_path, "broken.json", _case(clauses=["READ-99"]))
    done = _cli("check", str(tmp_path))
    assert done.returncode == 1
    assert (
        f"{tmp_path / 'broken.json'}: /cases/0/clauses/0: unknown clause id 'READ-99'"
        in done.stderr
    )
    assert "Traceback" not in done.stderr


def test_the_check_command_passes_the_shipped_cases() -> None:
    done = _cli("check")
    assert done.returncode == 0, done.stderr
    assert f"{len(load_cases())} cases" in done.stdout


def test_the_check_command_refuses_a_missing_folder_in_one_line(tmp_path: Path) -> None:
    done = _cli("check", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "nowhere" in done.stderr


def test_the_shipped_cases_are_found_where_the_package_says(tmp_path: Path) -> None:
    assert (default_cases_dir() / "edit" / "cases.json").is_file()


def test_a_case_may_call_every_canonical_tool_and_no_other_name() -> None:
    schema = json.loads(SCHEMA_PATH.read_text("utf-8"))
    assert schema["$defs"]["Call"]["properties"]["tool"]["enum"] == list(CANONICAL_TOOLS)


GREP_CASE = {"clauses": ["GREP-03"], "tree": {"a.txt": "uses -e flag\n"},
             "calls": [{"tool": "grep", "arguments": {"pattern": "-e"}}]}


@pytest.mark.parametrize(
    ("overrides", "pointer", "words"),
    [
        # A grep answer showing only the match failed GREP-03, GREP-04 and SYMLINK-07 too.
        ({**GREP_CASE, "expect": {"data_contains": ["a.txt", "uses -e flag"]}},
         "/cases/0/expect/data_contains/1", "whether grep shows the whole line is GREP-01's"),
        # GREP-03's "no mention of ripgrep" tripped on a JSON key `ripgrep_enhanced`.
        ({**GREP_CASE, "expect": {"data_not_contains": ["ripgrep"]}},
         "/cases/0/expect/data_not_contains/0", "trips on a JSON key"),
        # VALIDATE-08 failed for a window one line off, READ-06's cause.
        ({"clauses": ["VALIDATE-08"], "tree": {"a.txt": "a\nb\nc\n"},
          "calls": [{"tool": "read_file", "arguments": {"path": "a.txt", "start_line": 2.0}}],
          "expect": {"success": True, "data_contains": ["b"]}},
         "/cases/0/expect/data_contains", "which lines a window shows is READ-06's"),
    ],
    ids=["grep-whole-line", "bare-word", "window-lines"],
)
def test_a_case_judging_another_clauses_subject_is_a_cascade(
        tmp_path: Path, overrides: dict[str, Any], pointer: str, words: str) -> None:
    _write(tmp_path, "c.json", _case(**overrides))
    found = [(p, m) for _, p, m in _problems(tmp_path)]
    assert any(p == pointer and words in m for p, m in found), found


def test_the_same_cases_judging_their_own_subject_are_sound(tmp_path: Path) -> None:
    _write(tmp_path, "c.json",
           _case(**{**GREP_CASE, "expect": {"data_contains": ["a.txt", "-e"],
                                            "data_not_contains": ["ripgrep "]}}),
           _case(id="own-window", clauses=["READ-06"], tree={"a.txt": "a\nb\n"},
                 calls=[{"tool": "read_file", "arguments": {"path": "a.txt", "start_line": 2}}],
                 expect={"data_contains": ["b"]}))
    assert lint_directory(tmp_path) == []
