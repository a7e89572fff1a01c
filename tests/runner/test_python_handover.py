"""A profile's `[implementation].python` names the interpreter of the framework's own venv: the
run is handed over to that interpreter's agentconf (a python: implementation runs in-process,
so the kit must run where the framework is installed). The interpreters here are real launchers
(shell scripts that exec Python, as pyenv's shims do), so the hand-over is seen, not assumed."""

import json
import sys
from pathlib import Path

from cli import agentconf, assert_usage_error

ADAPTER = '''\
from agentconf.reference import create as _reference


def create(workspace):
    return _reference(workspace)
'''


def _profile(folder: Path, python: str) -> Path:
    (folder / "my_adapter.py").write_text(ADAPTER, "utf-8")
    profile = folder / "agentconf.toml"
    profile.write_text(f'[implementation]\nspec = "python:my_adapter:create"\n'
                       f'name = "handed"\npython = "{python}"\n', "utf-8")
    return profile


def _launcher(path: Path, body: str) -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n", "utf-8")
    path.chmod(0o755)
    return path


def test_a_run_is_made_by_the_interpreter_the_profile_names(tmp_path: Path) -> None:
    seen = tmp_path / "launched.txt"
    _launcher(tmp_path / "venv-python", f'echo "$@" >> {seen}\nexec {sys.executable} "$@"')
    profile = _profile(tmp_path, "{profile_dir}/venv-python")
    done = agentconf("run", "--impl", str(profile), "--clauses", "READ-01",
                     "--report", str(tmp_path / "report"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    launched = seen.read_text("utf-8").splitlines()
    assert "-c import agentconf" in launched  # the probe that it has the kit
    assert any(line.startswith("-m agentconf run --impl") for line in launched), launched
    document = json.loads((tmp_path / "report/conformance.json").read_text("utf-8"))
    assert document["implementation"]["name"] == "handed"
    assert document["summary"]["executed"] == document["summary"]["planned"] > 0


def test_an_interpreter_without_the_kit_is_one_line_and_exit_2(tmp_path: Path) -> None:
    _launcher(tmp_path / "bare-python", "exit 1")
    profile = _profile(tmp_path, "{profile_dir}/bare-python")
    done = agentconf("run", "--impl", str(profile), cwd=tmp_path)
    assert_usage_error(done, "bare-python", "has no agentconf-kit", "pip install")
