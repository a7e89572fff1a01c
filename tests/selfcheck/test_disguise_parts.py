"""The disguise's own parts, in process and fast: every disguise the full strategy draws is the
reference in other clothes (names lead back, a call in disguise does what the reference does, a
failure is still a failure by the disguise's own signal), so that a divergence the property
finds is the kit's mistake and never the disguise's; and the comparison finds a divergence
planted by hand and forgives only what a disguise removed."""

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from agentconf.contract import Workspace
from agentconf.reference import create
from agentconf.selfcheck.disguise.dimensions import (
    OPERATIONS,
    Disguise,
    JsonStatus,
    NestedEdits,
    ProgramApart,
    Selector,
    TextMarker,
)
from agentconf.selfcheck.disguise.disguised_answers import Answer
from agentconf.selfcheck.disguise.divergences import divergences
from agentconf.selfcheck.disguise.judge import Verdict
from agentconf.selfcheck.disguise.server import DisguisedSystem
from agentconf.selfcheck.disguise.strategy import disguises

TEXT = "alpha\nbeta\n"


def _served(disguise: Disguise, root: Path) -> DisguisedSystem:
    return DisguisedSystem(create(Workspace(root=root)), disguise, str(root))


def _path(disguise: Disguise, root: Path, name: str) -> str:
    return {None: name, "absolute": str(root / name), "virtual": f"/{name}"}[disguise.paths]


def _read(system: DisguisedSystem, root: Path, name: str) -> Answer:
    names = system.names
    arguments: dict[str, Any] = {names.argument("read_file", "path"):
                                 _path(names.disguise, root, name)}
    extra = names.disguise.extra_argument
    listed = {tool["name"]: tool["input_schema"] for tool in system.list_tools()}
    if extra is not None and names.extra in listed[names.tool("read_file")]["properties"]:
        arguments[str(names.extra)] = extra.value or "to check the disguise"
    selector = names.disguise.selector
    if selector is not None and "read_file" in selector.tools:
        arguments[names.selector_argument] = OPERATIONS["read_file"]
    answer = asyncio.run(system.call_tool(names.tool("read_file"), arguments))["answer"]
    assert isinstance(answer, Answer)
    return answer


def _failed(disguise: Disguise, answer: Answer) -> bool:
    signal = disguise.failure_signal
    if isinstance(signal, JsonStatus):
        return bool(json.loads(answer.text)[signal.key] == signal.failed)
    if isinstance(signal, TextMarker):
        return answer.text.lstrip('"').startswith(signal.marker)
    return answer.is_error


def _text(disguise: Disguise, answer: Answer) -> str:
    signal = disguise.failure_signal
    if isinstance(signal, JsonStatus):
        return str(json.loads(answer.text)[disguise.result_key or signal.text_key])
    return str(json.loads(answer.text)[disguise.result_key]) if disguise.result_key else answer.text


@settings(max_examples=60)
@given(disguises())
def test_every_name_a_disguise_shows_leads_back(disguise: Disguise) -> None:
    with tempfile.TemporaryDirectory() as folder:
        system = _served(disguise, Path(folder))
        listed = system.list_tools()
        reference = system.inner.list_tools()
    shown = [tool["name"] for tool in listed]
    assert len(set(shown)) == len(shown)
    # A selector lists the tools it stands for as one, named back as the first of them.
    behind = disguise.selector.tools[1:] if disguise.selector else ()
    assert [system.names.canonical_tool(name) for name in shown] == [
        tool["name"] for tool in reference if tool["name"] not in behind]
    for tool in reference:
        arguments = system.names.reference_arguments[tool["name"]]
        for argument in arguments:
            back = system.names.canonical_argument(
                tool["name"], system.names.argument(tool["name"], argument), arguments)
            assert back == argument


@settings(max_examples=60)
@given(disguises())
def test_a_read_in_disguise_answers_the_file_or_fails_by_the_disguise_s_own_signal(
        disguise: Disguise) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "a.txt").write_text(TEXT, "utf-8")
        system = _served(disguise, root)
        system.list_tools()
        found, missing = _read(system, root, "a.txt"), _read(system, root, "missing.txt")
    assert not _failed(disguise, found), found
    assert "alpha" in _text(disguise, found) and "beta" in _text(disguise, found)
    assert _failed(disguise, missing), missing
    if disguise.codes is None:
        assert (missing.structured or {}).get("error"), missing


