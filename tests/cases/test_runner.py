"""The case runner judges right and wrong: small in-test implementations, each wrong in one way,
fail exactly the cases that target that way, and the reference passes them.

Real temp sandboxes, real symlinks, the real harness client and oracle; the implementations are
the reference wrapped so that one behaviour is broken.
"""

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from agentconf.contract import DEFAULT_LIMITS, Workspace
from agentconf.harness.cases.judged import output_was_cut
from agentconf.harness.cases.load import load_cases
from agentconf.harness.cases.play import (
    CaseFailed,
    Placeholders,
    answer_mismatches,
    build_tree,
    disk_mismatches,
    entry_bytes,
    run_case,
    snapshot_tree,
)
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.profile.model import Profile
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Request, Result
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.adapters.python import PythonAdapter
from agentconf.harness.verdicts.errors import EscapeDetected, NotApplicable
from agentconf.reference import create as create_reference

CASES = {case.id: case for case in load_cases()}


class Wrapped:
    """The reference, with one tool's answer replaced by `override` (None: keep the reference's)."""

    def __init__(self, workspace: Workspace, override: Callable[..., Any]) -> None:
        self.inner = create_reference(workspace)
        self.root = Path(workspace.root)
        self.override = override

    def list_tools(self) -> list[dict[str, Any]]:
        return self.inner.list_tools()

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        answer = await self.override(self, name, arguments)
        return answer if answer is not None else await self.inner.call_tool(name, arguments)


