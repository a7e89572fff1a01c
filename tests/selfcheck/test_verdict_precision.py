"""Verdicts charged right, both ways: each variant of `conformant.py` reproduces a false verdict
seen against a real implementation, and the run against it must now say what the contract says.

Each check is a real `agentconf run --clauses ...` against the variant over the `python:`
adapter, read back from conformance.json; no run may end in a harness error (our bug).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# The folder of conformant.py, which a run imports its variants from (python:conformant:NAME).
HERE = Path(__file__).resolve().parent
RUN_TIMEOUT_S = 300
REFERENCE_SNAPSHOTS = HERE.parents[1] / "fixtures" / "snapshots" / "reference"


def run(tmp_path: Path, spec: str, clauses: list[str], **env: str) -> dict[str, Any]:
    """The conformance document of a run of `clauses` against `spec` (a variant or a profile)."""
    report = tmp_path / "report"
    variables = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", spec, "--clauses",
         ",".join(clauses), "--report", str(report)],
        cwd=tmp_path, env=variables, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
        stdin=subprocess.DEVNULL, check=False,
    )
    document = report / "conformance.json"
    assert document.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    result: dict[str, Any] = json.loads(document.read_text("utf-8"))
    assert result["harness_errors"] == [], result["harness_errors"]
    assert result["summary"]["executed"] == result["summary"]["planned"]
    return result


def statuses(document: dict[str, Any]) -> dict[str, str]:
    return {clause["id"]: clause["status"] for clause in document["clauses"]}


CONFORMANT = [
    pytest.param("ReadGuardFirst", ["EDIT-17"], {}, id="edit-17-read-guard-first"),
    pytest.param("WholeFileBinary", ["EDIT-19"], {}, id="edit-19-whole-file-binary"),
    pytest.param("LiteralGrep", ["SYMLINK-07", "CONFINE-13"], {}, id="symlink-07-literal-grep"),
    pytest.param("DefaultLineWindow", ["CONCUR-04"], {}, id="concur-04-line-window"),
    # The runner's home folder spelled like the tail of the sandbox's `…/sandbox/root`.
    pytest.param("QuotesItsRootShortened", ["RESULT-08"], {"HOME": "/root"},
                 id="result-08-home-as-path-tail"),
    pytest.param("DashShell", ["SHELL-04", "SHELL-07"], {}, id="shell-04-07-dash"),
    pytest.param("RefusesAbsoluteListing", ["LIST-01"], {}, id="list-01-absolute-refused"),
    # Refusing every search near a link shows nothing from outside: no SYMLINK-07 failure.
    pytest.param("GrepRefusesLinks", ["SYMLINK-07"], {}, id="symlink-07-links-refused"),
    pytest.param("GrepRefusesLinksAsNoFolder", ["SYMLINK-07"], {},
                 id="symlink-07-links-refused-as-no-folder"),
    pytest.param("GrepAnswersJsonRecords", ["GREP-01"], {}, id="grep-01-json-records"),
    pytest.param("ReportsItsBackups", ["EDIT-16"], {}, id="edit-16-backups-named"),
    pytest.param("GrepMarksMatches", ["GREP-01"], {}, id="grep-01-matches-marked"),
    pytest.param("ListsLinkTargets", ["SYMLINK-06"], {}, id="symlink-06-link-targets-shown"),
    pytest.param("ReadsManyFiles", ["VALIDATE-02"], {}, id="validate-02-list-a-declared-form"),
    pytest.param("WritesEmptyByDefault", ["VALIDATE-01"], {},
                 id="validate-01-content-optional-by-its-schema"),
    pytest.param("NamesItsTempFolder", ["RESULT-08"], {}, id="result-08-its-own-temp-folder"),
]


@pytest.mark.parametrize(("variant", "clauses", "env"), CONFORMANT)
def test_a_conformant_difference_passes_its_clauses(
    tmp_path: Path, variant: str, clauses: list[str], env: dict[str, str]
) -> None:
    document = run(tmp_path, f"python:conformant:{variant}", clauses, **env)
    assert {cid: statuses(document)[cid] for cid in clauses} == dict.fromkeys(clauses, "pass")


def test_a_write_the_cancel_did_not_stop_is_judged_when_it_is_done(tmp_path: Path) -> None:
    """Partial while it streams on after the cancel, whole once done (served over a pipe: the
    write goes on between calls): what the cancel leaves is judged, not the write in flight."""
    spec = (f"cmd:{sys.executable} -P -m agentconf.selfcheck.serve_mutant "
            "conformant:WriteFinishesAfterCancel {root}")
    document = run(tmp_path, spec, ["CANCEL-02"])
    assert statuses(document) == {"CANCEL-02": "pass"}


def test_a_cancel_of_a_write_refused_outright_is_not_judged(tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:RefusesBigWrites", ["CANCEL-02"])
    assert statuses(document) == {"CANCEL-02": "n/a"}
    assert "no cancelled write was seen" in json.dumps(document["clauses"])


def test_a_refusal_in_words_after_an_absolute_path_is_not_judged_a_success(
        tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:RefusesFoldersInWords", ["READ-03"])
    assert statuses(document) == {"READ-03": "n/a"}
    assert "words that refuse" in json.dumps(document["clauses"])


def test_a_shell_failure_said_beside_the_text_the_profile_reads_is_judged_whole(
        tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:ShellAnswersAnObject"\n'
                       '[tools.bash]\nresult = { text = ["stdout", "stderr"], exit_code = "code", '
                       'failure = { path = "code", not_equals = 0 } }\n', "utf-8")
    clauses = ["SHELL-02", "RESULT-03", "SHELL-05"]
    document = run(tmp_path, str(profile), clauses)
    assert {cid: statuses(document)[cid] for cid in clauses} == dict.fromkeys(clauses, "pass")


def test_a_count_of_what_was_cut_in_a_field_beside_the_text_is_a_count(tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:CutShellCountedInAField"\n'
                       '[tools.bash]\nresult = { text = "stdout", exit_code = "exit_code" }\n',
                       "utf-8")
    assert statuses(run(tmp_path, str(profile), ["TRUNCATE-03"])) == {"TRUNCATE-03": "pass"}


def test_a_bound_declared_in_bytes_is_judged_in_bytes(tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:ShellCapsBytes"\n'
                       '[tools.bash]\nlimits = { max_output_bytes = 8000 }\n', "utf-8")
    clauses = ["TRUNCATE-04", "TRUNCATE-05", "TRUNCATE-06"]
    document = run(tmp_path, str(profile), clauses)
    assert {cid: statuses(document)[cid] for cid in clauses} == dict.fromkeys(clauses, "pass")


def test_a_link_out_into_missing_folders_refused_for_the_folders_passes(tmp_path: Path) -> None:
    """Where writes make no folders (create_parents off), NOT_FOUND for missing folders behind a
    link out is a true cause the write may check first; nothing made outside is the rest."""
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:NoParentFolders"\n'
                       "[capabilities]\ncreate_parents = false\n", "utf-8")
    assert statuses(run(tmp_path, str(profile), ["SYMLINK-03"])) == {"SYMLINK-03": "pass"}


def test_a_path_tool_taking_a_list_of_changes_is_judged_with_their_required_action(
        tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:ChangeListEscapes"\n'
                       '[tools.extra.apply_changes]\npaths = ["changes[0].path"]\n', "utf-8")
    document = run(tmp_path, str(profile), ["CONFINE-16"])
    assert statuses(document) == {"CONFINE-16": "fail"}
    assert "apply_changes" in json.dumps(document["clauses"])


def test_a_scenario_the_shell_cannot_make_is_not_judged(tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:ShellWithoutDevZero",
                   ["SHELL-08", "SHELL-12"])
    found = {clause["id"]: clause for clause in document["clauses"]}
    # The golden case of SHELL-08 floods with `seq`, which this shell has: it still judges.
    assert found["SHELL-12"]["status"] == "n/a", found["SHELL-12"]
    assert "did not make the" in json.dumps(document["clauses"])


def test_output_a_shell_limit_never_printed_is_not_judged(tmp_path: Path) -> None:
    # TRUNCATE-02's case fails on purpose after its output (`(exit 3)`): the shell's 126 for a
    # loop it would not run tells that output never happened too (just-bash-mcp 3.1.0).
    document = run(tmp_path, "python:conformant:ShellWithLoopLimit",
                   ["TRUNCATE-01", "SHELL-08", "TRUNCATE-02"])
    assert statuses(document) == {"TRUNCATE-01": "pass", "SHELL-08": "pass",
                                  "TRUNCATE-02": "pass"}
    not_judged = [test["evidence"] for clause in document["clauses"] for test in clause["tests"]
                  if test["outcome"] == "n/a"]
    assert any("the long output never happened" in (text or "") for text in not_judged), (
        not_judged)


def test_a_shell_outside_the_root_fails_shell_06_alone(tmp_path: Path) -> None:
    clauses = ["SHELL-06", "SHELL-05", "TRUNCATE-01", "TRUNCATE-03", "TRUNCATE-06"]
    # It runs commands in the root's parent: what they write lands outside (CONFINE-14's too).
    document = run(tmp_path, "python:agentconf.selfcheck.gallery:CwdNotRoot", clauses)
    assert {cid: statuses(document)[cid] for cid in clauses} == {
        "SHELL-06": "fail", "SHELL-05": "pass", "TRUNCATE-01": "pass", "TRUNCATE-03": "n/a",
        "TRUNCATE-06": "pass"}
    evidence = next(c["evidence"] for c in document["clauses"] if c["id"] == "TRUNCATE-03")
    assert "working folder is SHELL-06's" in evidence, evidence


def test_a_tilde_path_on_an_absolute_path_implementation_is_judged_on_expansion_alone(
    tmp_path: Path
) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:RelativePathsElsewhere"\n'
                       'absolute_paths = true\n', "utf-8")
    assert statuses(run(tmp_path, str(profile), ["CONFINE-03", "CONFINE-16"])) == {
        "CONFINE-03": "pass", "CONFINE-16": "pass"}


def test_a_clause_of_what_a_declaration_promises_is_not_judged_where_none_is_made(
    tmp_path: Path
) -> None:
    document = run(tmp_path, "python:conformant:DeclaresNothing", ["ANNOTATION-01"])
    assert statuses(document) == {"ANNOTATION-01": "n/a"}
    outcomes = {test["outcome"] for clause in document["clauses"] for test in clause["tests"]}
    assert outcomes == {"n/a"}, outcomes


def test_a_read_tool_that_declares_nothing_is_no_changer_in_the_read_only_mode(
    tmp_path: Path
) -> None:
    """SURFACE-02 held every tool not declared read-only to TOOL_NOT_FOUND in the read-only
    mode, read_file too, which SURFACE-04 wants answering there (bridgemcp-server-filesystem
    0.1.1 declares no hints)."""
    document = run(tmp_path, "python:conformant:DeclaresNothing", ["SURFACE-02", "SURFACE-04"])
    assert statuses(document) == {"SURFACE-02": "pass", "SURFACE-04": "pass"}


def test_a_search_a_link_loop_breaks_is_the_loops_clause_not_grep_01(tmp_path: Path) -> None:
    clauses = ["SYMLINK-07", "GREP-01", "SYMLINK-05"]
    document = run(tmp_path, "python:conformant:SearchGivesUpOnLoops", clauses)
    assert statuses(document) == {"SYMLINK-07": "pass", "GREP-01": "pass", "SYMLINK-05": "fail"}


def test_a_command_the_shell_s_policy_refused_never_ran_and_is_not_judged(
    tmp_path: Path
) -> None:
    document = run(tmp_path, "python:conformant:ShellPolicyRefusesExpansions", ["SHELL-10"])
    assert statuses(document) == {"SHELL-10": "n/a"}
    evidence = next(c["evidence"] for c in document["clauses"] if c["id"] == "SHELL-10")
    assert "refused the check's command by its own permission policy" in evidence, evidence


def test_a_path_argument_spelled_file_path_is_not_taken_for_an_unknown_argument(
    tmp_path: Path
) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text(
        '[implementation]\nspec = "python:conformant:FilePathArgument"\n'
        '[tools.read_file]\nargs = { path = "file_path" }\n', "utf-8")
    document = run(tmp_path, str(profile), ["VALIDATE-03"])
    assert statuses(document)["VALIDATE-03"] == "pass"


@pytest.mark.parametrize(("variant", "place", "verdict"),
                         [("ReadsAsJson", "content", "pass"),
                          ("ReadsAsJsonWithoutSize", "content", "fail"),
                          ("ReadsAsJsonEchoingItsPath", "/0/content", "fail")])
def test_an_empty_file_is_judged_on_the_whole_answer_not_the_text_read_from_it(
    tmp_path: Path, variant: str, place: str, verdict: str
) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text(
        f'[implementation]\nspec = "python:conformant:{variant}"\n'
        f'[tools.read_file.result]\ntext = "{place}"\n', "utf-8")
    document = run(tmp_path, str(profile), ["READ-09", "READ-01"])
    assert statuses(document) == {"READ-09": verdict, "READ-01": "pass"}


def test_should_gaps_fail_their_should_clauses_and_no_must_clause(tmp_path: Path) -> None:
    clauses = ["RESULT-05", "READ-10", "RESULT-06", "RESULT-07", "RESULT-08", "EDIT-01"]
    # A short call budget: the blocking FIFO reads are waited out, not 10 s each.
    document = run(tmp_path, "python:conformant:ShouldGaps", clauses,
                   AGENTCONF_TIMEOUT="2")
    found = statuses(document)
    assert found["RESULT-05"] == "fail" and found["READ-10"] in ("fail", "error")
    assert {cid: found[cid] for cid in clauses[2:]} == dict.fromkeys(clauses[2:], "pass")


def test_a_claimed_write_that_never_landed_is_a_failure_not_a_kit_crash(tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:ClaimsWritesItDropped",
                   ["CONFINE-10", "SYMLINK-11"])
    assert statuses(document) == {"CONFINE-10": "fail", "SYMLINK-11": "fail"}
    evidence = " ".join(c["evidence"] or "" for c in document["clauses"])
    assert "is not a readable file in the root" in evidence


def test_a_reworded_message_is_a_message_change_not_a_failed_clause(tmp_path: Path) -> None:
    snapshots = tmp_path / "snapshots"
    shutil.copytree(REFERENCE_SNAPSHOTS, snapshots)
    report = tmp_path / "report"
    variables = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl",
         "python:conformant:OneMessageReworded", "--snapshot-dir", str(snapshots),
         "--report", str(report)],
        cwd=tmp_path, env=variables, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
        stdin=subprocess.DEVNULL, check=False)
    document = json.loads((report / "conformance.json").read_text("utf-8"))
    changed = [test["nodeid"] for test in document["messages"]]
    assert changed == [
        "suites/test_messages.py::test_message_snapshot[read_file-read-missing]"], changed
    assert "No such file here" in document["messages"][0]["evidence"]
    assert all(clause["status"] in ("pass", "n/a") for clause in document["clauses"]
               if clause["level"] == "MUST"), done.stdout[-3000:]
    assert done.returncode == 1 and "differ from their snapshots" in done.stdout


# A refusal is judged by its behaviour, its code only where one is read: an implementation that
# refuses rightly and names no code fails RESULT-02 alone, not every clause whose refusal it was.
UNREAD_CODE_CLAUSES = ["RESULT-02", "RESULT-06", "CONFINE-01", "CONFINE-02", "SYMLINK-01",
                       "EDIT-02", "EDIT-03", "EDIT-08", "EDIT-11", "READ-02", "READ-03",
                       "READ-04", "SHELL-02", "VALIDATE-01", "REGISTRY-04"]


def result_02_alone(tmp_path: Path, mutant: str, clauses: list[str]
                    ) -> tuple[dict[str, Any], dict[str, str]]:
    """The run of `clauses` against a gallery mutant, and every clause's status but RESULT-02's,
    which must fail."""
    document = run(tmp_path, f"python:agentconf.selfcheck.gallery:{mutant}", clauses)
    found = statuses(document)
    assert found.pop("RESULT-02") == "fail"
    return document, found


def test_a_refusal_without_a_code_fails_result_02_alone(tmp_path: Path) -> None:
    document, found = result_02_alone(tmp_path, "RefusesWithoutCodes", UNREAD_CODE_CLAUSES)
    assert found == dict.fromkeys(UNREAD_CODE_CLAUSES[1:], "pass")
    evidence = next(c["evidence"] for c in document["clauses"] if c["id"] == "RESULT-02")
    assert "no contract code could be read from this refusal" in evidence


# Checks that decide by themselves whether a call was refused: each a place where a success in
# words that refuse could be taken at its envelope's word.
WORDED_REFUSAL_CLAUSES = [*UNREAD_CODE_CLAUSES, "VALIDATE-04", "CONFINE-07", "CONFINE-14",
                          "SYMLINK-04", "SYMLINK-11", "EDIT-18", "READ-12", "PATCH-01",
                          "PERMISSION-01", "PERMISSION-02", "RESULT-07", "SHELL-12"]


def test_a_refusal_answered_as_a_success_fails_result_02_alone(tmp_path: Path) -> None:
    document, found = result_02_alone(tmp_path, "FailuresSaySuccess", WORDED_REFUSAL_CLAUSES)
    assert "fail" not in found.values(), found
    # Not judged, with the reason, where the refusal was the check's premise.
    not_judged = [c["evidence"] for c in document["clauses"] if c["status"] == "n/a"]
    assert sum("in words that refuse" in text for text in not_judged) >= 10, not_judged
    # A message check's reason names what came back, a success, not the code it meant to see.
    said = [test["evidence"] for clause in document["clauses"] for test in clause["tests"]
            if "this scenario answered" in (test["evidence"] or "")]
    assert said and all("this scenario answered success" in text for text in said), said


def test_path_tools_that_refuse_every_call_are_not_judged_confined(tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:PathToolsRefuseEveryCall",
                   ["CONFINE-16", "SYMLINK-12"])
    assert statuses(document) == {"CONFINE-16": "n/a", "SYMLINK-12": "n/a"}
    for clause in document["clauses"]:
        assert "no path tool accepted the kit's call with a path inside the root" in (
            clause["evidence"]), clause["evidence"]


def test_a_pass_on_fewer_path_tools_than_the_clause_names_says_it_was_judged_in_part(
        tmp_path: Path) -> None:
    """One path tool refuses every call for an argument the kit cannot fill: the others' verdict
    stands, and says which tool it does not cover, in every check and in report.md."""
    document = run(tmp_path, "python:conformant:OnePathToolRefusesEveryCall",
                   ["CONFINE-16", "SYMLINK-12"])
    assert statuses(document) == {"CONFINE-16": "pass", "SYMLINK-12": "pass"}
    for clause in document["clauses"]:
        for test in clause["tests"]:
            if test["nodeid"].endswith("reaches_outside"):
                continue  # the property: an example drawing the tool leaves it not judged
            assert test["evidence"].startswith("judged in part: "), test
            assert "directory_tree.path: refused a.txt" in test["evidence"], test
    section = (tmp_path / "report" / "report.md").read_text("utf-8").split(
        "## Judged in part")[1]
    line = next(line for line in section.splitlines() if line.startswith("- CONFINE-16 "))
    assert line.startswith("- CONFINE-16 (pass): of 13 checks ") and "12 judged in part" in line


def test_a_read_only_tool_the_kit_never_calls_makes_annotation_01_judged_in_part(
        tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:StatusToolReadOnly", ["ANNOTATION-01"])
    assert statuses(document) == {"ANNOTATION-01": "pass"}
    evidence = [test["evidence"] or "" for test in document["clauses"][0]["tests"]]
    assert any(text.startswith("judged in part: status declared read-only but never called")
               for text in evidence), evidence


def test_a_search_that_found_nothing_to_bound_is_not_judged_on_its_bound(tmp_path: Path) -> None:
    document = run(tmp_path, "python:conformant:GrepTopFolderOnly", ["GREP-05"])
    tests = {test["nodeid"].split("::")[-1]: test for test in document["clauses"][0]["tests"]}
    tree = tests["test_a_search_matching_every_line_of_a_large_tree_is_bounded"]
    assert tree["outcome"] == "n/a", tree
    assert "found no line of the tree it had to bound" in tree["evidence"], tree


# One cause, one clause: the mutant's defect fails its own clause, and the clauses whose checks
# meet the same defect on the way to their own subject pass.
ONE_CAUSE = [
    # An edit writing CRLF back as LF: EOL-01's, not a lost BOM or final newline, nor a failed
    # match of LF old_text in a CRLF file (the lines matched and changed: all EOL-07 asks).
    pytest.param("agentconf.selfcheck.gallery:LfOnlyWrite", "EOL-01",
                 ["EOL-04", "EOL-05", "EOL-07"],
                 id="crlf-flattened-is-not-a-lost-bom-or-final-newline-or-a-failed-match"),
    # A read of a missing file is a step of other clauses' cases (an edit of a missing file, a
    # read-only tool that creates nothing): how it answers is READ-02's alone.
    pytest.param("agentconf.selfcheck.gallery:MissingFileReadsEmpty", "READ-02",
                 ["EDIT-11", "ANNOTATION-01"], id="a-missing-file-read-as-empty-is-read-02-alone"),
    # An added file replacing one that exists is PATCH-05's: no section of a patch failed, so
    # PATCH-01's all or nothing is not judged on it.
    pytest.param("agentconf.selfcheck.gallery:PatchAddReplaces", "PATCH-05", ["PATCH-01"],
                 id="an-add-replacing-a-file-is-patch-05-alone"),
    # A delete that writes outside whatever its path: seen at the call with a path inside the
    # root every path-tool check makes first, which is the path tools' clause's, not the clauses
    # of the hostile paths and links those checks were on their way to.
    pytest.param("agentconf.selfcheck.gallery:DeleteIntoTrash", "CONFINE-16",
                 ["CONFINE-17", "SYMLINK-12", "CONFINE-14"],
                 id="a-delete-into-home-is-confine-16-alone"),
    # An absolute path looked up inside the root: the root's own absolute path is CONFINE-10's
    # (an absolute path inside), and /tmp left untouched is all CONFINE-17 asks.
    pytest.param("agentconf.selfcheck.gallery:AbsolutePathsLookedUpInside", "CONFINE-10",
                 ["CONFINE-15", "CONFINE-17"], id="absolute-paths-inside-are-confine-10-alone"),
    # Every `..` refused, even one that stays inside: CONFINE-05's, however the path is spelt
    # (absolute or relative), not the absolute path's.
    pytest.param("agentconf.selfcheck.gallery:DotDotComponentRefused", "CONFINE-05",
                 ["CONFINE-10"], id="a-dotdot-refused-is-confine-05-alone"),
    # A final newline a write adds is EOL-08's: the absolute path still named the same file.
    pytest.param("agentconf.selfcheck.gallery:WriteAddsFinalNewline", "EOL-08",
                 ["CONFINE-10"], id="a-final-newline-added-is-not-the-absolute-path-s"),
    # The root refused as an omitted path: the cases of other clauses listing it so are not
    # judged on it (they list `.` as well), its links' and patterns' clauses judge the rest.
    pytest.param("agentconf.selfcheck.gallery:OmittedPathRefused", "CONFINE-15",
                 ["SYMLINK-06", "LIST-02", "LIST-04"],
                 id="an-omitted-path-refused-is-confine-15-alone"),
    # The root refused as `.`: its absolute path is then not judged, not failed.
    pytest.param("agentconf.selfcheck.gallery:RootRejected", "CONFINE-15", ["CONFINE-10"],
                 id="a-root-refused-is-confine-15-alone"),
    # An edit outside is read first where a read-before-edit guard may stand in the way: what
    # that read leaks is the read clause's, and the edit's clause judges the edit.
    pytest.param("agentconf.selfcheck.gallery:ReadsUnconfined", "CONFINE-08",
                 ["CONFINE-12", "SYMLINK-10"], id="a-read-outside-is-not-the-edit-s-escape"),
    # A read cut short at a bound of its own shows the same part of a file whatever runs beside
    # it: READ-01's, and no torn read during writes.
    pytest.param("agentconf.selfcheck.gallery:ReadCutShort", "READ-01", ["CONCUR-04"],
                 id="a-read-cut-alone-is-no-race"),
    # A window of one bound refused: READ-06's, not the past-the-end window's of one bound.
    pytest.param("agentconf.selfcheck.gallery:WindowNeedsBothBounds", "READ-06", ["READ-11"],
                 id="a-lone-bound-refused-is-read-06-alone"),
]


@pytest.mark.parametrize(("mutant", "failing", "passing"), ONE_CAUSE)
def test_one_cause_fails_one_clause(tmp_path: Path, mutant: str, failing: str,
                                    passing: list[str]) -> None:
    found = statuses(run(tmp_path, f"python:{mutant}", [failing, *passing]))
    assert found[failing] == "fail"
    assert {cid: found[cid] for cid in passing} == dict.fromkeys(passing, "pass")


def test_a_crlf_file_written_back_lf_is_eol_01_s_alone(tmp_path: Path) -> None:
    """An edit that writes every CRLF file back with LF (deepagents 0.7.32, the gallery's
    LfOnlyWrite) failed EOL-01 and, for the same bytes, replace_all's CRLF file (EDIT-04) and
    the mixed files (EOL-03): those are not judged on it, with the reason."""
    document = run(tmp_path, "python:agentconf.selfcheck.gallery:LfOnlyWrite",
                   ["EOL-01", "EDIT-04", "EOL-03"])
    assert statuses(document) == {"EOL-01": "fail", "EDIT-04": "pass", "EOL-03": "n/a"}
    reasons = {test["evidence"] for clause in document["clauses"] if clause["id"] == "EOL-03"
               for test in clause["tests"]}
    assert all("EOL-01's" in reason for reason in reasons), reasons


def test_a_clause_of_writes_or_edits_is_judged_on_the_writes_where_there_is_no_edit(
    tmp_path: Path
) -> None:
    """EDIT-15 ("overwriting or editing keeps the mode") and EDIT-17 ("editing or writing a
    folder") were n/a "lacks edit_file" for an implementation with a write tool and no edit
    tool (gia-file-tools' edit went unmapped), hiding the writes' own departures."""
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:agentconf.reference:create"\n'
                       '[capabilities]\nedit_file = false\n', "utf-8")
    document = run(tmp_path, str(profile), ["EDIT-15", "EDIT-17"])
    assert statuses(document) == {"EDIT-15": "pass", "EDIT-17": "pass"}
    passed = {test["nodeid"].split("::")[1].split("[")[0] for clause in document["clauses"]
              for test in clause["tests"] if test["outcome"] == "pass"}
    assert {"test_an_overwrite_keeps_the_permission_bits",
            "test_writing_to_a_folder_is_is_directory"} <= passed, passed


def test_output_never_cut_fails_the_bound_and_leaves_how_a_cut_is_made_not_judged(
        tmp_path: Path) -> None:
    """One cause, one clause: output returned whole, however long, is the bound's (TRUNCATE-01,
    -05, SHELL-08, -12); how a cut is made (head and tail, its count, no split) stands on a cut
    that never happened, and is not judged — neither failed nor passed."""
    bound = ["TRUNCATE-01", "TRUNCATE-05", "SHELL-08", "SHELL-12"]
    shape = ["TRUNCATE-02", "TRUNCATE-03", "TRUNCATE-04"]
    document = run(tmp_path, "python:agentconf.selfcheck.gallery:NoTruncation", bound + shape)
    assert statuses(document) == {**dict.fromkeys(bound, "fail"), **dict.fromkeys(shape, "n/a")}
    for clause in document["clauses"]:
        if clause["id"] in shape:
            assert all("the output was not cut" in test["evidence"]
                       for test in clause["tests"]), clause["evidence"]


def test_a_path_tool_the_profile_excludes_is_never_called(tmp_path: Path) -> None:
    """The other path tools are judged; the excluded ones are never called (`run` fails on the
    harness error a call of one raises)."""
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:agentconf.reference:create"\n'
                       'exclude_tools = ["move_file", "read_multiple_files"]\n', "utf-8")
    document = run(tmp_path, str(profile), ["CONFINE-16", "SYMLINK-12"])
    assert statuses(document) == {"CONFINE-16": "pass", "SYMLINK-12": "pass"}


def test_a_regular_expression_is_not_judged_on_a_grep_declared_literal(tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:LiteralGrep"\n'
                       '[tools.grep]\nliteral = true\n', "utf-8")
    assert statuses(run(tmp_path, str(profile), ["GREP-01"])) == {"GREP-01": "pass"}


def test_an_omitted_path_the_profile_fills_is_not_judged_as_omitted(tmp_path: Path) -> None:
    """CONFINE-15 asks that an omitted path list the root: where the profile sends `.` for a
    lister that requires its path, no call leaves it out, and its omitted check is not judged
    (it once passed on the `.` the kit sent)."""
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:conformant:ListerRequiresPath"\n'
                       '[tools.list_files]\ndefaults = { path = "." }\n', "utf-8")
    document = run(tmp_path, str(profile), ["CONFINE-15"])
    outcomes = {test["nodeid"].rsplit("::", 1)[-1]: test["outcome"]
                for clause in document["clauses"] for test in clause["tests"]}
    omitted = "test_the_root_itself_is_a_valid_folder_to_list[omitted]"
    assert outcomes[omitted] == "n/a", outcomes
    assert "leaves the path out" in json.dumps(document["clauses"])


def test_a_race_whose_writes_were_refused_is_not_judged(tmp_path: Path) -> None:
    """Writes to different paths still land and are judged (CONCUR-02 passes on them); every
    race on one path is not judged, never passed on the file no second write replaced."""
    document = run(tmp_path, "python:conformant:CreateOnlyWrites", ["CONCUR-02", "CONCUR-04"])
    assert statuses(document) == {"CONCUR-02": "pass", "CONCUR-04": "n/a"}
    outcomes = {test["nodeid"].rsplit("::", 1)[-1]: test["outcome"]
                for clause in document["clauses"] for test in clause["tests"]}
    assert outcomes == {
        "test_concurrent_writes_to_one_path_leave_exactly_one_whole_content": "n/a",
        "test_case[concur-two-writes-one-path]": "n/a",
        "test_case[concur-writes-different-paths]": "pass",
        "test_a_read_during_writes_sees_one_whole_version": "n/a"}, outcomes
