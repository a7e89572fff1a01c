"""`agentconf cases export DIR`: plain JSON for other harnesses, which reads back identically."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

from agentconf.contract import CLAUSES
from agentconf.harness.cases.load import SCHEMA_PATH, lint_directory, load_cases


def _export(target: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentconf", "cases", "export", str(target), *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_exported_cases_read_back_as_the_same_cases(tmp_path: Path) -> None:
    done = _export(tmp_path / "out")
    assert done.returncode == 0, done.stderr
    exported = load_cases(tmp_path / "out" / "cases")
    shipped = load_cases()
    assert [case.to_json() for case in exported] == [case.to_json() for case in shipped]


def test_the_export_carries_the_schema_the_catalogue_and_a_readme(tmp_path: Path) -> None:
    assert _export(tmp_path).returncode == 0
    assert (tmp_path / "case.schema.json").read_bytes() == SCHEMA_PATH.read_bytes()
    catalogue = json.loads((tmp_path / "catalogue.json").read_text("utf-8"))
    assert catalogue["clauses"]["EDIT-03"]["level"] == CLAUSES["EDIT-03"].level.value
    assert "symlinks" in catalogue["capabilities"]
    assert catalogue["limits"]["max_output_chars"] > 0
    readme = (tmp_path / "README.md").read_text("utf-8")
    assert "<OUTSIDE>" in readme and "CLAUSE-ID::case-id" in readme


def test_every_exported_file_validates_against_the_exported_schema_alone(tmp_path: Path) -> None:
    assert _export(tmp_path).returncode == 0
    validator = jsonschema.Draft202012Validator(
        json.loads((tmp_path / "case.schema.json").read_text())
    )
    files = sorted((tmp_path / "cases").glob("*.json"))
    assert files
    for path in files:
        assert not list(validator.iter_errors(json.loads(path.read_text("utf-8")))), path


def test_an_export_of_a_broken_folder_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "x.json").write_text('{"topic": "x", "description": "d", "cases": []}', "utf-8")
    done = _export(tmp_path / "out", "--from", str(broken))
    assert done.returncode == 1
    assert "x.json: /cases" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_second_export_replaces_stale_case_files(tmp_path: Path) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "retired-topic.json").write_text("{}", "utf-8")
    assert _export(tmp_path).returncode == 0
    assert not (tmp_path / "cases" / "retired-topic.json").exists()
    assert lint_directory(tmp_path / "cases") == []
