"""`init --from` probes what it sets and keeps only what its probes can stand behind: drafts of
small programs with the shapes it once drafted wrong (issue 25), each judged on its own draft."""

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from draft_programs import draft_toy

from agentconf.harness.target.spec import parse_spec
from agentconf.init_from import draft as draft_module
from agentconf.init_from.draft import draft_profile
from agentconf.init_from.findings import Findings, ambiguous_codes
from agentconf.init_from.patterns import Answer
from agentconf.init_from.reads import status_keys

# The probe answers of other kinds each shape's patterns must leave alone.
ERROR_PREFIX_FAILURES = {
    "OUTSIDE_ROOT": "Error: ../outside/secret.txt is outside",
    "NOT_FOUND": "Error: missing.txt was not found",
    "IS_DIRECTORY": "Error: sub is a folder",
    "TEXT_NOT_FOUND": "Error: a.txt has no such text",
    "INVALID_ARGS": "Error:  bad arguments",
}
CLAUDE_FAILURES = {
    "INVALID_ARGS": "Tool Write arguments failed schema validation: file_path",
    "TEXT_MULTIPLE_MATCHES": "Tool Edit input is invalid: Found 3 matches of the string",
    "TEXT_NOT_FOUND": "Tool Edit input is invalid: String to replace not found",
    "NOT_READ": "File has not been read yet. Read it first before writing to it.",
}


def _draft(tmp_path: Path, *flags: str) -> tuple[dict[str, Any], str]:
    return draft_toy(tmp_path, *flags)


def _classified(profile: dict[str, Any], text: str) -> str | None:
    for entry in profile.get("error_patterns", []):
        if re.search(entry["pattern"], text):
            return str(entry["code"])
    return None


def test_no_pattern_matching_every_failure_is_kept(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "error-prefix")
    assert profile.get("error_patterns"), text
    for entry in profile["error_patterns"]:
        assert not re.search(entry["pattern"], "Error: x"), entry
    for code, failure in ERROR_PREFIX_FAILURES.items():
        assert _classified(profile, failure) in (code, None), (code, failure, text)
    assert _classified(profile, ERROR_PREFIX_FAILURES["OUTSIDE_ROOT"]) == "OUTSIDE_ROOT"


def test_a_pattern_is_checked_against_every_other_probe_answer(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "claude", "read-guard")
    for code, failure in CLAUDE_FAILURES.items():
        assert _classified(profile, failure) in (code, None), (code, failure, text)
    assert _classified(profile, CLAUDE_FAILURES["TEXT_MULTIPLE_MATCHES"]) == (
        "TEXT_MULTIPLE_MATCHES"), text


def test_a_read_guard_and_stale_reads_are_probed_not_assumed(tmp_path: Path) -> None:
    guarded, text = _draft(tmp_path, "read-guard")
    assert guarded["capabilities"]["read_before_edit"] is True, text
    assert guarded["capabilities"]["stale_read"] is True, text
    failing, text = _draft(tmp_path, "edits-fail")
    # Edits that fail read or not show no guard: off, with a TODO saying why.
    assert failing["capabilities"]["read_before_edit"] is False, text
    assert failing["capabilities"]["stale_read"] is False, text
    assert re.search(r"TODO.*\n(read_before_edit|stale_read) = false", text), text


def test_validation_issues_are_probed_without_a_read_tool(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "no-read")
    assert profile["capabilities"]["validation_issues"] is False, text
    # No read tool: nothing a mention prefix would matter for is judged, and nothing unprobed
    # is switched off on a guess.
    assert "mention_prefix" not in profile["capabilities"], text


def test_a_window_counting_from_zero_is_drafted_zero_based(tmp_path: Path) -> None:
    said, text = _draft(tmp_path, "zero-based", "say-base")
    assert said["tools"]["read_file"]["offset_base"] == 0, text
    assert "counting from 0" in text
    probed, text = _draft(tmp_path, "zero-based")  # the schema is silent: the probe tells
    assert probed["tools"]["read_file"]["offset_base"] == 0, text
    assert probed["capabilities"]["line_window"] is True, text
    one, text = _draft(tmp_path)
    assert one["tools"]["read_file"].get("offset_base", 1) == 1, text


