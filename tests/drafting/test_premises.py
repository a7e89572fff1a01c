"""The draft proves its premises before any verdict stands on them (init_from/premises.py):
what it cannot prove is "not judged" in the run, never failed; and a defect a probe saw is
never switched off, so a raw draft of a broken implementation still fails the clause."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from agentconf.init_from.premises import Premise, counted

HERE = Path(__file__).resolve().parent  # premise_shapes.py
BOUND_S = 600


def _agentconf(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(HERE), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "agentconf", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=BOUND_S, check=False,
                          stdin=subprocess.DEVNULL)


def _draft(folder: Path, spec: str) -> tuple[dict[str, Any], str]:
    folder.mkdir(parents=True, exist_ok=True)
    done = _agentconf(folder, "init", "--from", spec)
    assert done.returncode == 0, done.stdout + done.stderr
    return tomllib.loads((folder / "agentconf.toml").read_text("utf-8")), done.stdout


def _statuses(folder: Path, clauses: str) -> dict[str, dict[str, Any]]:
    done = _agentconf(folder, "run", "--impl", "agentconf.toml", "--clauses", clauses,
                      "--report", "report")
    document = folder / "report" / "conformance.json"
    assert document.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    found = json.loads(document.read_text("utf-8"))
    assert found["harness_errors"] == [], found["harness_errors"]
    return {clause["id"]: clause for clause in found["clauses"]}


def test_the_reference_proves_every_premise(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:agentconf.reference:create")
    assert "unproven" not in profile, console
    assert "self-check: 18 of 18 premises proven" in console  # timeout_ms, shell syntax
    assert "next: agentconf run" in console and "judges almost nothing" not in console


def test_a_root_it_does_not_work_in_is_not_judged_never_failed(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:ElsewhereRoot")
    assert set(profile["unproven"]) == {"write_file", "read_file", "edit_file", "apply_patch",
                                        "list_files", "grep"}, console
    assert "NOT PROVEN" in console and "bash" not in profile["unproven"]
    found = _statuses(tmp_path, "READ-02,EDIT-02,SHELL-01")
    assert found["READ-02"]["status"] == found["EDIT-02"]["status"] == "n/a"
    assert "not judged: read_file" in json.dumps(found["READ-02"])
    assert found["SHELL-01"]["status"] == "pass"


def test_a_tool_its_name_picked_wrongly_gives_way_to_the_one_that_works(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:MisleadingNames")
    assert profile["tools"]["read_file"]["name"] == "read", console
    assert "unproven" not in profile, console
    assert "confirmed by a probe: 'read_file'" in (tmp_path / "agentconf.toml").read_text()


def test_a_lister_that_names_folders_is_taken_over_a_file_finder(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:GlobBesideLs")
    assert profile["tools"]["list_files"]["name"] == "ls", console
    assert "unproven" not in profile, console
    assert "preferred by a probe: it names the folder beside the file too, where 'glob'" in (
        tmp_path / "agentconf.toml").read_text()


def test_a_search_that_shows_its_lines_is_taken_over_one_that_names_files(
        tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:PathSearchBesideGrep")
    assert profile["tools"]["grep"]["name"] == "search_in_files", console
    assert "preferred by a probe: it shows the line it found" in (
        tmp_path / "agentconf.toml").read_text()


def test_a_lister_a_tree_tool_claimed_first_is_still_taken_for_the_listing(
        tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:GlobBesideTreeLister")
    assert profile["tools"]["list_files"]["name"] == "list_directory", console
    assert "unproven" not in profile, console


def test_a_shells_own_output_bound_is_drafted_from_what_it_kept(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:OwnOutputBound")
    bound = profile["tools"]["bash"]["limits"]["max_output_chars"]
    assert 100_000 - 20 <= bound <= 100_000, console
    found = _statuses(tmp_path, "TRUNCATE-01,TRUNCATE-02,TRUNCATE-06")
    assert found["TRUNCATE-01"]["status"] == "pass", found["TRUNCATE-01"]["evidence"]
    # Less what it adds to every answer ("exit code 0"): output of the bound comes back whole.
    assert found["TRUNCATE-06"]["status"] == "pass", found["TRUNCATE-06"]["evidence"]
    assert found["TRUNCATE-02"]["status"] == "fail"  # its head is lost: a departure still


def test_a_shells_own_output_bound_a_json_field_says_is_drafted_too(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:OwnOutputBoundFlagged")
    bound = profile["tools"]["bash"]["limits"]["max_output_chars"]
    assert 100_000 - 20 <= bound <= 100_000, console
    found = _statuses(tmp_path, "TRUNCATE-01")
    assert found["TRUNCATE-01"]["status"] == "pass", found["TRUNCATE-01"]["evidence"]


def test_a_shells_own_output_bound_is_drafted_in_the_unit_its_schema_names(
        tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:OwnOutputBoundInBytes")
    bound = profile["tools"]["bash"]["limits"]["max_output_bytes"]
    assert 100_000 - 20 <= bound <= 100_000, console
    found = _statuses(tmp_path, "TRUNCATE-06")
    assert found["TRUNCATE-06"]["status"] == "pass", found["TRUNCATE-06"]["evidence"]


def test_a_reads_own_output_bound_a_json_field_says_is_drafted(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:ReadKeepsItsOwnBound")
    assert profile["tools"]["read_file"]["limits"] == {"max_output_chars": 200_000}, console
    found = _statuses(tmp_path, "TRUNCATE-01")
    assert found["TRUNCATE-01"]["status"] == "pass", found["TRUNCATE-01"]["evidence"]


def test_a_patch_tool_of_another_format_is_not_judged_never_failed(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:UnifiedDiffPatch")
    assert set(profile["unproven"]) == {"apply_patch"}, console
    found = _statuses(tmp_path, "PATCH-01,PATCH-02")
    assert {clause: found[clause]["status"] for clause in found} == {
        "PATCH-01": "n/a", "PATCH-02": "n/a"}
    assert "not judged: apply_patch" in json.dumps(found["PATCH-02"])


def test_a_timed_out_flag_beside_the_exit_code_is_timeout(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:TimedOutFlag")
    assert profile["tools"]["bash"]["result"]["flags"] == {"timed_out": "TIMEOUT"}, console
    found = _statuses(tmp_path, "SHELL-04,SHELL-02")  # TIMEOUT; NONZERO_EXIT
    assert {clause: found[clause]["status"] for clause in found} == {
        "SHELL-04": "pass", "SHELL-02": "pass"}


def test_a_refusal_shaped_as_a_success_is_read_by_its_flag(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:BinaryFlag")
    assert profile["tools"]["read_file"]["result"]["flags"] == {"is_binary": "BINARY_FILE"}, \
        console
    found = _statuses(tmp_path, "READ-04,READ-01")
    assert {clause: found[clause]["status"] for clause in found} == {
        "READ-04": "pass", "READ-01": "pass"}


def test_a_window_its_schema_counts_from_zero_is_sent_counted_from_zero(tmp_path: Path) -> None:
    """`start` defaulting to 0 and the third line for line 2 alone: offset_base 0, and the
    window clauses judge the lines asked for, not the ones after them."""
    profile, console = _draft(tmp_path, "python:premise_shapes:ZeroBasedWindow")
    read = profile["tools"]["read_file"]
    assert read["args"] == {"start_line": "start", "end_line": "end"}, console
    assert read.get("offset_base") == 0, console
    found = _statuses(tmp_path, "READ-06,READ-08,READ-12")
    assert {clause: found[clause]["status"] for clause in found} == dict.fromkeys(
        ("READ-06", "READ-08", "READ-12"), "pass")


def test_a_window_of_offset_and_limit_is_refused_where_its_schema_names_it(
        tmp_path: Path) -> None:
    """A window ending before it starts is a count below 1 in offset/limit: its refusal's issue
    names `$.limit`, the field the implementation has, not the canonical `end_line`."""
    profile, console = _draft(tmp_path, "python:premise_shapes:OffsetLimitWindow")
    assert profile["tools"]["read_file"].get("window") == "offset_limit", console
    found = _statuses(tmp_path, "READ-12,READ-06")
    assert {clause: found[clause]["status"] for clause in found} == {
        "READ-12": "pass", "READ-06": "pass"}, found


def test_a_runner_taking_the_program_apart_is_exec_not_a_shell(tmp_path: Path) -> None:
    """`command` (a program's name) beside a list of `arguments`: exec, argv's first item sent
    as the command; no shell is drafted from it, and the EXEC clauses judge it."""
    profile, console = _draft(tmp_path, "python:premise_shapes:ProgramApart")
    assert profile["tools"]["exec"]["name"] == "shell_run", console
    assert profile["tools"]["exec"]["args"]["argv"] == "arguments", console
    assert profile["tools"]["exec"]["program"] == "command", console
    assert "bash" not in profile["tools"] and "unproven" not in profile, console
    found = _statuses(tmp_path, "EXEC")
    statuses = {clause: found[clause]["status"] for clause in found}
    assert statuses["EXEC-01"] == statuses["EXEC-02"] == statuses["EXEC-04"] == "pass", statuses
    assert "fail" not in statuses.values(), statuses


def test_a_plain_success_of_a_tool_with_unproven_refusals_is_not_judged_as_a_refusal(
    tmp_path: Path
) -> None:
    """READ-11's window past the end answered an empty success, which it allows, from a read
    whose refusals the draft could not tell from its successes (skydeckai-code 0.1.41): judged
    as a refusal, the check asked for the line count and failed on a premise never proven."""
    profile, console = _draft(tmp_path, "python:premise_shapes:EmptyWindowPastTheEnd")
    assert "unproven" not in profile, console
    assert _statuses(tmp_path, "READ-11")["READ-11"]["status"] == "pass"
    with (tmp_path / "agentconf.toml").open("a", encoding="utf-8") as draft:
        draft.write('\n[unproven.read_file]\nrefusals = "as a draft writes it when no marker '
                    'tells its refusals from its successes"\n')
    checks = {test["nodeid"].split("::")[-1]: test
              for test in _statuses(tmp_path, "READ-11")["READ-11"]["tests"]
              if "window_past_the_end" in test["nodeid"] and "None" not in test["nodeid"]}
    assert checks and {test["outcome"] for test in checks.values()} == {"n/a"}, checks
    assert all("not judged: read_file's refusals" in test["evidence"]
               for test in checks.values()), checks


def test_refusals_said_only_in_words_are_drafted_as_failures_everywhere(tmp_path: Path) -> None:
    """Every refusal a success starting "Error: ", an unknown tool's too: the draft marks each
    tool's answers and, for tools with no table, [implementation].failure; the run then judges
    the refusals (their codes unread: RESULT-02's alone)."""
    profile, console = _draft(tmp_path, "python:premise_shapes:ErrorsInWords")
    assert "unproven" not in profile, console
    assert "Error" in profile["implementation"]["failure"]["matches"]
    assert "Error" in profile["tools"]["read_file"]["result"]["failure"]["matches"]
    clauses = ("READ-02", "EDIT-02", "REGISTRY-04", "CONFINE-01", "GREP-06", "GREP-08",
               "SHELL-02", "LIST-03")
    found = _statuses(tmp_path, ",".join(clauses))
    assert {cid: found[cid]["status"] for cid in found} == dict.fromkeys(clauses, "pass")


@pytest.mark.parametrize("shell", ["GatedShell", "GatedShellInOtherWords"])
def test_a_shell_behind_a_policy_is_found_by_what_it_declines(tmp_path: Path, shell: str) -> None:
    """A policy that declines most programs, listed nowhere: every shell check needing one
    failed; the draft tries each program once and declares the ones that ran, whatever words
    the policy declines in."""
    profile, console = _draft(tmp_path, f"python:premise_shapes:{shell}")
    allowed = set(profile["tools"]["bash"]["allowed_programs"])
    assert {"echo", "cat"} <= allowed and not {"sleep", "sh", "kill"} & allowed, console
    found = _statuses(tmp_path, "SHELL-01,SHELL-02,SHELL-04")
    assert found["SHELL-01"]["status"] == "pass"
    assert found["SHELL-02"]["status"] == "pass", found["SHELL-02"]  # `exit` it allows
    assert found["SHELL-04"]["status"] == "n/a", found["SHELL-04"]


def test_a_file_every_program_cannot_open_is_no_gate(tmp_path: Path) -> None:
    """A shell over a virtual filesystem has no /dev/null: `cat /dev/null` and `head -c 0
    /dev/null` failed alike, bar the name, and were read as one gate's refusals; cat and head
    were drafted declined, and the checks needing them (TRUNCATE-03/05, SHELL-12) n/a."""
    profile, console = _draft(tmp_path, "python:premise_shapes:ShellWithoutDevNull")
    assert "allowed_programs" not in profile["tools"]["bash"], console


# (mutant, its clause): defects a probe of the draft sees, which once switched the feature off
# (crlf_preserve, truncation) or read an ordinary success as no refusal at all.
GALLERY = "agentconf.selfcheck.gallery:"
DRAFTED_DEFECTS = [
    pytest.param(GALLERY + "LfOnlyWrite", "EOL-01", id="crlf-flattened"),
    pytest.param(GALLERY + "NoTruncation", "TRUNCATE-01", id="unbounded"),
    pytest.param(GALLERY + "ListMissingFolderIsEmpty", "LIST-03", id="missing-folder-empty"),
    pytest.param(GALLERY + "PrefixContainment", "CONFINE-04", id="prefix-containment"),
]


@pytest.mark.parametrize(("mutant", "clause"), DRAFTED_DEFECTS)
def test_a_raw_draft_of_a_mutant_still_fails_its_clause(
        tmp_path: Path, mutant: str, clause: str) -> None:
    profile, console = _draft(tmp_path, f"python:{mutant}")
    assert "unproven" not in profile, console
    assert _statuses(tmp_path, clause)[clause]["status"] == "fail"


def test_premises_are_proven_in_a_root_the_probes_left_nothing_in(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:GrepAbortsOnLoops")
    assert "grep" not in profile.get("unproven", {}), console
    assert "grep" in profile["tools"], console


def test_a_premise_not_tried_is_counted_apart_not_as_proven() -> None:
    """mcp-workspace's search has no path argument, so "a search in a missing folder" could not
    be sent: the self-check said "10 of 10 premises proven" with it among the ten."""
    premises = [Premise("read_file", "calls", True, "a read: yes"),
                Premise("grep", "refusals", True, "not tried: search_files has no 'path'"),
                Premise("grep", "calls", False, "a search: no")]
    assert counted(premises) == ("1 of 2 premises proven (1 not tried: nothing of that kind can "
                                 "be sent, so no check sends it)")
    assert counted(premises[:1]) == "1 of 1 premises proven"


def test_a_tool_whose_json_says_it_failed_gets_its_own_failure_marker(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:WriteStatusInJson")
    assert profile["tools"]["write_file"]["result"]["failure"] == {
        "path": "success", "equals": False}, console
    assert "failure" not in profile["tools"]["read_file"].get("result", {}), console
    assert "write_file refusals: a write under a regular file is recognised as a failure: yes" \
        in (tmp_path / "agentconf.toml").read_text()
    found = _statuses(tmp_path, "CONFINE-01,EDIT-17")
    assert {clause: found[clause]["status"] for clause in found} == {
        "CONFINE-01": "pass", "EDIT-17": "pass"}


def test_a_made_up_value_a_refusal_quotes_leaves_every_tool_sending_it_not_judged(
        tmp_path: Path) -> None:
    """The listing's premise cannot be tried (no path to send), but its calls carry the text
    the draft made up that every other tool's refusal quotes: CONFINE-15 is not judged on it."""
    profile, console = _draft(tmp_path, "python:premise_shapes:MadeUpSessionRefused")
    assert "list_files" in profile["unproven"], console
    assert "session_id" in profile["unproven"]["list_files"]["calls"], console
    assert "a run now judges almost nothing" in console, console
    found = _statuses(tmp_path, "CONFINE-15")
    assert found["CONFINE-15"]["status"] == "n/a", json.dumps(found["CONFINE-15"])[:2000]


def test_a_probe_of_a_wrong_type_is_sent_as_the_checks_send_it(tmp_path: Path) -> None:
    """Nested where the profile nests it: the words learned for INVALID_ARGS are those the run's
    wrong types get, and RESULT-02 reads them."""
    profile, console = _draft(tmp_path, "python:premise_shapes:NestedParams")
    learned = [entry for entry in profile.get("error_patterns", [])
               if entry.get("code") == "INVALID_ARGS"]
    assert any("string" in entry["pattern"] for entry in learned), console
    found = _statuses(tmp_path, "VALIDATE-02")
    assert found["VALIDATE-02"]["status"] == "pass", json.dumps(found["VALIDATE-02"])[:3000]


def test_a_required_argument_that_may_be_null_is_sent_null(tmp_path: Path) -> None:
    """Not a made-up text (an id nobody issued, refused): the draft sends null, which TOML
    cannot write, by `nulls`, and the calls work."""
    profile, console = _draft(tmp_path, "python:premise_shapes:NullSession")
    assert profile["tools"]["read_file"]["nulls"] == ["session_id"], console
    assert "unproven" not in profile, console
    found = _statuses(tmp_path, "READ-01")
    assert found["READ-01"]["status"] == "pass", json.dumps(found["READ-01"])[:2000]


def test_a_status_and_a_flag_nested_in_a_wrapped_answer_are_read_where_they_are(
        tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:WrappedTimedOutFlag")
    result = profile["tools"]["bash"]["result"]
    assert result["failure"] == {"path": "data.exit_code", "not_equals": 0}, console
    assert result["flags"] == {"data.timed_out": "TIMEOUT"}, console
    assert "data.exit_code" in result["text"], console
    found = _statuses(tmp_path, "SHELL-04,SHELL-02")
    assert {clause: found[clause]["status"] for clause in found} == {
        "SHELL-04": "pass", "SHELL-02": "pass"}


def test_a_model_argument_behind_a_reference_is_mapped_through_it(tmp_path: Path) -> None:
    """Its fields are read where the reference points: every tool mapped through `input`, its
    premises proven, and the run judges confinement on them."""
    profile, console = _draft(tmp_path, "python:premise_shapes:ModelArgument")
    assert profile["tools"]["read_file"]["args"]["path"] == "input.path", console
    assert profile["tools"]["write_file"]["args"]["content"] == "input.content", console
    assert "unproven" not in profile, console
    found = _statuses(tmp_path, "READ-01,CONFINE-01")
    assert {cid: found[cid]["status"] for cid in ("READ-01", "CONFINE-01")} == {
        "READ-01": "pass", "CONFINE-01": "pass"}, json.dumps(found)[:3000]


def test_structured_issues_are_settled_on_whichever_tool_takes_text(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:PlainListerOnly")
    assert profile["capabilities"]["validation_issues"] is False, console
    found = _statuses(tmp_path, "VALIDATE-10")
    assert found["VALIDATE-10"]["status"] == "n/a", json.dumps(found["VALIDATE-10"])[:2000]


def test_a_required_option_is_drafted_as_the_one_the_calls_work_with(tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:TwoRoots")
    assert {table["defaults"]["root"] for table in profile["tools"].values()} == {"data"}, console
    assert "unproven" not in profile, console
    found = _statuses(tmp_path, "READ-01,RESULT-02")
    assert {cid: found[cid]["status"] for cid in ("READ-01", "RESULT-02")} == {
        "READ-01": "pass", "RESULT-02": "pass"}, json.dumps(found)[:3000]


def test_a_nested_flag_is_read_beside_the_text_the_profile_reads(tmp_path: Path) -> None:
    """The flag is read from the whole answer, not from the part the draft reads as its text
    (`data.content`, null here): READ-04 judges the refusal the implementation made."""
    profile, console = _draft(tmp_path, "python:premise_shapes:WrappedBinaryFlag")
    assert profile["tools"]["read_file"]["result"]["flags"] == {"data.binary": "BINARY_FILE"}, \
        console
    found = _statuses(tmp_path, "READ-04,READ-01")
    assert {clause: found[clause]["status"] for clause in found} == {
        "READ-04": "pass", "READ-01": "pass"}


def test_a_command_runner_without_a_shell_judges_its_plain_commands_alone(tmp_path: Path) -> None:
    """praisonaiagents' execute_command splits its command into a program's arguments and refuses
    `;`, `|`, `$`: a check whose command uses them judged that, not its clause (nine clauses
    failed: a timeout never started, an output never printed)."""
    from draft_programs import toy_spec

    profile, console = _draft(tmp_path, toy_spec("split-command"))
    assert set(profile["unproven"]["bash"]) == {"syntax"}, console
    # what it prints to stderr is read too, found by commands of no shell syntax
    assert {"stdout", "stderr"} <= set(profile["tools"]["bash"]["result"]["text"]), console
    found = _statuses(tmp_path, "SHELL-01,SHELL-06,RESULT-02")
    for clause in ("SHELL-01", "SHELL-06", "RESULT-02"):
        assert found[clause]["status"] != "fail", found[clause]
    said = json.dumps(found)
    assert "not judged: bash: shell syntax" in said and "shell syntax is not supported" in said


def test_a_write_that_answers_success_and_writes_nothing_keeps_its_clause_on(
        tmp_path: Path) -> None:
    """A probe that watched a false success never switches the feature off: EDIT-14 was n/a
    ("creates missing folders: off") where it must fail."""
    profile, console = _draft(tmp_path, "python:premise_shapes:WritesNothingUnderMissingFolders")
    assert profile["capabilities"]["create_parents"] is True, console
    draft = (tmp_path / "agentconf.toml").read_text()
    assert "nothing was written; create_parents stays on" in draft, draft
    found = _statuses(tmp_path, "EDIT-14,CONFINE-03,SYMLINK-04")
    assert found["EDIT-14"]["status"] == "fail"
    # One cause, one clause: `~/new.txt` and a path through a link to a missing folder wrote
    # nothing, as every write under a missing folder did.
    for clause in ("CONFINE-03", "SYMLINK-04"):
        assert found[clause]["status"] != "fail", found[clause]


def test_a_patch_that_says_done_and_changes_nothing_is_a_departure_not_a_refusal(
        tmp_path: Path) -> None:
    profile, console = _draft(tmp_path, "python:premise_shapes:PatchSaysDoneOnAMiss")
    assert "apply_patch" not in profile.get("unproven", {}), console
    assert "failure" not in profile["tools"]["apply_patch"].get("result", {}), console
    assert _statuses(tmp_path, "PATCH-05")["PATCH-05"]["status"] == "fail"
