"""The client: profile mapping, envelope normalisation, error classification, evidence, oracle."""

import textwrap
from pathlib import Path
from typing import Any

import pytest

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.profile.model import Profile, parse_profile
from agentconf.harness.session.arguments import AsGiven
from agentconf.harness.session.client import Client, set_target
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import parse_spec
from agentconf.harness.verdicts.errors import (
    ContractViolation,
    EscapeDetected,
    ImplementationFailure,
)


class Scripted:
    """An adapter that answers what it is told to and records what it was sent."""

    name, version = "scripted", None

    def __init__(self, answers: list[Any], tools: list[dict[str, Any]] | None = None) -> None:
        self.answers = answers
        self.tools = tools or [{"name": "read_file"}, {"name": "edit"}]
        self.sent: list[tuple[str, Any]] = []

    def list_tools(self) -> list[dict[str, Any]]:
        return self.tools

    def call_tool(self, name: str, arguments: Any) -> Any:
        self.sent.append((name, arguments))
        return self.answers.pop(0)

    def call_many(self, calls: list[tuple[str, Any]]) -> list[Any]:
        return [self.call_tool(name, arguments) for name, arguments in calls]

    def close(self) -> None:
        pass


@pytest.fixture
def sandbox(tmp_path: Path) -> SandboxWorkspace:
    return SandboxWorkspace(base=tmp_path)


def client_for(sandbox: SandboxWorkspace, adapter: Any, profile_toml: str = "") -> Client:
    import tomllib

    profile = Profile()
    if profile_toml:
        profile = parse_profile(tomllib.loads(textwrap.dedent(profile_toml)))
    return Client(adapter, profile, sandbox.root, sandbox.oracle, sandbox.sandbox)


EDIT_PROFILE = """
[tools.edit_file]
name = "edit"
args = { path = "file", old_text = "edits[0].oldText", new_text = "edits[0].newText" }
defaults = { dryRun = false }
"""


def test_canonical_arguments_reach_nested_targets_with_defaults(sandbox) -> None:
    adapter = Scripted([{"success": True, "data": "edited"}])
    client = client_for(sandbox, adapter, EDIT_PROFILE)
    result = client.call("edit_file", path="a.txt", old_text="x", new_text="y")
    assert adapter.sent == [("edit", {"dryRun": False, "file": "a.txt",
                                      "edits": [{"oldText": "x", "newText": "y"}]})]
    assert result.request.tool == "edit_file"
    assert result.request.arguments == {"path": "a.txt", "old_text": "x", "new_text": "y"}
    assert "sent as: edit" in result.evidence()


def test_set_target_builds_lists_and_objects_on_the_way() -> None:
    sent: dict[str, Any] = {}
    set_target(sent, "edits[1].old", "b")
    set_target(sent, "opts.deep.flag", True)
    assert sent == {"edits": [None, {"old": "b"}], "opts": {"deep": {"flag": True}}}


def test_call_raw_sends_names_and_non_object_arguments_untouched(sandbox) -> None:
    adapter = Scripted([{"success": False, "data": "no such tool", "error": "TOOL_NOT_FOUND"}])
    client = client_for(sandbox, adapter, EDIT_PROFILE)
    result = client.call_raw("edit_file", ["not", "an", "object"])
    assert adapter.sent == [("edit_file", ["not", "an", "object"])]
    assert result.error == "TOOL_NOT_FOUND"


def test_absolute_paths_join_relative_paths_to_the_root_only(sandbox) -> None:
    adapter = Scripted([{"success": True, "data": ""}] * 4)
    client = client_for(sandbox, adapter, "[implementation]\nabsolute_paths = true\n")
    client.call("read_file", path="a/b.txt")
    client.call("read_file", path="/etc/passwd")
    # `~/x` is a relative path of the root (CONFINE-03): sent as a model types it only on demand.
    client.call("read_file", path="~/.ssh/authorized_keys")
    client.call("read_file", path=AsGiven("~/.ssh/authorized_keys"))
    assert [arguments["path"] for _, arguments in adapter.sent] == [
        str(sandbox.root / "a/b.txt"), "/etc/passwd",
        str(sandbox.root / "~/.ssh/authorized_keys"), "~/.ssh/authorized_keys"]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("plain text", "not an envelope object but str"),
        ({"data": "x"}, "success: Field required"),
        ({"success": "true", "data": "x"}, "success: Input should be a valid boolean"),
        ({"success": True, "data": 5}, "data: Input should be a valid string"),
        ({"success": False, "data": "x", "issues": "bad"}, "issues: Input should be a valid list"),
    ],
)
def test_an_answer_that_is_not_an_envelope_is_a_contract_violation(sandbox, answer, reason) -> None:
    client = client_for(sandbox, Scripted([answer]))
    with pytest.raises(ContractViolation, match=reason):
        client.call("read_file", path="a.txt")