def test_what_it_changes_in_its_own_home_is_declared_as_its_state(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "state")
    assert profile["setup"]["state"] == ["{home}/.toystate"], text
    plain, _ = _draft(tmp_path)
    assert "setup" not in plain


def test_codes_the_server_spells_out_are_read_from_the_text(tmp_path: Path) -> None:
    from agentconf.harness.profile.model import parse_profile
    from agentconf.harness.session.normalise import classify_text

    profile, text = _draft(tmp_path, "spelled")
    assert profile["error_patterns"][0] == {"pattern": r"\A(?P<code>[A-Z][A-Z_]+):"}, text
    assert profile["error_codes"] == {"ACCESS_DENIED": "OUTSIDE_ROOT",
                                      "INVALID_INPUT": "INVALID_ARGS"}, text
    loaded = parse_profile(profile)
    assert classify_text("ACCESS_DENIED: /etc/passwd", loaded) == "OUTSIDE_ROOT"
    assert classify_text("ALREADY_EXISTS: a.txt", loaded) == "ALREADY_EXISTS"


def _mcp_shapes(mode: str) -> str:
    """The MCP server of tests/harness/shape_toys/ (the profile shapes' tests) in `mode`."""
    program = Path(__file__).resolve().parents[1] / "harness" / "shape_toys" / "mcp_shapes.py"
    return f"mcp:{sys.executable} {program} {mode}"


def test_a_code_in_structured_content_is_located_not_patterned() -> None:
    spec = _mcp_shapes("structured")
    draft = draft_profile(parse_spec(spec), spec)
    profile = tomllib.loads(draft.text)
    assert profile["tools"]["read_file"]["result"] == {
        "error": "structuredContent.failures[0].error.code"}, draft.text
    assert profile["error_codes"]["no_such_file"] == "NOT_FOUND", draft.text
    # Its text is the same plain sentence for every failure: no pattern from it.
    assert not profile.get("error_patterns"), draft.text


def test_an_edit_that_says_success_and_changes_nothing_gets_a_failure_marker(
    tmp_path: Path,
) -> None:
    """Desktop Commander answers a miss as a success ("Search content not found ..."): the
    draft sees the file unchanged, and marks such answers as the failures they are, so the
    run judges the refusal (and the self-check proves it is recognised)."""
    from agentconf.harness.profile.model import parse_profile
    from agentconf.harness.session.normalise import classify_text

    profile, text = _draft(tmp_path, "quiet-misses")
    marker = re.compile(profile["tools"]["edit_file"]["result"]["failure"]["matches"])
    missed = f"Search content not found in {tmp_path}/x.txt."
    assert marker.search(missed) and marker.search("Expected 1 occurrences but found 3 in y.")
    assert not marker.search("edited"), text  # the real success
    assert "[unproven" not in text, text
    assert classify_text(missed, parse_profile(profile)) == "TEXT_NOT_FOUND", text
    # Declared by hand, its text is classified as the probe learned.
    assert classify_text(missed, parse_profile(profile)) == "TEXT_NOT_FOUND", text


def test_zod_issues_over_several_lines_and_null_arguments_are_invalid_args(
    tmp_path: Path,
) -> None:
    profile, text = _draft(tmp_path, "zod")
    other_issue = 'Error: [\n  {\n    "code": "unrecognized_keys",\n    "keys": ["Path"]\n  }\n]'
    assert _classified(profile, other_issue) == "INVALID_ARGS", text
    assert _classified(profile, "Error: No arguments provided for Edit command") == (
        "INVALID_ARGS"), text
    assert _classified(profile, "Error: ENOENT: no such file") is None, text


def test_a_folder_is_learned_from_edits_when_reads_list_it(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "error-prefix", "lists-folders")
    assert _classified(profile, "Error: sub is a folder") == "IS_DIRECTORY", text


