"""Failure markers drafted from refusals that say success (init_from/markers.py), on the shapes
real raw drafts got wrong: a marker fitted to the scratch sandbox's path, one that could not take
a timeout worded apart, and a read of a canary taken for a refusal."""

import re

from agentconf.harness.session.result import Request, Result
from agentconf.harness.verdicts.wording import says_refusal
from agentconf.init_from.findings import Findings, succeeded
from agentconf.init_from.markers import draft_marker, widened
from agentconf.init_from.patterns import Answer, induce

ROOT = "/dev/shm/agentconf-init-x/sandbox/root"
VARIABLE = ("/dev/shm/agentconf-init-x/sandbox", ROOT)


def test_a_shared_start_stops_before_the_scratch_sandboxs_path() -> None:
    refusals = [f"Error executing tool: Path '{ROOT}/a' is outside the allowed directory",
                f"Error executing tool: Path '{ROOT}/b' does not exist"]
    marker = draft_marker(refusals, ["file text"], VARIABLE)
    assert marker is not None and "agentconf-init" not in marker
    assert re.search(marker, "Error executing tool: Path '/srv/run/root/c' does not exist")


def test_a_marker_learnt_from_one_signal_reads_another() -> None:
    """coding-tools-mcp 0.5.0 answers a timeout as a success: the marker drafted from two
    SIGTERM samples held `-15 | signal SIGTERM`, and a SIGKILL timeout read as a success (SHELL-07
    not judged)."""
    timeouts = [f"Status: timeout | exit code -15 | signal SIGTERM | timed out | {ms} ms"
                for ms in (311, 2017)]
    marker = draft_marker(timeouts, ["Status: exited | exit code 0 | 73 ms\nhello"], ())
    assert marker is not None
    killed = "Status: timeout | exit code -9 | signal SIGKILL | timed out | 2002 ms"
    assert re.search(marker, killed)
    assert not re.search(marker, "Status: exited | exit code 0 | 12 ms\nhi")


def test_a_marker_says_a_call_failed_not_which_failure() -> None:
    """Every sample one probe's kind ("Error: Unknown tool ..." for two unknown names): the
    marker fitted the probe's own words, and a timeout answered "Error: Command execution timed
    out" was read as a success. The head every refusal starts with marks them; where a real
    success starts so too, the longer start is kept."""
    refusals = ["Error: Unknown tool no_such_tool", "Error: Unknown tool summon_dragon"]
    marker = draft_marker(refusals, ["{'stdout': 'hi', 'exit_code': 0}"], ())
    assert marker is not None and re.search(marker, "Error: Command execution timed out")
    narrow = draft_marker(refusals, ["Error: none found, which is fine"], ())
    assert narrow is not None and not re.search(narrow, "Error: Command execution timed out")
    assert re.search(narrow, "Error: Unknown tool x")


def test_a_marker_is_widened_for_refusals_worded_apart_and_still_compiles() -> None:
    exit_line = r"(?m)^\[exit_code: -?[1-9][0-9]*\]$"
    timeouts = ["Error: Command timed out after 1s. Process group killed.",
                "Error: Command timed out after 2s. Process group killed."]
    marker = widened(exit_line, ["out\n[exit_code: 3]", *timeouts], ["hi\n[exit_code: 0]"], ())
    assert marker is not None
    pattern = re.compile(marker)
    assert pattern.search("x\n[exit_code: 7]") and pattern.search(timeouts[0])
    assert not pattern.search("hi\n[exit_code: 0]")


def test_a_success_that_read_a_canary_is_no_refusal() -> None:
    """A read of ../outside/secret.txt that escaped: "outside secret agentconf-canary-..." has
    a refusal's word in it, and once became a marker that hid the escape as a refusal."""
    request = Request("read_file", {"path": "../outside/secret.txt"}, "read", {})
    text = "File: ../outside/secret.txt\noutside secret agentconf-canary-83c5"
    assert says_refusal(text)
    found = Findings()
    succeeded(found, "OUTSIDE_ROOT", "a read outside", Result(
        success=True, data=text, error=None, summary=None, diff=None, issues=None,
        denial=None, exit_code=None, raw={}, request=request))
    assert found.disguised == {} and "read a canary" in found.notes[0]