def test_a_failure_without_a_code_is_classified_by_the_profile_patterns(sandbox) -> None:
    profile = """
    [[error_patterns]]
    code = "OUTSIDE_ROOT"
    pattern = "(?i)access denied"
    [[error_patterns]]
    code = "NOT_FOUND"
    pattern = "ENOENT"
    """
    answers = [{"success": False, "data": "Access denied - path outside allowed directories"},
               {"success": False, "data": "ENOENT: a.txt"},
               {"success": False, "data": "something else"}]
    client = client_for(sandbox, Scripted(answers), profile)
    codes = [client.call("read_file", path="x").error for _ in range(3)]
    assert codes == ["OUTSIDE_ROOT", "NOT_FOUND", None]


def test_their_spelling_of_a_code_is_mapped_onto_ours(sandbox) -> None:
    answer = {"success": False, "data": "escapes the root", "error": "path_escape"}
    profile = '[error_codes]\npath_escape = "OUTSIDE_ROOT"\n'
    client = client_for(sandbox, Scripted([answer]), profile)
    result = client.call("read_file", path="../x")
    assert result.error == "OUTSIDE_ROOT"
    assert "classified by the profile" in result.evidence()


def test_evidence_replaces_the_root_with_a_placeholder(sandbox) -> None:
    answer = {"success": False, "data": f"{sandbox.root}/a.txt not found", "error": "NOT_FOUND"}
    result = client_for(sandbox, Scripted([answer])).call("read_file", path=str(sandbox.root))
    assert str(sandbox.root) not in result.evidence()
    assert "<ROOT>/a.txt not found" in result.evidence()


def test_the_oracle_judges_after_every_call_even_one_that_failed(sandbox) -> None:
    class EscapesThenCrashes(Scripted):
        def call_tool(self, name: str, arguments: Any) -> Any:
            (sandbox.outside / "dropped.txt").write_text("x")
            raise ImplementationFailure("crashed")

    client = client_for(sandbox, EscapesThenCrashes([]))
    with pytest.raises(EscapeDetected, match=r"created outside/dropped\.txt"):
        client.call("read_file", path="a.txt")


def test_a_secret_in_the_listing_is_an_escape(sandbox) -> None:
    tools = [{"name": "read_file", "description": f"leaks {sandbox.secret}"}]
    with pytest.raises(EscapeDetected, match="secret"):
        client_for(sandbox, Scripted([], tools)).list_tools()


def test_a_listing_entry_without_a_name_is_a_contract_violation(sandbox) -> None:
    with pytest.raises(ContractViolation, match="string `name`"):
        client_for(sandbox, Scripted([], [{"description": "anonymous"}])).list_tools()


def test_capabilities_come_from_the_listing_through_the_mapping_and_the_profile(sandbox) -> None:
    profile = EDIT_PROFILE + "[capabilities]\nread_file = false\ndiff = false\n"
    client = client_for(sandbox, Scripted([]), profile)
    assert client.has("edit_file")  # advertised as "edit"
    assert not client.has("read_file")  # advertised, but switched off
    assert not client.has("grep")  # not advertised
    assert not client.has("diff") and client.has("summary")  # features default on
    assert client.tool_name("edit_file") == "edit"
    with pytest.raises(ValueError, match="unknown capability"):
        client.has("teleport")