def test_the_probes_run_where_the_run_puts_its_sandboxes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fast-filesystem-mcp 3.5.2 allows HOME and /tmp, whatever folder it is started with: drafted
    with its sandbox in /tmp its probes read the root, while `agentconf run` puts its sandboxes
    in /dev/shm, where it refused every path. The probes must see what the run will see."""
    runs = tmp_path / "runs"
    runs.mkdir()
    monkeypatch.setattr(draft_module, "memory_temproot", lambda environ: str(runs),
                        raising=False)
    monkeypatch.setenv("TOY_ALLOWED", str(runs))
    profile, text = _draft(tmp_path, "fixed-allow")
    assert _classified(profile, "missing: agentconf-probe-missing.txt") == "NOT_FOUND", text


def test_a_read_answering_json_has_its_text_located(tmp_path: Path) -> None:
    """filesystem-mcp 1.0.2's read_file answers {"path", "content", "size"} (fast-filesystem-mcp
    {"content", "mode", ...}): the draft left the JSON as the text, and every exact check of a
    read's text failed on it."""
    profile, text = _draft(tmp_path, "json-read")
    assert profile["tools"]["read_file"].get("result", {}).get("text") == "content", text
    plain, _ = _draft(tmp_path)
    assert "result" not in plain["tools"]["read_file"]


def test_a_miss_worded_in_korean_quoting_the_old_text_bare_gets_a_pattern(
        tmp_path: Path) -> None:
    """mcp-filesystem-server 1.0.3: its Korean words were no words to the draft (only ASCII
    counted), so the first line said "nothing but Error", and the pattern read on into the
    probe's own old text ("... absent"): no real miss matched it."""
    profile, text = _draft(tmp_path, "korean")
    assert _classified(profile, "Error: 수정할 텍스트를 찾을 수 없습니다:\ngoodbye") == (
        "TEXT_NOT_FOUND"), text


def test_the_failures_of_a_listing_are_probed(tmp_path: Path) -> None:
    """fast-filesystem-mcp 3.5.2's fast_list_directory of a file answers "Path is not a
    directory": the draft probed reads only, kept no pattern for it, and LIST-03 failed an
    answer that says just what the contract asks."""
    profile, text = _draft(tmp_path, "list")
    assert profile["tools"]["list_files"]["name"] == "list_directory", text
    assert _classified(profile, "Path is not a directory") == "NOT_A_DIRECTORY", text
    assert _classified(profile, "ENOENT: no such file or directory, scandir '/x/nope'") == (
        "NOT_FOUND"), text


def test_an_edit_that_says_success_and_changes_nothing_turns_no_feature_on(
        tmp_path: Path) -> None:
    """fast-filesystem-mcp 3.5.2's fast_edit_block answers {"message": "Text not found", ...} as a
    success: the draft read that as straight quotes matching curly ones (curly_quotes = true),
    and EDIT-07 failed on a feature the draft had invented."""
    profile, text = _draft(tmp_path, "quiet-misses")
    # Nor off: what the probe saw go wrong stays judged (EDIT-07), said in a comment.
    assert "curly_quotes" not in profile["capabilities"], text
    assert "curly_quotes stays on: EDIT-07 judges it" in text, text


@pytest.mark.parametrize("toy", ["write-encoding", "write-encoding-docstring"])
def test_an_argument_a_refusal_names_is_sent_when_the_schema_does_not_require_it(
        tmp_path: Path, toy: str) -> None:
    """One schema for several operations cannot mark an argument only writes need as required:
    the draft sent writes without it, every write failed, and the self-check left write_file
    unproven (the checks standing on it not judged), though the refusal named the argument.
    Its value may be told only in the docstring's section of the operation that takes it."""
    profile, text = draft_toy(tmp_path, toy)
    assert profile["tools"]["write_file"]["defaults"] == {"encoding": "utf-8"}, text
    assert "write_file" not in profile.get("unproven", {}), text
    assert "a call without encoding was refused naming it" in text, text


