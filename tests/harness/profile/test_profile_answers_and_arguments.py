"""The profile's keys applied to a real `cmd:` program shaped like real implementations (see
profile_programs.py): JSON answers read where the profile says, failures inside the JSON seen,
units, windows and counts converted, unmappable arguments dropped with a note, capabilities
derived from the schemas, [env], [setup.files] and modes."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from profile_programs import write_toy

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.client import Client
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.launch import launch_env, write_setup_files
from agentconf.harness.target.spec import ImplSpec, parse_spec
from agentconf.harness.verdicts.errors import ExcludedToolCall, NotApplicable


def open_client(folder: Path, spec: ImplSpec) -> tuple[Client, SandboxWorkspace]:
    ws = SandboxWorkspace(base=folder / "sandbox")
    write_setup_files(spec.profile, ws.root, ws.home, ws.tmp)
    ws.rebaseline()
    env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp, log_dir=ws.logs,
                     extra_env=launch_env(spec.profile, ws.root, ws.home, ws.tmp, spec.mode))
    return Client(open_adapter(spec, env), spec.profile, ws.root, ws.oracle, ws.sandbox), ws


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[tuple[Client, SandboxWorkspace]]:
    client, ws = open_client(tmp_path, parse_spec(str(write_toy(tmp_path))))
    yield client, ws
    client.close()


def received(result) -> dict:  # type: ignore[no-untyped-def]
    return json.loads(result.raw["data"])["received"]


# ---- answers -----------------------------------------------------------------------------------

def test_bash_text_is_read_from_the_json_so_non_ascii_and_newlines_compare(toy) -> None:
    client, _ws = toy
    result = client.call("bash", command="printf 'grüße\\nA\\\\nB'; echo warn >&2")
    assert result.success, result.evidence()
    # SHELL-01's comparison, on the text a model reads, not on the JSON-escaped answer.
    assert "grüße\nA\\nB" in result.data, result.evidence()
    assert "warn" in result.data
    assert "grüße" not in result.raw["data"]  # the answer itself is escaped JSON
    assert "text read at [tools.bash].result.text" in result.evidence()


def test_the_exit_code_is_read_from_the_json(toy) -> None:
    client, _ws = toy
    result = client.call("bash", command="echo out; exit 3")
    assert (result.success, result.exit_code) == (False, 3), result.evidence()
    assert "out" in result.data


def test_read_text_is_the_file_content_not_its_json_encoding(toy) -> None:
    client, ws = toy
    ws.write("a.txt", "unicode é中😀\ncrlf one\r\n")
    result = client.call("read_file", path="a.txt")
    assert result.success, result.evidence()
    assert "unicode é中😀" in result.data and "crlf one" in result.data


def test_a_failure_marker_in_the_json_turns_a_success_answer_into_a_failure(toy) -> None:
    client, ws = toy
    ws.write("a.txt", "alpha\n")
    result = client.call("edit_file", path="a.txt", old_text="omega", new_text="x")
    assert result.raw["success"] is True  # what the implementation said
    assert result.success is False, result.evidence()
    assert result.error == "TEXT_NOT_FOUND", result.evidence()  # its reason, classified
    assert ws.read_bytes("a.txt") == b"alpha\n"


def test_without_the_result_table_the_false_pass_and_false_failure_come_back(tmp_path) -> None:
    path = write_toy(tmp_path, drop=("[tools.edit_file.result]", "[tools.bash]"))
    client, ws = open_client(tmp_path, parse_spec(str(path)))
    try:
        ws.write("a.txt", "alpha\n")
        assert client.call("edit_file", path="a.txt", old_text="omega", new_text="x").success
        result = client.call("bash", command="printf 'grüße'")
        assert "grüße" not in result.data
    finally:
        client.close()


# ---- arguments ---------------------------------------------------------------------------------

def test_a_line_window_is_sent_as_offset_and_limit(toy) -> None:
    client, ws = toy
    ws.write("lines.txt", "one\ntwo\nthree\nfour\n")
    result = client.call("read_file", path="lines.txt", start_line=2, end_line=3)
    assert received(result) == {"file_path": "lines.txt", "offset": 2, "limit": 2}
    assert result.data == "two\nthree\n", result.evidence()


def test_an_integral_float_line_window_is_shifted_as_its_integer() -> None:
    # VALIDATE-08 sends start_line 2.0: the implementation must get the same window as for 2
    # (Desktop Commander was sent 2.0 unshifted, a line off, and judged for it).
    from agentconf.harness.session.arguments import _as_offset_limit

    assert _as_offset_limit({"start_line": 2.0, "end_line": 3.0}, 0) == {
        "start_line": 1.0, "end_line": 2.0}
    assert _as_offset_limit({"start_line": 2, "end_line": 3}, 0) == {
        "start_line": 1, "end_line": 2}
    fraction = {"start_line": 2.5, "end_line": 3}
    assert _as_offset_limit(fraction, 0) == fraction  # for the implementation to refuse


def test_a_default_at_a_nested_target_is_sent_there_beside_the_mapped_arguments() -> None:
    # mcp-text-editor's read: files[] of {file_path, ranges[] of {start, end}}, ranges required.
    # Its draft's `defaults = { "files[0].ranges[0].start" = 1 }` was sent as a key of that
    # very name beside files[0], so every read failed "1 validation error for FileRanges".
    from agentconf.harness.profile.model import parse_profile
    from agentconf.harness.session.arguments import shape

    profile = parse_profile({"tools": {"read_file": {
        "name": "get_text_file_contents",
        "args": {"path": "files[0].file_path", "start_line": "files[0].ranges[0].start",
                 "end_line": "files[0].ranges[0].end"},
        "defaults": {"files[0].ranges[0].start": 1, "encoding": "utf-8"}}}})
    whole = shape("read_file", {"path": "a.txt"}, profile, Path("/r"), None).sent
    assert whole == {"files": [{"ranges": [{"start": 1}], "file_path": "a.txt"}],
                     "encoding": "utf-8"}
    window = shape("read_file", {"path": "a.txt", "start_line": 2, "end_line": 3}, profile,
                   Path("/r"), None).sent
    assert window["files"] == [{"ranges": [{"start": 2, "end": 3}], "file_path": "a.txt"}]


def test_a_timeout_in_milliseconds_is_sent_in_seconds(toy) -> None:
    client, _ws = toy
    result = client.call("bash", command="true", timeout_ms=2500)
    assert received(result)["timeout"] == 2.5


def test_a_whole_second_count_is_rounded_up_when_the_schema_wants_an_integer(tmp_path) -> None:
    client, _ws = open_client(tmp_path, parse_spec(str(write_toy(tmp_path, "--int-timeout"))))
    try:
        assert received(client.call("bash", command="true", timeout_ms=2500))["timeout"] == 3
    finally:
        client.close()


def test_replace_all_is_sent_as_the_count_of_occurrences(toy) -> None:
    client, ws = toy
    ws.write("a.txt", "x x x\n")
    result = client.call("edit_file", path="a.txt", old_text="x", new_text="y", replace_all=True)
    assert result.success, result.evidence()
    assert received(result)["expected_replacements"] == 3
    assert ws.read_bytes("a.txt") == b"y y y\n"
    ws.write("b.txt", "x x\n")
    single = client.call("edit_file", path="b.txt", old_text="x", new_text="y", replace_all=False)
    assert single.error == "TEXT_MULTIPLE_MATCHES", single.evidence()


def test_a_check_sending_an_argument_the_tool_has_no_property_for_is_not_applicable(toy) -> None:
    """Sent without it, the check would judge another call (a search of the whole root for one
    of `link_out`: SYMLINK-07 and GREP-08 once failed so): n/a, with the key to map."""
    client, _ws = toy
    with pytest.raises(NotApplicable) as raised:
        client.call("list_files", path="sub", pattern="*")
    assert "path='sub'" in raised.value.reason
    assert "[tools.list_files].args.path" in raised.value.reason


def test_an_unknown_argument_the_implementation_has_is_not_sent_as_unknown() -> None:
    """VALIDATE-03 sends `Path` beside `path`, a name write_file lacks; a tool whose path is
    `Path` has it: sent, the write went to its value and VALIDATE-03 failed (a disguised
    reference in PascalCase). Not applicable there; still sent where it is unknown."""
    from agentconf.harness.profile.model import parse_profile
    from agentconf.harness.session.arguments import shape

    pascal = parse_profile({"tools": {"write_file": {
        "name": "WriteFile", "args": {"path": "Path", "content": "Content"}}}})
    schema = {"properties": {"Path": {"type": "string"}, "Content": {"type": "string"}}}
    call = {"path": "x.txt", "content": "c", "Path": "y.txt"}
    with pytest.raises(NotApplicable) as raised:
        shape("write_file", call, pascal, Path("/r"), schema)
    assert "'Path'" in raised.value.reason and "unknown argument" in raised.value.reason
    plain = parse_profile({"tools": {"write_file": {"name": "write_file"}}})
    sent = shape("write_file", call, plain, Path("/r"), {"properties": {
        "path": {"type": "string"}, "content": {"type": "string"}}}).sent
    assert sent == {"path": "x.txt", "content": "c", "Path": "y.txt"}


def test_a_capability_whose_argument_is_missing_is_absent_with_the_key_to_set(tmp_path) -> None:
    client, _ws = open_client(tmp_path, parse_spec(str(write_toy(tmp_path, "--no-window"))))
    try:
        why = client.why_missing("line_window")
        assert why is not None and "[tools.read_file].args.start_line" in why
        assert not client.has("line_window")
        assert client.has("read_file") and client.has("replace_all")
    finally:
        client.close()


def test_virtual_absolute_paths_send_paths_inside_the_root_as_slash_paths(tmp_path) -> None:
    extra = "\n[capabilities]\nbash = true\n"
    path = write_toy(tmp_path, "--virtual", extra=extra)
    path.write_text(path.read_text().replace('name = "json-toy"',
                                             'name = "json-toy"\nvirtual_absolute_paths = true'))
    client, ws = open_client(tmp_path, parse_spec(str(path)))
    try:
        written = client.call("write_file", path=str(ws.root / "abs.txt"), content="A")
        assert received(written)["file_path"] == "/abs.txt"
        assert ws.read_bytes("abs.txt") == b"A"
        relative = client.call("read_file", path="abs.txt")
        assert received(relative)["file_path"] == "/abs.txt" and relative.data == "A"
        outside = str(ws.outside / "new.txt")
        assert client.judged_virtually(outside)
        landed = client.call("write_file", path=outside, content="B")
        assert landed.success, landed.evidence()  # root/<outside path>, nothing outside touched
        assert (ws.root / outside.lstrip("/")).read_bytes() == b"B"
    finally:
        client.close()



@pytest.mark.parametrize("case_id", ["confine-absolute-outside-write", "confine-absolute-etc-read"])
def test_a_case_expecting_outside_root_takes_a_virtual_absolute_path_landing_inside(
        tmp_path, case_id) -> None:
    """deepagents' virtual_mode: `<outside>/new.txt` is root/<outside>/new.txt by design; the data
    cases once still asked for OUTSIDE_ROOT there, as the suites' checks no longer did."""
    from agentconf.harness.cases.load import default_cases_dir, load_cases
    from agentconf.harness.cases.play import play_case

    path = write_toy(tmp_path, "--virtual")
    path.write_text(path.read_text().replace('name = "json-toy"',
                                             'name = "json-toy"\nvirtual_absolute_paths = true'))
    client, ws = open_client(tmp_path, parse_spec(str(path)))
    try:
        case = next(c for c in load_cases(default_cases_dir()) if c.id == case_id)
        _results, wrong = play_case(case, ws, client)
        assert wrong == []
    finally:
        client.close()