def test_a_success_that_listed_the_canary_folder_is_no_refusal() -> None:
    """A listing of ../outside that escaped (rigout's ls): "<ROOT>/../outside/ (4 entries)
    dir/ crlf.txt notes.md" says "outside", and became a marker that read the listing of the
    canary folder, and only it, as a refusal: the escape would have been judged refused."""
    request = Request("list_files", {"path": "../outside"}, "ls", {})
    text = "/r/root/../outside/ (4 entries)\ndir/\ncrlf.txt  53 B\nnotes.md  63 B\nsecret.txt"
    assert says_refusal(text)
    found = Findings()
    succeeded(found, "OUTSIDE_ROOT", "a listing outside", Result(
        success=True, data=text, error=None, summary=None, diff=None, issues=None,
        denial=None, exit_code=None, raw={}, request=request))
    assert found.disguised == {} and "listed the canary folder" in found.notes[0]


class _Canned:
    """An adapter answering every call with the same success, for the client's reading alone."""

    name, version = "canned", None

    def __init__(self, data: str) -> None:
        self.data = data

    def list_tools(self) -> list[dict[str, object]]:
        return [{"name": "list", "input_schema": {"type": "object", "properties": {
            "path": {"type": "string"}}}}]

    def call_tool(self, name: str, arguments: object) -> dict[str, object]:
        return {"success": True, "data": self.data}

    def close(self) -> None:
        return None