def test_a_defect_seen_is_charged_only_to_clauses_of_the_tools_mapped(tmp_path: Path) -> None:
    """A read returned whole with no shell mapped: the draft's comment named the shell's
    truncation clauses (SHELL-08, SHELL-12), every one n/a for that implementation."""
    profile, text = draft_toy(tmp_path)
    assert "bash" not in profile["tools"], text
    line = next(line for line in text.splitlines() if "truncation stays on" in line)
    assert "SHELL-" not in line and "no clause of its mapped tools judges it" in line, line


def test_an_unknown_tool_is_probed(tmp_path: Path) -> None:
    """filesystem-mcp 1.0.2 (the MCP Python SDK) answers "Unknown tool: no_such_tool" as text:
    the draft never called an unknown name, kept no TOOL_NOT_FOUND pattern, and REGISTRY-04
    failed an answer that says what it asks."""
    profile, text = _draft(tmp_path, "unknown-text")
    assert _classified(profile, "Unknown tool: agentconf_no_such_tool") == "TOOL_NOT_FOUND", text


def test_a_shells_exit_timeout_and_output_are_probed(tmp_path: Path) -> None:
    """Claude Code's Bash: a non-zero exit and a timeout both start "Exit code"; its output sits
    in JSON. RESULT-02, SHELL-02/04 and TRUNCATE-06 once failed on a draft that never ran it."""
    profile, text = _draft(tmp_path, "shell")
    assert _classified(profile, "Exit code 42\nout-mark\nerr-mark") == "NONZERO_EXIT", text
    assert _classified(profile, "Exit code 143\nCommand timed out after 0s") == "TIMEOUT", text
    assert profile["tools"]["bash"]["result"]["text"] == ["stdout", "stderr"], text


def test_binary_too_large_missing_edit_and_write_loop_wordings_are_probed(
        tmp_path: Path) -> None:
    """Claude Code's wordings the draft never asked for (READ-04, READ-05, EDIT-11, SYMLINK-05
    failed on its draft with no code)."""
    profile, text = _draft(tmp_path, "claude", "claude-files")
    for code, failure in {
        "BINARY_FILE": "Tool Read input is invalid: This tool cannot read binary files. The "
                       "file appears to be a binary file.",
        "FILE_TOO_LARGE": "File content (512KB) exceeds maximum allowed size (256KB). Use "
                          "offset and limit.",
        "NOT_FOUND": "Tool Edit input is invalid: File does not exist. Note: your current "
                     "working directory is /x.",
        "IO_ERROR": "ELOOP: too many symbolic links encountered, stat '/x/loop_b'",
    }.items():
        assert _classified(profile, failure) == code, (code, failure, text)
    # A head every "Tool X input is invalid: ..." shares is no BINARY_FILE pattern, though the
    # answers the probes saw of it are each classified before it: one it never saw would not be.
    assert _classified(profile, "Tool Write input is invalid: File has not been read yet. Read "
                                "it first before writing to it.") in (None, "NOT_READ"), text


def test_a_shell_whose_failed_commands_carry_no_code_gets_a_nonzero_exit_pattern(
        tmp_path: Path) -> None:
    # mcp-server-commands 0.5.0: a non-zero exit is "Command failed: <command>" with isError
    # and no code; without a probe of a failing command its shell failures had none (RESULT-02).
    profile, text = _draft(tmp_path, "run-command")
    assert profile["tools"]["bash"]["name"] == "run_command", text
    assert _classified(profile, "Command failed: echo out; exit 42\nerr\n") == "NONZERO_EXIT", text
    assert _classified(profile, "Command failed: false\n") == "NONZERO_EXIT", text


def test_a_shell_that_fails_every_command_teaches_no_nonzero_exit_pattern(tmp_path: Path) -> None:
    # @openai/codex-shell-tool-mcp refuses every command until a sandbox is configured: its
    # "... sandbox was required but not provided" was drafted as NONZERO_EXIT.
    profile, text = _draft(tmp_path, "run-command", "no-sandbox")
    assert not [entry for entry in profile.get("error_patterns", [])
                if entry["code"] == "NONZERO_EXIT"], text
    assert "sandbox was required" in text, text  # the note says what every command answered


