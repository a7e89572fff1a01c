"""`agentconf run` on the JSON-answering program of profile_programs.py: with its profile the
clauses that failed falsely on JSON answers pass, an excluded tool is never called, and a line
window its schema cannot take is n/a with the key to set; without the `result` tables the false
failures are back."""

import json
from pathlib import Path

from clause_events import outcomes, run
from profile_programs import write_toy

FALSE_FAILURES = ("SHELL-01", "READ-01", "TRUNCATE-06")


def test_json_answers_pass_with_the_profile_and_the_excluded_tool_is_never_called(
        tmp_path: Path) -> None:
    profile = write_toy(tmp_path)
    found = run(tmp_path, profile, ",".join((*FALSE_FAILURES, "REGISTRY-03", "RESULT-04")))
    for clause in FALSE_FAILURES:
        # n/a: the message snapshots, which need a snapshot folder of this implementation.
        assert "pass" in outcomes(found[clause]) and outcomes(found[clause]) <= {"pass", "n/a"}, \
            json.dumps(found[clause], indent=1)[:3000]
    assert "pass" in outcomes(found["REGISTRY-03"])
    assert not (tmp_path / "markers" / "killed").exists()


def test_without_the_result_tables_the_false_failures_are_back(tmp_path: Path) -> None:
    profile = write_toy(tmp_path, drop=("[tools.read_file]", "[tools.bash]"))
    text = profile.read_text() + (
        '\n[tools.read_file]\nname = "Read"\nargs = { path = "file_path" }\n'
        '\n[tools.bash]\nname = "Bash"\n')
    profile.write_text(text)
    found = run(tmp_path, profile, ",".join(FALSE_FAILURES))
    # SHELL-01 is not among them any more: its checks look for ASCII text, and the golden
    # cases read a JSON answer's strings with their escapes decoded (case_play, LIST-01's fix).
    for clause in ("READ-01", "TRUNCATE-06"):
        assert "fail" in outcomes(found[clause]), clause


def test_a_window_the_schema_cannot_take_is_not_applicable_naming_the_key(tmp_path: Path) -> None:
    profile = write_toy(tmp_path, "--no-window")
    found = run(tmp_path, profile, "READ-06")
    assert outcomes(found["READ-06"]) == {"n/a"}
    reasons = " ".join(event.get("evidence", "") for event in found["READ-06"])
    assert "[tools.read_file].args.start_line" in reasons, reasons
