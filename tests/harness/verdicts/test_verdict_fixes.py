"""Verdicts the kit got wrong on real implementations, each on a small program of that shape run
through `agentconf run`: the check's verdict is the one the program deserves."""

import json
import subprocess
import sys
from pathlib import Path

from clause_events import RUN_BOUND_S, outcomes, run
from shape_programs import write_shapes

# SHAPES spells its codes as a text prefix: `ACCESS_DENIED: ...`.
CODES = ("\n[[error_patterns]]\npattern = '\\A(?P<code>[A-Z][A-Z_]+):'\n\n"
         '[error_codes]\nACCESS_DENIED = "OUTSIDE_ROOT"\nINVALID_INPUT = "INVALID_ARGS"\n')


def verdicts(folder: Path, clauses: str, *flags: str, extra: str = "",
             read: str = "") -> dict[str, set[str]]:
    folder.mkdir(exist_ok=True)
    profile = write_shapes(folder, *flags, extra=extra, read=read)
    return {clause: outcomes(events) for clause, events in run(folder, profile, clauses).items()}


def test_validate_checks_never_call_a_write_file_the_implementation_lacks(tmp_path: Path) -> None:
    found = verdicts(tmp_path, "VALIDATE-05,VALIDATE-06", "only=search,shell")
    assert found["VALIDATE-05"] == {"n/a"} and found["VALIDATE-06"] == {"n/a"}, found


def test_a_state_folder_inside_the_root_is_not_a_file_left_behind(tmp_path: Path) -> None:
    found = verdicts(tmp_path, "EDIT-16,CONCUR-02", "state-in-root",
                     extra='\n[setup]\nstate = [".shapes-state"]\n')
    assert found["EDIT-16"] == {"pass"} and found["CONCUR-02"] == {"pass"}, found


def test_a_json_listing_with_ascii_escapes_names_unusual_files(tmp_path: Path) -> None:
    """LIST-01 matched `é中😀.txt` against the raw `"\\u00e9\\u4e2d..."` of a JSON answer."""
    assert verdicts(tmp_path, "LIST-01")["LIST-01"] == {"pass"}


def test_an_envelope_without_a_code_fails_result_02_not_result_04(tmp_path: Path) -> None:
    found = verdicts(tmp_path, "RESULT-02,RESULT-04", "only=read,write,list")
    assert "fail" in found["RESULT-02"], found
    assert found["RESULT-04"] <= {"pass", "n/a"} and "pass" in found["RESULT-04"], found


def test_a_wrong_window_fails_read_06_not_validate_08_too(tmp_path: Path) -> None:
    """The profile says offsets count from 0; the program counts them from 1: every window is
    one line off. That is READ-06's finding; 2.0 is still read as 2 (VALIDATE-08)."""
    found = verdicts(tmp_path, "READ-06,VALIDATE-08", read="offset_base = 0", extra=CODES)
    assert "fail" in found["READ-06"], found
    assert found["VALIDATE-08"] == {"pass"}, found


def test_a_grep_that_shows_only_the_match_fails_grep_01_alone(tmp_path: Path) -> None:
    """It failed GREP-03, GREP-04 and SYMLINK-07 too, whose subjects it met; and GREP-03's
    "no mention of ripgrep" tripped on its JSON key `ripgrep_enhanced`."""
    found = verdicts(tmp_path, "GREP-01,GREP-03,GREP-04,SYMLINK-07", "match-only",
                     extra=CODES)
    assert "fail" in found["GREP-01"], found
    for clause in ("GREP-03", "GREP-04", "SYMLINK-07"):
        assert found[clause] <= {"pass", "n/a"} and "pass" in found[clause], (clause, found)


def test_confine_14_reports_an_example_that_escapes_by_itself_and_says_it_first(
        tmp_path: Path) -> None:
    """The escape reported was the sum of every earlier example's in the same workspace, and
    could be charged to a harmless read that merely followed them. And a user read 33-46 clause
    sections to find the escapes: the console, report.md and report.html now open with them."""
    folder = tmp_path / "run"
    folder.mkdir()
    profile = write_shapes(folder, "unconfined-write", "only=write,read")
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", str(profile), "--clauses",
         "CONFINE-14,READ-01", "--report", str(folder / "report")],
        cwd=folder, capture_output=True, text=True, timeout=RUN_BOUND_S, check=False)
    events = [json.loads(line) for line in (folder / "report" / "events.jsonl").read_text()
              .splitlines()]
    confine = [e for e in events if e["event"] == "test" and "CONFINE-14" in e["clauses"]]
    assert confine and all(event["outcome"] == "fail" for event in confine), confine
    for event in confine:
        escape = event["evidence"].splitlines()[0]
        # The shrunk example is one write: one change outside, made by that write.
        assert escape.startswith("escape after write:"), escape
        assert escape.count("created ") == 1, escape
    # Said first: before the tables on the console, before the counts in the reports.
    assert "ESCAPES" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    console = done.stdout[done.stdout.index("ESCAPES"):]
    assert "CONFINE-14: escape after write" in console.splitlines()[1], done.stdout[-3000:]
    assert done.stdout.index("ESCAPES") < done.stdout.index("level   pass")
    markdown = (folder / "report" / "report.md").read_text()
    assert markdown.index("## Escapes (") < markdown.index("## By level")
    assert "created hostile-escape.txt" in markdown.split("## By level")[0]
    html = (folder / "report" / "report.html").read_text()
    assert html.index('id="escapes"') < html.index("<h2>By level</h2>")


def test_an_allow_listed_shell_is_judged_on_the_programs_it_allows(tmp_path: Path) -> None:
    """`printf` and `true` are refused by the program's allow-list: without the key SHELL-01
    fails on them, with it those checks are n/a, naming the program and the key."""
    without = verdicts(tmp_path / "without", "SHELL-01", "allow=echo,cat")
    assert "fail" in without["SHELL-01"], without
    folder = tmp_path / "with"
    folder.mkdir()
    profile = write_shapes(folder, "allow=echo,cat",
                           extra='allowed_programs = ["echo", "cat"]\n')
    events = run(folder, profile, "SHELL-01")["SHELL-01"]
    assert outcomes(events) == {"pass", "n/a"}, events
    reasons = [e["evidence"] for e in events if e["outcome"] == "n/a"]
    assert any("'printf'" in r and "[tools.bash].allowed_programs" in r for r in reasons), reasons


def test_confine_16_reports_a_path_tool_escape_as_a_failure_not_a_harness_error(
        tmp_path: Path) -> None:
    """@agent-infra/mcp-server-filesystem's create_directory made <root>_evil/... (its prefix
    check): CONFINE-16's generated paths hit a harness error (hypothesis: FlakyStrategyDefinition)
    because the folder the first example made outside was still there when it replayed it."""
    found = verdicts(tmp_path, "CONFINE-16", "mkdir-anywhere", "only=read,write,mkdir",
                     extra=CODES + '\n[tools.make_directory]\nname = "mkdir"\n')
    assert "fail" in found["CONFINE-16"] and "harness-error" not in found["CONFINE-16"], found