def test_a_shell_answering_its_exit_code_in_json_gets_its_answer_shape(tmp_path: Path) -> None:
    # @openai/codex-shell-tool-mcp: `exit 42` answered success with {"exit_code": 42, "output":
    # ...}; the draft left every failed command a success (SHELL-02, RESULT-02).
    profile, text = _draft(tmp_path, "run-command", "json-shell")
    result = profile["tools"]["bash"].get("result")
    assert result == {"text": ["output", "exit_code"], "exit_code": "exit_code",
                      "failure": {"path": "exit_code", "not_equals": 0}}, text


def test_a_shell_failing_with_its_exit_code_in_json_keeps_the_code_in_the_text(
        tmp_path: Path) -> None:
    """just-bash-mcp answers {"stdout", "stderr", "exitCode"}, isError when the exit is not 0:
    the draft read stdout and stderr alone, so a failure's text was empty and the exit code the
    model reads was gone (RESULT-03, SHELL-02 and SHELL-05 failed on the kit's own reading)."""
    profile, text = _draft(tmp_path, "run-command", "json-failures")
    result = profile["tools"]["bash"].get("result")
    assert result == {"text": ["stdout", "stderr", "exitCode"], "exit_code": "exitCode"}, text


def test_a_shell_stating_its_exit_in_words_gets_a_failure_marker(tmp_path: Path) -> None:
    # openai-agents 0.24.0: exec_command answers every command as a success whose header says
    # "Process exited with code N"; the draft's `exit 3` probe learned nothing (RESULT-02,
    # SHELL-02 failed on a profile that took `exit 42` for a success).
    profile, text = _draft(tmp_path, "run-command", "text-shell")
    marker = profile["tools"]["bash"].get("result", {}).get("failure", {}).get("matches")
    assert marker, text
    head = "Chunk ID: 0a1b2c\nWall time: 0.0012 seconds\nProcess exited with code {}\nOutput:\n"
    for status in ("42", "1", "-9", "130"):
        assert re.search(marker, head.format(status) + "out\n"), (status, text)
        assert _classified(profile, head.format(status) + "out\n") == "NONZERO_EXIT", text
    for status in ("0", "0\nProcess exited with code 3"):  # the output's own words are not it
        assert not re.search(marker, head.format(status) + "out\n"), (status, text)


def test_the_failures_of_a_patch_tool_are_probed(tmp_path: Path) -> None:
    # openai-agents 0.24.0's apply_patch words every failure without a code; no patch was
    # probed, so PATCH-03 and PATCH-05 failed on codes the draft never learnt.
    profile, text = _draft(tmp_path, "patch")
    assert profile["tools"]["apply_patch"]["name"] == "apply_patch", text
    for code, said in (
            ("TEXT_NOT_FOUND", "Invalid Context 0:\nabsent line"),
            ("NOT_FOUND", "apply_patch missing file: missing.txt"),
            ("ALREADY_EXISTS", "apply_patch cannot create a.txt because it already exists. Use "
                               "an update_file operation to change an existing file."),
            ("OUTSIDE_ROOT", "apply_patch path must not escape root: ../escape.txt"),
            ("INVALID_ARGS", "apply_patch input must start with '*** Begin Patch'")):
        assert _classified(profile, said) == code, (code, text)


def test_an_exit_stated_after_the_output_is_anchored_at_the_end(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "run-command", "exit-trailer")
    marker = profile["tools"]["bash"].get("result", {}).get("failure", {}).get("matches")
    assert marker, text
    assert re.search(marker, "out\nerr\n[exit status 42]"), text
    assert re.search(marker, "[exit status 1]"), text
    assert not re.search(marker, "[exit status 3]\nout\n[exit status 0]"), text