def test_a_selector_s_operation_picks_the_tool_and_an_unknown_one_is_refused(
        tmp_path: Path) -> None:
    disguise = Disguise(selector=Selector(name="files", argument="op",
                                          tools=("read_file", "write_file")))
    system = _served(disguise, tmp_path)
    listed = {tool["name"]: tool for tool in system.list_tools()}
    assert "read_file" not in listed and "write_file" not in listed
    assert listed["files"]["input_schema"]["required"] == ["op", "path"]
    assert 'op: "read" | "write"' in listed["files"]["description"]

    def call(arguments: dict[str, Any]) -> Answer:
        answer = asyncio.run(system.call_tool("files", arguments))["answer"]
        assert isinstance(answer, Answer)
        return answer

    assert not call({"op": "write", "path": "a.txt", "content": TEXT}).is_error
    assert (tmp_path / "a.txt").read_text("utf-8") == TEXT
    assert "beta" in call({"op": "read", "path": "a.txt"}).text
    refused = call({"op": "delete", "path": "a.txt"})
    assert refused.is_error and (refused.structured or {}).get("error") == "INVALID_ARGS"
    assert "read, write" in refused.text and (tmp_path / "a.txt").exists()


def test_a_docstring_disguise_describes_arguments_only_in_its_args_section(
        tmp_path: Path) -> None:
    system = _served(Disguise(docstring=True, nested_edits=NestedEdits()), tmp_path)
    edit = next(tool for tool in system.list_tools() if tool["name"] == "edit_file")
    properties = edit["input_schema"]["properties"]
    assert all("description" not in prop for prop in properties.values()), properties
    assert properties["edits"]["items"] == {"type": "object",
                                            "additionalProperties": {"type": "string"}}
    assert "\nArgs:\n    path: " in edit["description"]
    assert "    edits: List of {old, new} dictionaries." in edit["description"]


def _call(system: DisguisedSystem, tool: str, arguments: dict[str, Any]) -> Answer:
    answer = asyncio.run(system.call_tool(tool, arguments))["answer"]
    assert isinstance(answer, Answer)
    return answer


@pytest.mark.parametrize(("window", "second_line"), [
    ("zero_based", {"startLine": 1, "endLine": 1}),
    ("offset_limit", {"offset": 1, "limit": 1}),
])
def test_a_window_counted_otherwise_reads_the_reference_s_lines(
        tmp_path: Path, window: Any, second_line: dict[str, int]) -> None:
    (tmp_path / "a.txt").write_text(TEXT + "gamma\n", "utf-8")
    system = _served(Disguise(line_window=window, argument_case="camel"), tmp_path)
    read = next(tool for tool in system.list_tools() if tool["name"] == "read_file")
    assert set(read["input_schema"]["properties"]) == {"path", *second_line}
    assert "1-based" not in json.dumps(read)
    answer = _call(system, "read_file", {"path": "a.txt", **second_line}).text
    assert "beta" in answer and "alpha" not in answer and "gamma" not in answer, answer


@pytest.mark.parametrize("required", [True, False])
def test_a_program_apart_from_its_arguments_runs_as_one_argv(
        tmp_path: Path, required: bool) -> None:
    apart = ProgramApart(program="command", arguments="arguments", required=required)
    system = _served(Disguise(program_apart=apart), tmp_path)
    runner = next(tool for tool in system.list_tools() if tool["name"] == "exec")
    schema = runner["input_schema"]
    assert "argv" not in schema["properties"] and "argv" not in runner["description"]
    assert schema["required"] == (["command", "arguments"] if required else ["command"])
    assert _call(system, "exec", {"command": "echo", "arguments": ["a  b", "c"]}).text.startswith(
        "a  b c")
    if not required:
        assert _call(system, "exec", {"command": "pwd"}).text.startswith(str(tmp_path))


def test_an_operation_head_opens_every_failure_of_its_tool(tmp_path: Path) -> None:
    system = _served(Disguise(operation_heads=True), tmp_path)
    system.list_tools()
    missing = _read(system, tmp_path, "missing.txt")
    assert missing.is_error and missing.text.startswith("Error reading file: "), missing


def test_a_divergence_planted_by_hand_is_found() -> None:
    reference = {"READ-02": Verdict("pass", ""), "RESULT-02": Verdict("pass", "")}
    planted = {**reference, "READ-02": Verdict("fail", "planted")}
    found = divergences(reference, planted, Disguise())
    assert [(d.clause, d.reference, d.disguised) for d in found] == [("READ-02", "pass", "fail")]


def test_only_the_clauses_whose_information_was_removed_may_differ() -> None:
    reference = {"READ-02": Verdict("pass", ""), "RESULT-02": Verdict("pass", ""),
                 "SURFACE-01": Verdict("pass", "")}
    disguised = {"READ-02": Verdict("fail", ""), "RESULT-02": Verdict("fail", ""),
                 "SURFACE-01": Verdict("n/a", "")}
    without_codes = divergences(reference, disguised, Disguise(codes="absent"))
    assert [d.clause for d in without_codes] == ["READ-02"]  # SURFACE: modes, in no draft
    with_codes = divergences(reference, disguised, Disguise(codes="text_prefix"))
    assert [d.clause for d in with_codes] == ["READ-02", "RESULT-02"]
    gone = divergences(reference, {"READ-02": Verdict("pass", "")}, Disguise())
    assert [(d.clause, d.disguised) for d in gone] == [("RESULT-02", "missing"),
                                                        ("SURFACE-01", "missing")]