async def first_match_edits(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
    """Replaces the first occurrence when old_text is ambiguous (the classic String.replace bug)."""
    if name != "edit_file":
        return None
    path = impl.root / arguments["path"]
    text = path.read_text()
    if text.count(arguments["old_text"]) > 1 and not arguments.get("replace_all"):
        path.write_text(text.replace(arguments["old_text"], arguments["new_text"], 1))
        return {"success": True, "data": "edited"}
    return None


async def lf_only_edits(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
    """Edits correctly, then writes the whole file back with LF endings."""
    if name != "edit_file":
        return None
    answer = await impl.inner.call_tool(name, arguments)
    path = impl.root / arguments["path"]
    path.write_bytes(path.read_bytes().replace(b"\r\n", b"\n"))
    return answer


async def no_confinement(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
    """write_file joins the path to the root and writes, with no check at all."""
    if name != "write_file":
        return None
    target = impl.root / arguments["path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(arguments["content"])
    return {"success": True, "data": "written"}


async def reads_before_every_edit(
    impl: Wrapped, name: str, arguments: Any
) -> dict[str, Any] | None:
    """Re-reads the file itself before each edit, so neither NOT_READ nor STALE_READ can happen."""
    if name == "edit_file" and isinstance(arguments, dict):
        await impl.inner.call_tool("read_file", {"path": arguments["path"]})
    return None


async def says_not_found(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
    """Every edit failure is TEXT_NOT_FOUND, whatever the cause."""
    if name != "edit_file":
        return None
    answer = await impl.inner.call_tool(name, arguments)
    if not answer["success"]:
        answer = {**answer, "error": "TEXT_NOT_FOUND"}
    return answer


async def unchanged(impl: Wrapped, name: str, arguments: Any) -> None:
    return None


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxWorkspace]:
    yield SandboxWorkspace(base=tmp_path)


def client_for(ws: SandboxWorkspace, override: Callable[..., Any]) -> Client:
    env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp, call_timeout_s=20, log_dir=ws.logs)
    adapter = PythonAdapter(
        lambda workspace: Wrapped(workspace, override), "wrapped", env, Profile()
    )
    return Client(adapter, Profile(), ws.root, ws.oracle, ws.sandbox)


def run(case_id: str, ws: SandboxWorkspace, override: Callable[..., Any] = unchanged) -> None:
    client = client_for(ws, override)
    try:
        run_case(CASES[case_id], ws, client)
    finally:
        client.close()


@pytest.mark.parametrize(
    "case_id",
    [
        "edit-multiple-two-lines",
        "eol-crlf-added-lines-get-crlf",
        "edit-stale-read",
        "confine-dotdot-write",
        "symlink-dangling-out-write",
        "concur-three-edits-one-file",
        "confine-absolute-inside-read",
        "read-window-of-large-file",
        "validate-arguments-are-array",
        "registry-unknown-tool-plain",
        "edit-keeps-executable-bit",
        "read-fifo",
    ],
)
def test_the_reference_meets_a_sample_of_cases(case_id: str, sandbox: SandboxWorkspace) -> None:
    run(case_id, sandbox)


def test_first_match_replacement_fails_the_multiple_matches_case(sandbox: SandboxWorkspace) -> None:
    with pytest.raises(CaseFailed) as failed:
        run("edit-multiple-two-lines", sandbox, first_match_edits)
    message = str(failed.value)
    assert "expected failure TEXT_MULTIPLE_MATCHES, got success" in message
    assert "disk: f.txt should hold b'x = 1\\nx = 1\\n', holds b'y\\nx = 1\\n'" in message


def test_an_lf_only_rewrite_fails_the_crlf_case_on_the_bytes(sandbox: SandboxWorkspace) -> None:
    with pytest.raises(CaseFailed, match=r"disk: f\.txt should hold b'alpha\\r\\nbeta"):
        run("eol-crlf-added-lines-get-crlf", sandbox, lf_only_edits)


def test_ignoring_stale_reads_fails_the_stale_read_case(sandbox: SandboxWorkspace) -> None:
    with pytest.raises(CaseFailed, match="expected failure STALE_READ"):
        run("edit-stale-read", sandbox, reads_before_every_edit)


def test_ignoring_read_before_edit_fails_the_not_read_case(sandbox: SandboxWorkspace) -> None:
    with pytest.raises(CaseFailed, match="expected failure NOT_READ"):
        run("edit-not-read", sandbox, reads_before_every_edit)


def test_one_code_for_every_failure_fails_the_distinct_codes_case(
    sandbox: SandboxWorkspace,
) -> None:
    with pytest.raises(CaseFailed, match="read TEXT_NOT_FOUND"):
        run("edit-multiple-crlf", sandbox, says_not_found)


def test_an_unconfined_write_is_caught_by_the_oracle(sandbox: SandboxWorkspace) -> None:
    with pytest.raises(EscapeDetected):
        run("confine-dotdot-write", sandbox, no_confinement)


def test_writing_through_a_dangling_link_is_caught_on_the_disk(sandbox: SandboxWorkspace) -> None:
    with pytest.raises(AssertionError) as failed:
        run("symlink-dangling-out-write", sandbox, no_confinement)
    assert "created_by_escape.txt" in str(failed.value)


def test_a_failure_message_names_the_case_its_file_and_the_evidence(
    sandbox: SandboxWorkspace,
) -> None:
    with pytest.raises(CaseFailed) as failed:
        run("edit-multiple-two-lines", sandbox, first_match_edits)
    message = str(failed.value)
    assert message.startswith("case edit-multiple-two-lines (edit/cases.json#/cases/")
    assert 'request: edit_file {"new_text": "y", "old_text": "x = 1", "path": "f.txt"}' in message
    assert str(sandbox.root) not in message


# ---- the building blocks, on plain temp folders ------------------------------------------------


class _Paths:
    def __init__(self, base: Path) -> None:
        self.sandbox, self.root = base, base / "root"
        self.outside, self.sibling, self.home = base / "outside", base / "root_evil", base / "home"
        self.secret = "s3cret"
        self.root.mkdir()


def test_every_kind_of_tree_entry_is_built_as_described(tmp_path: Path) -> None:
    paths = _Paths(tmp_path)
    places = Placeholders.of(paths, DEFAULT_LIMITS)
    build_tree(
        paths.root,
        {
            "t.txt": "plain\r\n",
            "b.bin": {"base64": "AAEC"},
            "h.bin": {"hex": "ff00"},
            "n.txt": {"lines": {"template": "row {n}", "count": 3, "eol": "\r\n"}},
            "big.txt": {
                "fill": {"text": "ab", "limit": "max_read_bytes", "times": 1, "tail": "END"}
            },
            "deep/x/link": {"symlink": "<OUTSIDE>/secret.txt"},
            "empty": {"dir": True},
            "pipe": {"fifo": True},
            "run.sh": {"text": "#!/bin/sh\n", "mode": "0750", "mtime": 1000000000},
        },
        places,
        DEFAULT_LIMITS,
    )
    root = paths.root
    assert (root / "t.txt").read_bytes() == b"plain\r\n"
    assert (root / "b.bin").read_bytes() == b"\x00\x01\x02"
    assert (root / "h.bin").read_bytes() == b"\xff\x00"
    assert (root / "n.txt").read_bytes() == b"row 1\r\nrow 2\r\nrow 3\r\n"
    big = (root / "big.txt").read_bytes()
    assert big.endswith(b"END") and len(big) - 3 >= DEFAULT_LIMITS.max_read_bytes
    assert os.readlink(root / "deep/x/link") == f"{tmp_path}/outside/secret.txt"
    assert (root / "empty").is_dir() and stat.S_ISFIFO((root / "pipe").lstat().st_mode)
    assert stat.S_IMODE((root / "run.sh").stat().st_mode) == 0o750
    assert (root / "run.sh").stat().st_mtime == 1000000000


def test_the_tree_snapshot_sees_links_and_fifos_without_following_or_opening(
    tmp_path: Path,
) -> None:
    paths = _Paths(tmp_path)
    build_tree(
        paths.root,
        {"loop": {"symlink": "loop"}, "p": {"fifo": True}, "a/b.txt": "b"},
        Placeholders.of(paths, DEFAULT_LIMITS),
        DEFAULT_LIMITS,
    )
    found = snapshot_tree(paths.root)
    assert found["loop"] == ("link", "loop")
    assert found["p"][0] == "special"
    assert found["a/b.txt"][:2] == ("file", b"b")
    assert set(found) == {"loop", "p", "a", "a/b.txt"}
    # The implementation's own state, a folder or a file ([setup].commands' .git, a config):
    # left out of what a case compares.
    own = snapshot_tree(paths.root, (paths.root / "a", paths.root / "p"))
    assert set(own) == {"loop"}


def _Answer(**fields: Any) -> Result:
    """A real Result of a read_file call with these parts (the rest empty)."""
    return Result(
        success=fields.get("success", True), data=fields.get("data", ""),
        error=fields.get("error"), summary=fields.get("summary"), diff=fields.get("diff"),
        issues=fields.get("issues"), denial=None, exit_code=None, raw={},
        request=Request("read_file", {"path": "a.txt"}, "read_file", {"path": "a.txt"}),
        refusal_unproven=fields.get("refusal_unproven"))


@pytest.mark.parametrize(
    ("answer", "expect", "complaint"),
    [
        (_Answer(success=True, data="x"), {"error": "NOT_FOUND"}, "expected failure NOT_FOUND"),
        (
            _Answer(success=False, error="IO_ERROR"),
            {"error": ["NOT_FOUND", "NOT_A_DIRECTORY"]},
            "NOT_FOUND or NOT_A_DIRECTORY, read IO_ERROR",
        ),
        (_Answer(success=True, error="NOT_FOUND"), {"success": True}, "no error code"),
        (_Answer(data="abc"), {"data_contains": ["<ROOT>/abc"]}, "should contain '/"),
        (_Answer(data="s3cret"), {"data_not_contains": ["<SECRET>"]}, "must not contain 's3cret'"),
        (_Answer(data="  \n"), {"data_nonempty": True}, "should not be empty"),
        (
            _Answer(
                data="x"
                * (DEFAULT_LIMITS.max_output_chars + DEFAULT_LIMITS.marker_budget_chars + 1)
            ),
            {"data_bounded": True},
            "more than max_output_chars",
        ),
        (_Answer(diff="-a\n+b\n"), {"diff_contains": ["+c"]}, "diff should contain '+c'"),
        (_Answer(summary=""), {"summary_nonempty": True}, "summary should be"),
        (
            _Answer(success=False, error="INVALID_ARGS", issues=[{"path": "$.path"}]),
            {"issue_paths": ["$.content"]},
            "path '$.content'",
        ),
    ],
)
def test_each_expectation_reports_its_own_mismatch(
    tmp_path: Path, answer: _Answer, expect: dict[str, Any], complaint: str
) -> None:
    places = Placeholders.of(_Paths(tmp_path), DEFAULT_LIMITS)
    wrong = answer_mismatches(answer, expect, places, DEFAULT_LIMITS)
    assert len(wrong) == 1 and complaint in wrong[0], wrong


@pytest.mark.parametrize("said", ['$["target-file"]', "$['target-file']", "$.target-file"])
def test_an_issue_path_in_bracket_notation_names_the_same_field(tmp_path: Path, said: str) -> None:
    places = Placeholders.of(_Paths(tmp_path), DEFAULT_LIMITS)
    answer = _Answer(success=False, error="INVALID_ARGS", issues=[{"path": said}])
    assert answer_mismatches(answer, {"issue_paths": ["$.target-file"]}, places,
                             DEFAULT_LIMITS) == []


@pytest.mark.parametrize(
    ("shown", "cut"),
    [(1.02, True), (1.9, True), (2.5, False), (6.0, False)],
    ids=["bound-overshot-by-its-marker", "under-twice", "over-twice", "whole"],
)
def test_a_case_of_how_a_cut_is_made_is_judged_only_on_a_cut_answer(shown: float,
                                                                      cut: bool) -> None:
    """Its command prints three times the limit or more: an answer a little over the bound was
    cut (a long marker is TRUNCATE-01's to judge), one over twice the limit was not."""
    limits = DEFAULT_LIMITS.with_overrides({"max_output_chars": 10_000})
    answer = _Answer(data="x" * int(shown * 10_000))
    if cut:
        output_was_cut(answer, {"data_cut": True}, limits)
    else:
        with pytest.raises(NotApplicable, match="the output was not cut"):
            output_was_cut(answer, {"data_cut": True}, limits)
    output_was_cut(answer, {"data_bounded": True}, limits)  # a bound's case stands on no cut


@pytest.mark.parametrize("marker", ["[188914 earlier characters not shown]\n",
                                    "\n... 3,000 lines truncated ...\n", "\n[output truncated]\n"])
def test_an_answer_that_says_it_left_part_out_was_cut_however_long(marker: str) -> None:
    """A bound of the implementation's own at twice the contract's (rigout: 100,000 characters
    and "[N earlier characters not shown]"): its answers were taken for uncut by length."""
    limits = DEFAULT_LIMITS.with_overrides({"max_output_chars": 10_000})
    output_was_cut(_Answer(data=marker + "x" * 25_000), {"data_cut": True}, limits)
    with pytest.raises(NotApplicable, match="the output was not cut"):
        output_was_cut(_Answer(data="1 2 3 lines\n" + "x" * 25_000), {"data_cut": True}, limits)


@pytest.mark.parametrize("error", [None, "ENOENT"], ids=["no-code", "unmapped-spelling"])
def test_a_refusal_whose_code_is_not_read_meets_the_expected_failure(
    tmp_path: Path, error: str | None
) -> None:
    """Behaviour and code judged apart: the refusal is the case's; an unread code is RESULT-02's."""
    places = Placeholders.of(_Paths(tmp_path), DEFAULT_LIMITS)
    answer = _Answer(success=False, error=error, data="no such file: a.txt")
    assert answer_mismatches(answer, {"error": "NOT_FOUND"}, places, DEFAULT_LIMITS) == []


def test_disk_expectations_each_report_their_own_mismatch(tmp_path: Path) -> None:
    paths = _Paths(tmp_path)
    places = Placeholders.of(paths, DEFAULT_LIMITS)
    build_tree(
        paths.root, {"a.txt": "new", "m": {"text": "", "mode": "0644"}}, places, DEFAULT_LIMITS
    )
    paths.outside.mkdir()
    (paths.outside / "leak").write_text("x")
    before = {"gone.txt": ("file", b"", 0o644)}
    wrong = disk_mismatches(
        paths.root,
        {
            "files": {"a.txt": {"one_of": ["old", {"text": "older"}]}},
            "absent": ["<OUTSIDE>/leak"],
            "exists": ["missing"],
            "modes": {"m": "0755"},
            "unchanged": True,
            "tree_paths": ["a.txt"],
        },
        before,
        places,
        DEFAULT_LIMITS,
    )
    joined = "\n".join(wrong)
    assert len(wrong) == 6, joined
    for words in (
        "a.txt should hold",
        "<OUTSIDE>/leak should not exist",
        "missing should exist",
        "m should have mode 0755",
        "unchanged by the last call",
        "hold exactly ['a.txt']",
    ):
        assert words in joined


def test_a_sha256_expectation_matches_the_bytes_it_names(tmp_path: Path) -> None:
    paths = _Paths(tmp_path)
    places = Placeholders.of(paths, DEFAULT_LIMITS)
    build_tree(paths.root, {"a.txt": "abc"}, places, DEFAULT_LIMITS)
    digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # sha256("abc")
    expected = {"files": {"a.txt": {"sha256": digest}}}
    assert disk_mismatches(paths.root, expected, {}, places, DEFAULT_LIMITS) == []
    assert disk_mismatches(
        paths.root, {"files": {"a.txt": {"sha256": "0" * 64}}}, {}, places, DEFAULT_LIMITS
    )


def test_entry_bytes_of_text_is_utf8_without_newline_conversion() -> None:
    assert entry_bytes({"text": "é\r\n"}, DEFAULT_LIMITS) == b"\xc3\xa9\r\n"


async def bash_cut_at_2000(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
    """A shell whose output is bounded at its own 2,000 characters (1,500 answered here)."""
    if name != "bash":
        return None
    return {"success": True, "data": "x" * 1500 + "\n[output cut]"}


def test_a_case_bounds_a_tools_answer_by_that_tools_own_limit(sandbox: SandboxWorkspace) -> None:
    """openhands-tools: the file editor cuts at 16,000 characters ([limits]), the terminal at
    30,000 ([tools.bash].limits). The data cases judged the terminal's answers by 16,000 (TRUNCATE-
    01/04, SHELL-08 failed) while the property checks used the terminal's own bound."""
    from agentconf.harness.profile.model import parse_profile

    profile = parse_profile({"limits": {"max_output_chars": 100},
                             "tools": {"bash": {"limits": {"max_output_chars": 2000}}}})
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, call_timeout_s=20,
                     log_dir=sandbox.logs)
    adapter = PythonAdapter(lambda workspace: Wrapped(workspace, bash_cut_at_2000), "wrapped",
                            env, profile)
    client = Client(adapter, profile, sandbox.root, sandbox.oracle, sandbox.sandbox)
    try:
        run_case(CASES["truncate-bounded"], sandbox, client)
    finally:
        client.close()


def test_a_case_sending_an_optional_argument_requires_the_capability_it_needs() -> None:
    """A listing sent a pattern needs list_pattern, a read sent a window line_window: where the
    implementation lacks one the case is n/a, never played with an argument its tool lacks."""
    assert CASES["registry-list-changes-nothing"].argument_requirements == ("list_pattern",)
    assert CASES["read-window-past-eof"].argument_requirements == ("line_window",)
    assert CASES["edit-missing-file"].argument_requirements == ()


async def path_named_file(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
    """read_file's path is called `file`: its issues point at `$.file`, or (`wrong`) at `$.path`
    although no such field is in its schema."""
    if name != "read_file" or not isinstance(arguments, dict):
        return None
    own = {("path" if key == "file" else key): value for key, value in arguments.items()}
    answer = await impl.inner.call_tool(name, own)
    pointer = "$.path" if getattr(impl, "wrong", False) else "$.file"
    issues = [{**issue, "path": pointer if issue.get("path") == "$.path" else issue["path"]}
              for issue in answer.get("issues") or []]
    return {**answer, "issues": issues} if issues else answer


@pytest.mark.parametrize("wrong", [False, True], ids=["its-own-name", "the-canonical-name"])
def test_an_expected_issue_pointer_follows_the_profile_s_name_for_the_argument(
        sandbox: SandboxWorkspace, wrong: bool) -> None:
    async def override(impl: Wrapped, name: str, arguments: Any) -> dict[str, Any] | None:
        impl.wrong = wrong  # type: ignore[attr-defined]
        return await path_named_file(impl, name, arguments)

    profile = Profile.model_validate({"tools": {"read_file": {"args": {"path": "file"}}}})
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, call_timeout_s=20,
                     log_dir=sandbox.logs)
    adapter = PythonAdapter(lambda workspace: Wrapped(workspace, override), "named", env, profile)
    client = Client(adapter, profile, sandbox.root, sandbox.oracle, sandbox.sandbox)
    try:
        if wrong:
            with pytest.raises(CaseFailed, match=r"\$\.file"):
                run_case(CASES["validate-missing-path-for-read"], sandbox, client)
        else:
            run_case(CASES["validate-missing-path-for-read"], sandbox, client)
    finally:
        client.close()