@pytest.mark.parametrize(("flag", "virtual"), [("virtual-root", True), ("say-absolute", False)])
def test_absolute_paths_rooted_at_the_sandbox_are_probed_as_virtual(
        tmp_path: Path, flag: str, virtual: bool) -> None:
    """deepagents' virtual_mode: its schema says "absolute path", and `/a.txt` is root/a.txt;
    sent host paths, every probe missed its file and learned nothing."""
    profile, text = _draft(tmp_path, flag)
    assert profile["implementation"]["absolute_paths"] is True, text
    assert profile["implementation"].get("virtual_absolute_paths", False) is virtual, text
    # a read of a folder reached the folder (it answers "missing" for a path it cannot find)
    assert _classified(profile, "folder: /agentconf-probe-dir") == "IS_DIRECTORY", text


@pytest.mark.parametrize(("flags", "absolute"), [(("absolute-only",), True), ((), False)])
def test_tools_that_refuse_relative_paths_unannounced_are_probed_as_absolute(
        tmp_path: Path, flags: tuple[str, ...], absolute: bool) -> None:
    """mcp-code-editor's read says "Path must be absolute" only when it is sent a relative
    path: drafted from its descriptions alone, every check's path was refused."""
    profile, text = _draft(tmp_path, *flags)
    assert profile["implementation"]["absolute_paths"] is absolute, text
    assert ("read by its relative path was refused" in text) is absolute, text
    assert profile["implementation"].get("virtual_absolute_paths", False) is False, text
    # the other probes reached their files: a read of a folder was told from a missing file
    assert _classified(profile, "folder: /r/agentconf-probe-dir") == "IS_DIRECTORY", text


def test_a_quoted_value_over_several_lines_still_matches_its_pattern(tmp_path: Path) -> None:
    """deepagents quotes the old text of a miss; an old text with a newline in it once left its
    TEXT_MULTIPLE_MATCHES unclassified (the pattern's wildcard stopped at the line's end)."""
    profile, text = _draft(tmp_path, "error-prefix", "quote-text")
    assert _classified(profile, "Error: 'a = 1\nb' twice") == "TEXT_MULTIPLE_MATCHES", text
    assert _classified(profile, "Error: 'a = 1\nb' has no such text") == "TEXT_NOT_FOUND", text


@pytest.mark.parametrize("status", [True, False])
def test_answers_that_carry_their_own_status_in_json_are_drafted_as_failures(
        tmp_path: Path, status: bool) -> None:
    """mcp-code-editor answers every call with an MCP success whose JSON says
    `"success": false` when it failed: drafted without a failure marker, a missing file read as
    a text, and no probe after it learned a code."""
    profile, text = _draft(tmp_path, *(["json-status"] if status else []))
    tools = profile["tools"]
    marked = {name for name, table in tools.items()
              if table.get("result", {}).get("failure") == {"path": "success", "equals": False}}
    assert marked == (set(tools) if status else set()), text
    if status:
        assert "a read of a missing file answered success with" in text, text
        # each failure's code, learned from its JSON now that it is a failure
        assert tools["read_file"]["result"]["error"] == "error", text
        assert profile["error_codes"]["FileNotFoundError"] == "NOT_FOUND", text
        assert profile["error_codes"]["TextNotFound"] == "TEXT_NOT_FOUND", text
        assert profile["error_codes"]["AmbiguousMatch"] == "TEXT_MULTIPLE_MATCHES", text
        assert tools["read_file"]["result"]["text"] == "result", text
        assert profile["capabilities"]["create_parents"] is False, text  # the toy makes none
    else:
        assert "FileNotFoundError" not in text, text


@pytest.mark.parametrize(("key", "failing", "working"), [
    ("status", "error", "ok"), ("result", "failure", "success"), ("state", "FAILED", "done")])
def test_a_status_told_in_words_is_read_as_one_told_as_a_boolean(
        key: str, failing: str, working: str) -> None:
    """A server answering `{"status": "error", "message": ...}` beside `{"status": "ok", "text":
    ...}` was drafted with no status (only booleans were read): a text marker fitted to the
    JSON's own opening then matched every failure, and no code was learnt from any message."""
    keys, said = status_keys(
        {key: failing, "message": "Error reading file: no such file here"},
        {key: working, "text": "1\tagentconf-probe-status-content"},
        "a read of a missing file", "a read of a file", "every tool's", "/r",
        "agentconf-probe-status-content") or ({}, "")
    assert keys == {"failure": {"path": key, "equals": failing}, "text": "text",
                    "error": "message"}, said
    assert f"{key} = {json.dumps(failing)} is a failure" in said, said


