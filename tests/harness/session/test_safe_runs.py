"""Safe to aim at anything: the kit calls only the contract's tools, never a tool the profile
excludes, and stops at once, with the cause, when the implementation cannot start."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOYS = Path(__file__).parents[1] / "harness_toys.py"
# The checks that call tools they did not pick by name: random arguments to "every tool"
# (RESULT-04's property) and `{}` to every advertised tool (REGISTRY-03).
BROAD = "RESULT-04,REGISTRY-03"


def run(tmp_path: Path, spec: str, clauses: str, **env: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(TOYS, tmp_path / "harness_toys.py")
    variables = {**os.environ, "PYTHONPATH": str(tmp_path), "TOY_CALLED": str(
        tmp_path / "called.log"), **env}
    return subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", spec, "--clauses", clauses,
         "--report", str(tmp_path / "report")],
        cwd=tmp_path, env=variables, capture_output=True, text=True, timeout=600, check=False,
        stdin=subprocess.DEVNULL,
    )


def test_an_implementations_own_tools_are_never_run(tmp_path: Path) -> None:
    done = run(tmp_path, "python:harness_toys:create_with_own_tools", BROAD)
    assert (tmp_path / "report" / "conformance.json").is_file(), done.stdout + done.stderr
    assert not (tmp_path / "called.log").exists(), (tmp_path / "called.log").read_text()


def test_a_tool_in_exclude_tools_is_never_called(tmp_path: Path) -> None:
    # Not even with arguments its schema rejects (REGISTRY-03's way of calling other tools).
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:harness_toys:create_with_own_tools"\n'
                       'exclude_tools = ["kill_process"]\n', "utf-8")
    done = run(tmp_path, str(profile), BROAD + ",CONFINE-01", TOY_TRAPPED="kill_process")
    assert (tmp_path / "report" / "conformance.json").is_file(), done.stdout + done.stderr
    assert not (tmp_path / "called.log").exists(), (tmp_path / "called.log").read_text()


# Every check that calls a tool it did not pick by name, whatever its arguments.
EVERY_PICKER = "REGISTRY,RESULT,SURFACE,ANNOTATION,VALIDATE"


def test_a_tool_outside_the_contract_that_runs_on_anything_is_never_called(
    tmp_path: Path,
) -> None:
    # TOY_TRAPPED: kill_process records every call it gets, even with arguments its own schema
    # rejects (a tool that does not validate runs on those too): the kit must send it none.
    done = run(tmp_path, "python:harness_toys:create_with_own_tools", EVERY_PICKER,
               TOY_TRAPPED="kill_process")
    assert (tmp_path / "report" / "conformance.json").is_file(), done.stdout + done.stderr
    assert not (tmp_path / "called.log").exists(), (tmp_path / "called.log").read_text()


def test_call_other_tools_opts_in_to_calls_the_tools_schema_rejects(tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:harness_toys:create_with_own_tools"\n'
                       'call_other_tools = true\n', "utf-8")
    done = run(tmp_path, str(profile), "REGISTRY-03", TOY_TRAPPED="kill_process")
    assert (tmp_path / "report" / "conformance.json").is_file(), done.stdout + done.stderr
    assert "kill_process" in (tmp_path / "called.log").read_text()


def test_destructive_tools_are_never_sent_a_path_that_resolves_outside_the_sandbox(
    tmp_path: Path,
) -> None:
    # delete_file, move_file, copy_file and a declared destructive tool record every path they
    # are given, and where it led at that moment: the sandbox is the root's parent folder.
    shutil.copy(Path(__file__).with_name("path_toys.py"), tmp_path / "path_toys.py")
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:path_toys:create_recording"\n'
                       '[tools.extra.purge]\npaths = ["target"]\n', "utf-8")
    done = run(tmp_path, str(profile), "CONFINE-14,CONFINE-16,CONFINE-17,SYMLINK-12")
    assert (tmp_path / "report" / "conformance.json").is_file(), done.stdout + done.stderr
    records = [json.loads(line) for line in (tmp_path / "called.log").read_text().splitlines()]
    assert {record["tool"] for record in records} >= {"delete_file", "move_file", "purge"}
    assert any(".." in record["path"] for record in records)  # hostile ones were sent
    for record in records:
        sandbox = os.path.dirname(record["root"]) + "/"
        assert record["lexical"].startswith(sandbox), record
        assert record["real"].startswith(sandbox), record


@pytest.mark.parametrize("bad", ["[implementation]\nexclude_tools = \"write_file\"\n",
                                 "[implementation]\nexclude_tools = [1]\n"])
def test_a_malformed_exclude_tools_is_one_clear_error(tmp_path: Path, bad: str) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "reference"\n' + bad.split("\n", 1)[1],
                       "utf-8")
    done = run(tmp_path, str(profile), "RESULT-01")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "exclude_tools" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


SERVE = f"{sys.executable} -m agentconf serve --root {{root}}"


def _starting_with(tmp_path: Path, shell: str) -> dict[str, str]:
    """Statuses of a run of the reference served over cmd:, after `shell` ran at its start."""
    script = tmp_path / "start.sh"
    script.write_text(f'{shell}\nexec {SERVE.replace("{root}", "$1")}\n', "utf-8")
    done = run(tmp_path, f"cmd:sh {script} {{root}}", "READ-01,CONFINE-01")
    document = tmp_path / "report" / "conformance.json"
    assert document.is_file(), done.stdout + done.stderr
    return {c["id"]: c["status"] for c in json.loads(document.read_text())["clauses"]}


def test_what_an_implementation_writes_into_its_home_while_starting_is_its_own(
    tmp_path: Path
) -> None:
    statuses = _starting_with(tmp_path, 'mkdir -p "$HOME/.tool" && echo cfg > "$HOME/.tool/rc"')
    assert statuses == {"READ-01": "pass", "CONFINE-01": "pass"}


def test_a_canary_changed_while_starting_is_still_an_escape(tmp_path: Path) -> None:
    statuses = _starting_with(tmp_path, 'echo planted >> "$HOME/.ssh/authorized_keys"')
    assert statuses["CONFINE-14"] == "fail"


def test_the_profiles_env_reaches_the_implementation_with_placeholders_filled(
    tmp_path: Path
) -> None:
    # Refuses to start unless its setting arrived, naming a folder inside its own sandbox.
    script = tmp_path / "start.sh"
    script.write_text('case "$TOOL_STATE" in "$HOME"/state) ;; *) echo "no TOOL_STATE" >&2; '
                      'exit 9;; esac\n'
                      f'exec {SERVE.replace("{root}", "$1")}\n', "utf-8")
    profile = tmp_path / "agentconf.toml"
    profile.write_text(f'[implementation]\nspec = "cmd:sh {script} {{root}}"\n'
                       '[env]\nTOOL_STATE = "{home}/state"\n', "utf-8")
    done = run(tmp_path, str(profile), "READ-01")
    assert done.returncode == 0, done.stdout + done.stderr
    without = tmp_path / "bare.toml"
    without.write_text(f'[implementation]\nspec = "cmd:sh {script} {{root}}"\n', "utf-8")
    done = run(tmp_path, str(without), "READ-01")
    assert done.returncode == 2 and "no TOOL_STATE" in done.stderr, done.stdout + done.stderr


def test_a_cancel_check_reads_first_only_when_a_read_is_needed(tmp_path: Path) -> None:
    """fast-filesystem-mcp 3.5.2 needs no read before a write, and its read of a file over 2 MB
    never answers: CANCEL-03 read the big file its cancelled write left "in case a read was
    needed" and was charged an error for that read, a check of nothing CANCEL-03 says."""
    shutil.copy(Path(__file__).with_name("path_toys.py"), tmp_path / "path_toys.py")
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:path_toys:create_slow_big_reads"\n'
                       "[capabilities]\nread_before_edit = false\nstale_read = false\n", "utf-8")
    run(tmp_path, str(profile), "CANCEL-03")
    events = [json.loads(line) for line in (tmp_path / "report" / "events.jsonl").read_text()
              .splitlines()]
    outcomes = {e["outcome"] for e in events if e["event"] == "test"
                and "CANCEL-03" in e["clauses"]}
    assert "error" not in outcomes and "pass" in outcomes, outcomes
