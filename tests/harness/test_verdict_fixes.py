"""Verdicts the kit got wrong on real implementations, each on a small program of that shape run
through `agentconf run`: the check's verdict is the one the program deserves."""

from pathlib import Path

from shape_programs import write_shapes
from test_profile_end_to_end import outcomes, run


def verdicts(folder: Path, clauses: str, *flags: str, extra: str = "") -> dict[str, set[str]]:
    folder.mkdir(exist_ok=True)
    profile = write_shapes(folder, *flags, extra=extra)
    return {clause: outcomes(events) for clause, events in run(folder, profile, clauses).items()}


def test_validate_checks_never_call_a_write_file_the_implementation_lacks(tmp_path: Path) -> None:
    found = verdicts(tmp_path, "VALIDATE-05,VALIDATE-06", "--only=search,shell")
    assert found["VALIDATE-05"] == {"n/a"} and found["VALIDATE-06"] == {"n/a"}, found


def test_a_state_folder_inside_the_root_is_not_a_file_left_behind(tmp_path: Path) -> None:
    found = verdicts(tmp_path, "EDIT-16,CONCUR-02", "--state-in-root",
                     extra='\n[setup]\nstate = [".shapes-state"]\n')
    assert found["EDIT-16"] == {"pass"} and found["CONCUR-02"] == {"pass"}, found


def test_a_json_listing_with_ascii_escapes_names_unusual_files(tmp_path: Path) -> None:
    """LIST-01 matched `é中😀.txt` against the raw `"\\u00e9\\u4e2d..."` of a JSON answer."""
    assert verdicts(tmp_path, "LIST-01")["LIST-01"] == {"pass"}


def test_an_envelope_without_a_code_fails_result_02_not_result_04(tmp_path: Path) -> None:
    found = verdicts(tmp_path, "RESULT-02,RESULT-04", "--only=read,write,list")
    assert "fail" in found["RESULT-02"], found
    assert found["RESULT-04"] <= {"pass", "n/a"} and "pass" in found["RESULT-04"], found