def test_a_field_that_merely_differs_between_a_failure_and_a_success_is_no_status() -> None:
    assert status_keys({"kind": "missing", "path": "a.txt"}, {"kind": "file", "path": "a.txt"},
                       "a read of a missing file", "a read of a file", "every tool's", "/r",
                       "agentconf-probe-status-content") is None


def test_answers_listing_an_item_per_file_have_their_failures_and_text_located(
        tmp_path: Path) -> None:
    """@shtse8/filesystem-mcp 0.5.8 answers every call with a success: a read `[{"path",
    "content"}]` or `[{"path", "error"}]`, an edit `{"message", "results": [{"file", "error"}]}`.
    Drafted without markers, every failure was a success to the checks (a missing file read as
    its JSON), and no probe learned a code."""
    profile, text = _draft(tmp_path, "json-items")
    read, edit = (profile["tools"][name]["result"] for name in ("read_file", "edit_file"))
    assert read == {"text": "/0/content", "error": "/0",
                    "failure": {"path": "/0/error", "present": True}}, text
    # the edit's own shape, not the read's
    assert edit == {"error": "results[0]",
                    "failure": {"path": "results[0].error", "present": True}}, text
    assert profile["tools"]["write_file"]["result"]["failure"] == read["failure"], text
    for code, message in (("NOT_FOUND", "missing: x.txt"), ("TEXT_NOT_FOUND", "absent: x.txt"),
                          ("TEXT_MULTIPLE_MATCHES", "twice: x.txt"),
                          ("IS_DIRECTORY", "folder: x")):
        assert _classified(profile, message) == code, (message, text)
    plain, _ = _draft(tmp_path)
    assert all("result" not in table for table in plain["tools"].values()), plain


@pytest.mark.parametrize("shape", ["json-status", "json-items", "report", "wrapped-status"])
def test_a_server_answering_its_status_in_json_is_judged_as_one_answering_plainly(
        tmp_path: Path, shape: str) -> None:
    """The same toy with and without its JSON status (mcp-code-editor's status field, or
    @shtse8/filesystem-mcp's items), each run on its own draft: the JSON is no part of the
    verdict (the failures' codes, the texts read, the edits)."""
    outcomes = []
    for name, flags in (("plain", ()), ("status", (shape,))):
        folder = tmp_path / name
        folder.mkdir()
        _, text = _draft(folder, *flags)
        (folder / "agentconf.toml").write_text(text, "utf-8")
        outcomes.append(_outcomes(folder / "agentconf.toml", folder / "report",
                                  "READ-01,READ-02,READ-03,EDIT-01,EDIT-02,EDIT-03,EDIT-11"))
    plain, status = outcomes
    assert len(plain) > 20 and set(plain) == set(status)
    assert sum(outcome == "pass" for outcome in status.values()) > 15, status
    differing = {n: (o, status[n]) for n, o in plain.items() if status[n] != o}
    assert not differing, differing


def _outcomes(profile: Path, report: Path, clauses: str) -> dict[str, str]:
    subprocess.run([sys.executable, "-m", "agentconf", "run", "--impl", str(profile), "--clauses",
                    clauses, "--report", str(report)], capture_output=True, text=True,
                   timeout=900, check=False, stdin=subprocess.DEVNULL, cwd=profile.parent)
    events = (report / "events.jsonl").read_text("utf-8").splitlines()
    return {e["nodeid"]: e["outcome"] for e in map(json.loads, events) if e["event"] == "test"}


def test_a_window_that_ends_before_it_starts_is_probed_for_its_refusal(tmp_path: Path) -> None:
    """READ-12's refusal is INVALID_ARGS: learnt from a reversed window, not left unclassified
    (mcp-code-editor's "start_line (3) cannot be greater than end_line (1)")."""
    profile, text = _draft(tmp_path, "start-end")
    assert "a read of a window ending before it starts" in text, text
    assert _classified(profile, "reversed: lines.txt") == "INVALID_ARGS", text
    assert _classified(profile, "missing: lines.txt") == "NOT_FOUND", text