def test_a_tools_own_marker_does_not_shadow_the_implementations(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A listing marked by "Directory does not exist" and a server marking every refusal with
    "Error:": a refusal of the listing in other words is still one (both markers apply)."""
    from agentconf.harness.profile.model import parse_profile
    from agentconf.harness.session.client import Client

    profile = parse_profile({
        "implementation": {"failure": {"matches": r"\AError:"}},
        "tools": {"list_files": {"name": "list", "result": {
            "failure": {"matches": r"\AError: Directory does not exist"}}}}})
    said = "Error: Path must be within working directory: /x"
    client = Client(_Canned(said), profile, tmp_path)  # type: ignore[arg-type]
    assert client.call("list_files", path="../outside").success is False


def test_an_implementations_json_status_marks_a_tool_with_no_table_of_its_own(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every tool of a framework answers `{"ok": false, ...}` on failure, a tool revealed later
    (no [tools.X] table) too: [implementation].failure with a path reads its JSON."""
    import json

    from agentconf.harness.profile.model import parse_profile
    from agentconf.harness.session.client import Client

    profile = parse_profile({"implementation": {"failure": {"path": "ok", "equals": False}},
                             "tools": {"list_files": {"name": "list"}}})
    refused = json.dumps({"ok": False, "message": "Invalid arguments for list"})
    client = Client(_Canned(refused), profile, tmp_path)  # type: ignore[arg-type]
    assert client.call("list_files", path="a").success is False
    worked = json.dumps({"ok": True, "result": "a.txt"})
    assert Client(_Canned(worked), profile, tmp_path).call(  # type: ignore[arg-type]
        "list_files", path=".").success is True


def test_refusals_of_several_tools_that_share_a_start_mark_every_tool_with_it() -> None:
    """Each tool's own two samples ("Error: `a.txt` does not exist", "Error: `b` is a folder")
    fit its own probes; what every tool's refusals share ("Error:") is the implementation's way
    of failing, and a refusal of another kind ("Error: Invalid arguments ...") matches it."""
    from agentconf.init_from.findings import Findings, draft_markers
    from agentconf.init_from.patterns import Answer

    def said(tool: str, *texts: str) -> list[Answer]:
        return [Answer("NOT_FOUND", f"a refusal of {tool}", text, tool) for text in texts]

    found = Findings(successes={"read_file": ["alpha"], "write_file": ["Created `x`: 1 byte"]})
    found.disguised = {
        "read_file": said("read_file", "Error: `a.txt` does not exist.", "Error: `b.md` does "
                                       "not exist."),
        "write_file": said("write_file", "Error: `notes` is a folder, not a file.",
                           "Error: `dir` is a folder, not a file."),
    }
    draft_markers(found, VARIABLE)
    for tool in ("read_file", "write_file"):
        marker = found.keys[tool]["result"]["failure"]["matches"]
        assert re.search(marker, "Error: Invalid arguments for write_file"), (tool, marker)
        assert not re.search(marker, "Created `x`: 1 byte")
    assert found.any_failure is not None
    assert re.search(found.any_failure[0]["matches"], "Error: Invalid arguments for file_info")


# A report-shaped answer: a banner, a title, a status line, the call's fields, then the error a
# few lines down (a PyPI file server's `成功: 否 ... 错误: ...`, its refusals all successes).
BANNER = "=" * 60


def _report(title: str, status: str, *fields: str) -> str:
    return "\n".join([BANNER, title, BANNER, f"成功: {status}", *fields, BANNER])


def test_a_banner_is_no_part_of_where_a_refusal_s_words_are_looked_for() -> None:
    assert says_refusal(_report("FILE READ RESULT", "否", "错误: 文件不存在: missing.txt"))
    assert not says_refusal(_report("FILE READ RESULT", "是", "内容: hello"))


def test_a_status_line_that_says_failed_is_a_refusal_before_its_words() -> None:
    refused = _report("FILE WRITE RESULT", "否", "文件路径: f.txt/child.txt",
                      "写入模式: overwrite", "错误: 覆盖写入失败: [Errno 20] Not a directory")
    assert says_refusal(refused)
    assert says_refusal("Success: false\npath: a.txt\nmode: overwrite\nbytes: 0\nerror: x")
    for success in ("status: ok\nhello", "okay: no problem here", "Success: true\nwrote"):
        assert not says_refusal(success), success


def test_a_json_status_that_says_failed_is_a_refusal_however_deep_its_wrappers() -> None:
    """fsext-mcp-server answers every call `{"res": {"success": ..., "info": ...}}` on one
    line, its words after a key that says nothing: the status is the refusal."""
    for refused in ('{"res": {"success": false, "info": "No such file: x.txt"}}',
                    '{"result": {"data": {"ok": false, "detail": "gone"}}}',
                    '[{"path": "x.txt", "status": "failed"}]', '{"success": false}'):
        assert says_refusal(refused), refused
    for worked in ('{"res": {"success": true, "info": "alpha"}}',
                   '{"res": {"success": true}, "log": {"ok": false}}',  # no one wrapper
                   '{"content": "success: false is a line of this file"}', "not json {"):
        assert not says_refusal(worked), worked


def test_a_code_is_learnt_from_the_error_line_a_report_holds_lines_down() -> None:
    """The banner, title and status every failure of the tool shares say no kind; the words
    that do are lines down. And a pattern a real success matches says none either."""
    def answer_of(code: str, label: str, path: str, error: str) -> Answer:
        return Answer(code, label, _report("FILE WRITE RESULT", "否", f"文件路径: {path}",
                                           "写入模式: overwrite", f"错误: 覆盖写入失败: {error}"),
                      "write_file", (path,))
    answers = [answer_of("IS_DIRECTORY", "write of a folder", "folder",
                         "[Errno 21] Is a directory: 'folder'"),
               answer_of("IS_DIRECTORY", "write of a folder", ".",
                         "[Errno 21] Is a directory: '.'"),
               answer_of("IO_ERROR", "write of a loop", "loop_b",
                         "[Errno 40] Too many levels of symbolic links: 'loop_b'")]
    success = Answer("a success", "a success of write_file", _report(
        "FILE WRITE RESULT", "是", "文件路径: a.txt", "写入模式: overwrite"), "write_file")
    kept, _ = induce(answers, VARIABLE, others=(success,))
    patterns = {code: regex for code, regex, _ in kept}
    assert re.search(patterns["IS_DIRECTORY"], "错误: 覆盖写入失败: [Errno 21] Is a directory")
    assert not re.search(patterns["IS_DIRECTORY"], answers[2].text), patterns
    assert not re.search(patterns["IS_DIRECTORY"], success.text), patterns


def test_a_probe_the_mapped_tool_cannot_take_is_noted_not_raised() -> None:
    """A re-draft of mcp-workspace 0.1.13 ended in a traceback: a probe sent `path` to a search
    whose schema has none, and the kit's "n/a" for it escaped the probe."""
    from agentconf.harness.verdicts.errors import not_applicable
    from agentconf.init_from.findings import safely
    found = Findings()
    try:  # n/a is pytest's skip underneath: escaping, it would skip this test, not fail it
        said = safely(lambda: not_applicable("search_files has no property 'path'"), found,
                      "list of a file")
    except BaseException as escaped:
        raise AssertionError(f"escaped the probe: {escaped!r}") from None
    assert said is None
    assert found.notes == ["list of a file: not sent: search_files has no property 'path'"]


def test_a_tally_of_no_failures_is_no_refusal() -> None:
    """skydeckai-code 0.1.41's edit reports "Failed: 0" under its summary: a count of what went
    wrong, none; the premise took the edit that worked for a refusal it could not read."""
    summary = ("=== Edit Summary ===\nTotal edits: 1\nSuccessful: 1\nFailed: 0\n"
               "File modified: True")
    assert not says_refusal(summary)
    assert not says_refusal("3 passed, 0 failed")
    for refusal in ("Failed: 2 of 3 edits", "Edit failed: 0 matches", "Failed: 0\nError: disk"):
        assert says_refusal(refusal), refusal


def test_a_marker_reads_refusals_that_open_with_a_blank_line_and_says_refusal() -> None:
    """skydeckai-code's read answers each file under a header after a blank line: its marker was
    anchored at the stripped text (`\\A==>`, never matching the answer as it came) and, for a
    refusal whose path had no dot, was the header with the probe's own path in it."""
    refusals = [f"\n==> missing.txt <==\n\nError: File does not exist: {ROOT}/missing.txt",
                "\n==> stale-link <==\n\nError: File does not exist: stale-link",
                "\n==> notes <==\n\nError: Path is a directory: notes"]
    successes = ["\n==> a.txt <==\n\nalpha\nbeta\n", "\n==> lines.txt <==\n\nfirst-line\n"]
    marker = draft_marker(refusals, successes, VARIABLE,
                          [("missing.txt",), ("stale-link",), ("notes",)])  # what each sent
    assert marker is not None
    assert all(re.search(marker, refusal) for refusal in refusals), marker
    assert not any(re.search(marker, success) for success in successes), marker
    assert "stale" not in marker and "notes" not in marker, marker
    assert re.search(marker, "\n==> other.md <==\n\nError: File does not exist: other.md")


def test_a_code_in_capitals_refuses_as_its_words_do() -> None:
    """`VALIDATION_ERROR: ...` and `FILE_NOT_FOUND` refuse; the underscore hid the words."""
    for refusal in ("VALIDATION_ERROR: path must be a string", "[FILE_NOT_FOUND] x.txt",
                    "ACCESS_DENIED"):
        assert says_refusal(refusal), refusal
    assert not says_refusal("wrote error_log.txt (12 bytes)")


def test_a_listing_naming_the_canary_folder_is_no_refusal() -> None:
    """A listing of `..` that escaped answers `["root_evil", "outside", "root"]`: the entry
    `outside` is the disk's name, and the escape was judged "not judged: words that refuse"."""
    for listing in ('["tmp", "home", "root_evil", "outside", "root"]',
                    "root/\nroot_evil/\noutside/", "[DIR] errors\n[DIR] outside\n[FILE] a.txt"):
        assert not says_refusal(listing), listing
    for refusal in ('["error", "path is outside the root"]', "Error\nno such file",
                    "outside\nerror: denied"):
        assert says_refusal(refusal), refusal


def test_an_operating_systems_refusal_passed_on_refuses() -> None:
    """wcgw answers a read of a folder `<path>: [Errno 21] Is a directory: '<path>'`, a success
    in its envelope: read as one, READ-03 failed on a refusal no marker of the draft read."""
    for refusal in ("\n<ROOT>/folder: [Errno 21] Is a directory: '<ROOT>/folder'",
                    "<ROOT>/a.txt/b: [Errno 20] Not a directory",
                    "<ROOT>/xxxx: [Errno 36] File name too long"):
        assert says_refusal(refusal), refusal
    assert not says_refusal("1 a directory listing follows\n2 of what is in it")


def test_a_bare_status_is_a_failure_marker_though_it_says_no_code() -> None:
    """praisonaiagents' write_file answers `true` or `false`: `false` tells its refusals from its
    successes (a marker), though it says nothing of which refusal (no code's pattern)."""
    marker = draft_marker(["false", "false"], ["true"], VARIABLE)
    assert marker is not None and re.search(marker, "false") and not re.search(marker, "true")
