"""[unproven]: a premise the draft could not prove makes the checks standing on it "not judged"
(n/a, with the reason), never failed; without the entry the same checks judge as usual."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

RUN_BOUND_S = 600


def _run(folder: Path, profile_text: str, clauses: str) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    profile = folder / "agentconf.toml"
    profile.write_text(profile_text, "utf-8")
    report = folder / "report"
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", str(profile), "--clauses", clauses,
         "--report", str(report)], cwd=folder, capture_output=True, text=True,
        timeout=RUN_BOUND_S, check=False, stdin=subprocess.DEVNULL)
    assert (report / "conformance.json").is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    document: dict[str, Any] = json.loads((report / "conformance.json").read_text("utf-8"))
    document["console"] = done.stdout
    return document


def _clauses(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {clause["id"]: clause for clause in document["clauses"]}


SPEC = '[implementation]\nspec = "python:agentconf.selfcheck.gallery:NotFoundIsSilentSuccess"\n'
UNPROVEN = ('[unproven.edit_file]\nrefusals = "an edit of text that is not there answered '
            'success and no marker tells it"\n')


def test_unrecognised_refusals_are_not_judged_when_the_draft_says_so(tmp_path: Path) -> None:
    judged = _clauses(_run(tmp_path / "a", SPEC, "EDIT-02,EDIT-01"))
    assert judged["EDIT-02"]["status"] == "fail"
    unproven = _clauses(_run(tmp_path / "b", SPEC + UNPROVEN, "EDIT-02,EDIT-01"))
    assert unproven["EDIT-02"]["status"] == "n/a", unproven["EDIT-02"]
    assert "not judged: edit_file's refusals" in json.dumps(unproven["EDIT-02"])
    assert unproven["EDIT-01"]["status"] == "pass"  # its successes are still judged


def test_calls_that_stand_on_an_unproven_premise_are_not_judged(tmp_path: Path) -> None:
    profile = ('[implementation]\nspec = "reference"\n[unproven.read_file]\n'
               'calls = "a file of the root did not read back"\n')
    document = _run(tmp_path, profile, "READ-02,CONFINE-01")
    found = _clauses(document)
    assert found["READ-02"]["status"] == "n/a"
    assert "not judged: read_file: a file of the root did not read back" in json.dumps(
        found["READ-02"])
    assert found["CONFINE-01"]["status"] == "pass"
    # Said before anything runs, on the lines after the first.
    head = document["console"].splitlines()[1:3]
    assert head[0].startswith("agentconf: NOT JUDGED"), document["console"][:600]
    assert "read_file calls: a file of the root did not read back" in head[1]


def test_calls_carrying_an_unproven_argument_are_not_judged_and_the_others_are(
        tmp_path: Path) -> None:
    profile = ('[implementation]\nspec = "reference"\n[unproven.bash]\narguments = { timeout_ms = '
               '"`echo` with timeout_ms 5000, as the profile sends it, was refused" }\n')
    found = _clauses(_run(tmp_path, profile, "SHELL-04,SHELL-01"))
    assert found["SHELL-04"]["status"] == "n/a", found["SHELL-04"]
    assert "not judged: bash: timeout_ms: `echo` with timeout_ms 5000" in json.dumps(
        found["SHELL-04"])
    assert found["SHELL-01"]["status"] == "pass"  # its calls carry no timeout: judged


def test_a_failed_argument_premise_is_drafted_as_a_nested_table() -> None:
    from agentconf.init_from.premises import Premise, unproven_tables

    tables = unproven_tables([Premise("bash", "calls", True, "ok"),
                              Premise("bash", "arguments.timeout_ms", False, "refused")])
    assert tables == {"bash": {"arguments": {"timeout_ms": "refused"}}}