def _spelled(found: Findings, theirs: str, *kinds: str) -> None:
    for kind in kinds:
        found.error_codes.setdefault(theirs, (kind, f"the {kind} probe"))
        found.spelled.setdefault(theirs, []).append(Answer(kind, f"the {kind} probe", theirs))


def test_one_spelling_for_several_kinds_is_mapped_by_its_name_or_not_at_all() -> None:
    """mcp-code-editor answers "ValidationError" for a read of a folder, of a reversed window
    and of a binary file, "FileNotFoundError" for a missing file and for a path under a file:
    mapped to the kind probed first, the others became false failures."""
    found = Findings()
    _spelled(found, "ValidationError", "IS_DIRECTORY", "INVALID_ARGS", "BINARY_FILE")
    _spelled(found, "FileNotFoundError", "NOT_FOUND", "NOT_A_DIRECTORY")
    _spelled(found, "E_BAD", "IS_DIRECTORY", "BINARY_FILE")
    _spelled(found, "E_MISSING", "NOT_FOUND", "NOT_FOUND")
    ambiguous_codes(found)
    assert found.error_codes["ValidationError"][0] == "INVALID_ARGS"
    assert "also answered BINARY_FILE and IS_DIRECTORY" in found.error_codes["ValidationError"][1]
    assert found.error_codes["FileNotFoundError"][0] == "NOT_FOUND"
    assert "E_BAD" not in found.error_codes  # its name says neither: left to the patterns
    assert [a.code for a in found.answers] == ["IS_DIRECTORY", "BINARY_FILE"]
    assert any("'E_BAD' answered BINARY_FILE and IS_DIRECTORY" in n for n in found.notes)
    assert found.error_codes["E_MISSING"][0] == "NOT_FOUND"  # one kind: as probed


def test_a_status_line_learnt_after_an_exception_marker_joins_it_instead_of_replacing_it() -> None:
    # mini-swe-agent 2.4.6: a bad argument answered "<exception>...</exception>" as a success
    # (marked), then `exit 3` taught the status line: the draft kept only the status line, so
    # every exception answer, a timeout's too, read as a success again.
    from agentconf.init_from.probe_shell import _exit_in_words

    exception = "<exception>An error occurred: boom</exception>\n<returncode>-1</returncode>\n"
    found = Findings(keys={"bash": {"result": {"failure": {"matches": r"\A<exception>"}}}})
    assert _exit_in_words(found, "<returncode>3</returncode>\n<output>\n</output>",
                          "<returncode>0</returncode>\n<output>\nok\n</output>",
                          "<returncode>0</returncode>\n<output>\nsaid\n</output>")
    marker = found.keys["bash"]["result"]["failure"]["matches"]
    assert re.search(marker, exception), marker
    assert re.search(marker, "<returncode>2</returncode>\n<output>\n</output>"), marker
    assert not re.search(marker, "<returncode>0</returncode>\n<output>\nok\n</output>"), marker


def test_the_exit_probe_exits_with_its_status_with_or_without_a_shell(tmp_path: Path) -> None:
    """A command runner without shell syntax (the line split into words, then started, as
    cli-mcp-server does) has no `exit` program: `exit 3` failed to start there, and the draft
    learnt the spawn error as the exit's wording. The probe's command exits 3 both ways."""
    import shlex

    from agentconf.init_from.probe_shell import exit_command

    command = exit_command(3)
    in_a_shell = subprocess.run(["sh", "-c", command], cwd=tmp_path, check=False)
    without_one = subprocess.run(shlex.split(command), cwd=tmp_path, check=False)
    assert in_a_shell.returncode == without_one.returncode == 3
    with pytest.raises(FileNotFoundError):  # what `exit 3` meets without a shell
        subprocess.run(shlex.split("exit 3"), cwd=tmp_path, check=False)
    assert exit_command(3, ["true", "echo"]) == "exit 3"  # a gate that refuses sh