# ---- launch ------------------------------------------------------------------------------------

def test_env_values_get_their_placeholders_filled(toy) -> None:
    client, ws = toy
    result = client.call("bash", command='printf "%s" "$TOY_HOME_SEEN"')
    assert result.data == str(ws.home), result.evidence()


def test_setup_files_are_written_before_the_start(tmp_path) -> None:
    extra = ("\n[setup.files]\n"
             "\"{home}/.toy/config.json\" = '{\"root\": \"{root}\"}'\n")
    (tmp_path / "a").mkdir()
    configured = parse_spec(str(write_toy(tmp_path / "a", "--needs-config", extra=extra)))
    client, ws = open_client(tmp_path / "a", configured)
    try:
        ws.write("a.txt", "hello\n")
        assert client.call("read_file", path="a.txt").success
        assert json.loads((ws.home / ".toy" / "config.json").read_text())["root"] == str(ws.root)
    finally:
        client.close()
    (tmp_path / "b").mkdir()
    bare = parse_spec(str(write_toy(tmp_path / "b", "--needs-config")))
    client, ws = open_client(tmp_path / "b", bare)
    try:
        ws.write("a.txt", "hello\n")
        assert not client.call("read_file", path="a.txt").success
    finally:
        client.close()


def test_a_mode_starts_the_implementation_with_its_arguments_and_env(tmp_path) -> None:
    extra = '\n[modes.read_only]\nargs = ["--read-only"]\nenv = { TOY_MODE = "ro" }\n'
    spec = parse_spec(str(write_toy(tmp_path, extra=extra)))
    read_only = spec.with_mode("read_only")
    assert read_only.argv[-1] == "--read-only" and read_only.mode == "read_only"
    client, ws = open_client(tmp_path, read_only)
    try:
        assert not client.call("write_file", path="a.txt", content="x").success
        assert not ws.exists("a.txt")
        assert client.call("bash", command='printf "%s" "$TOY_MODE"').data == "ro"
    finally:
        client.close()


def test_an_excluded_tool_is_never_sent(toy, tmp_path) -> None:
    client, _ws = toy
    assert not client.may_call("kill_everything") and client.may_call("Read")
    with pytest.raises(ExcludedToolCall):
        client.call_raw("kill_everything", {})
    assert not (tmp_path / "markers" / "killed").exists()