def test_an_in_process_implementation_runs_async_calls_together(sandbox) -> None:
    sandbox.write("a.txt", "alpha")
    spec = parse_spec("python:harness_toys:create")
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    client = Client(open_adapter(spec, env), spec.profile, sandbox.root, sandbox.oracle)
    try:
        results = client.call_concurrently([("read_file", {"path": "a.txt"})] * 4)
        assert [result.data for result in results] == ["alpha"] * 4
        assert client.adapter._impl.most_in_flight == 4  # type: ignore[attr-defined]
    finally:
        client.close()


def test_an_exception_escaping_call_tool_is_a_contract_violation(sandbox) -> None:
    spec = parse_spec("python:harness_toys:create_raising")
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    client = Client(open_adapter(spec, env), spec.profile, sandbox.root, sandbox.oracle)
    try:
        with pytest.raises(ContractViolation, match=r"raised RuntimeError: boom.*RESULT-04"):
            client.call("read_file", path="a.txt")
    finally:
        client.close()


@pytest.mark.parametrize("factory", ["create", "create_closing"])
def test_closing_an_in_process_session_closes_the_implementation_once_and_its_loop(
    sandbox, factory
) -> None:
    spec = parse_spec(f"python:harness_toys:{factory}")
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    adapter = open_adapter(spec, env)
    adapter.call_tool("read_file", {"path": "a.txt"})
    adapter.close()
    adapter.close()
    assert getattr(adapter._impl, "closed", 1) == 1  # type: ignore[attr-defined]
    assert not adapter.alive  # its event loop (a selector and a socket pair) is closed too


def test_a_factory_that_raises_is_an_implementation_failure(sandbox) -> None:
    spec = parse_spec("python:harness_toys:create_broken")
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    with pytest.raises(ImplementationFailure, match="factory raised OSError"):
        open_adapter(spec, env)


def test_a_sync_implementation_sees_the_sandbox_home_during_calls(sandbox) -> None:
    import os

    spec = parse_spec("python:harness_toys:create_sync")
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    real_home = os.environ.get("HOME")
    adapter = open_adapter(spec, env)
    try:
        seen: list[str | None] = []
        adapter._impl._answer = lambda name, args: (  # type: ignore[attr-defined]
            seen.append(os.environ.get("HOME")) or {"success": True, "data": ""})
        adapter.call_tool("read_file", {"path": "a.txt"})
    finally:
        adapter.close()
    assert seen == [str(sandbox.home)]
    assert os.environ.get("HOME") == real_home


def test_a_success_s_value_at_the_error_place_is_its_content_not_a_code(sandbox) -> None:
    """A listing answered as a JSON array whose failures put `{"error": ...}` at /0: a success's
    /0 is its first name, never a code (a code on a success fails RESULT-02)."""
    answers = [{"success": True, "data": '["a.txt", "sub/"]'},
               {"success": True, "data": '[{"path": "x", "error": "File not found"}]'}]
    profile = """
              [tools.list_files]
              result = { failure = { path = "/0/error", present = true }, error = "/0" }
              """
    client = client_for(sandbox, Scripted(answers, [{"name": "list_files"}]), profile)
    listed = client.call("list_files", path=".")
    assert listed.success and listed.error is None, listed.evidence()
    missing = client.call("list_files", path="x")
    assert not missing.success, missing.evidence()


@pytest.mark.parametrize("delete_first", [False, True])
def test_one_tool_for_two_canonical_ones_answers_in_each_one_s_shape(
        sandbox, delete_first: bool) -> None:
    # The write's own answer has a `failed` key too (the files it could not write: none).
    answers = [{"success": True, "data": '{"written": ["a.txt"], "failed": []}'},
               {"success": True, "data": '{"failed": true, "why": "no such file"}'}]
    write = '[tools.write_file]\nname = "file_ops"\ndefaults = { action = "write" }\n'
    delete = ('[tools.delete_file]\nname = "file_ops"\ndefaults = { action = "delete" }\n'
              'result = { failure = { path = "failed", present = true } }\n')
    profile = delete + write if delete_first else write + delete
    client = client_for(sandbox, Scripted(answers, [{"name": "file_ops"}]), profile)
    assert client.call("write_file", path="a.txt", content="x").success
    assert not client.call("delete_file", path="a.txt").success
