"""RESULT: one envelope shape for success and failure, stable codes, readable failures (dskcode).

Judged on the envelope's fields and codes, never on wording: any implementation with its own
phrasing of every message passes.
"""

import weakref
from collections.abc import Callable
from typing import Any

import pytest
from _checks import refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.contract import DESTRUCTIVE_TOOLS, ERROR_CODES
from agentconf.harness.cases.load import Case, load_cases
from agentconf.harness.cases.play import play_probe
from agentconf.harness.session.answers import document_of, strings_in
from agentconf.harness.verdicts.errors import ImplementationFailure, not_applicable
from agentconf.strategies import json_values

# Function-scoped `ws`/`client` are shared by a property's examples on purpose (one session).
PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)

Call = Callable[[Any, Any], Any]
# tool_search may reveal deferred tools, so a later listing can be longer: a property draws from
# the session's first listing, or hypothesis would see its choices change under it.
_FIRST_LISTING: "weakref.WeakKeyDictionary[Any, list[str]]" = weakref.WeakKeyDictionary()


def _read_missing(ws: Any, client: Any) -> Any:
    return client.call("read_file", path="missing.txt")


def _read_folder(ws: Any, client: Any) -> Any:
    ws.mkdir("folder")
    return client.call("read_file", path="folder")


def _write_outside(ws: Any, client: Any) -> Any:
    return client.call("write_file", path="../escape.txt", content="x")


def _edit_no_match(ws: Any, client: Any) -> Any:
    ws.write("a.txt", "alpha\n")
    if client.has("read_file"):
        client.call("read_file", path="a.txt")
    return client.call("edit_file", path="a.txt", old_text="omega", new_text="x")


def _bash_exit_3(ws: Any, client: Any) -> Any:
    return client.call("bash", command="exit 3")


def _unknown_tool(ws: Any, client: Any) -> Any:
    return client.call_raw("agentconf_no_such_tool", {})


def _ill_typed(ws: Any, client: Any) -> Any:
    return client.call("read_file", path=3)


def _list_root(ws: Any, client: Any) -> Any:
    ws.write("a.txt", "alpha\n")
    return client.call("list_files", path=".")


def _write_new(ws: Any, client: Any) -> Any:
    return client.call("write_file", path="new.txt", content="hello\n")


def _read_file(ws: Any, client: Any) -> Any:
    ws.write("a.txt", "alpha\n")
    return client.call("read_file", path="a.txt")


def _bash_echo(ws: Any, client: Any) -> Any:
    return client.call("bash", command="echo hello")


def _grep_nothing(ws: Any, client: Any) -> Any:
    ws.write("a.txt", "alpha\n")
    return client.call("grep", pattern="agentconf-no-such-text")


def _needs(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.requires(tool)


FAILURES = [
    pytest.param(_read_missing, id="read-missing", marks=_needs("read_file")),
    pytest.param(_read_folder, id="read-folder", marks=_needs("read_file")),
    pytest.param(_write_outside, id="write-outside", marks=_needs("write_file")),
    pytest.param(_edit_no_match, id="edit-no-match", marks=_needs("edit_file")),
    pytest.param(_bash_exit_3, id="bash-exit-3", marks=_needs("bash")),
    pytest.param(_unknown_tool, id="unknown-tool"),
    pytest.param(_ill_typed, id="ill-typed", marks=_needs("read_file")),
]
SUCCESSES = [
    pytest.param(_list_root, id="list-root", marks=_needs("list_files")),
    pytest.param(_write_new, id="write-new", marks=_needs("write_file")),
    pytest.param(_read_file, id="read-file", marks=_needs("read_file")),
    pytest.param(_bash_echo, id="bash-echo", marks=_needs("bash")),
    pytest.param(_grep_nothing, id="grep-no-match", marks=_needs("grep")),
]


@pytest.mark.clause("RESULT-01")
@pytest.mark.parametrize("scenario", FAILURES + SUCCESSES)
def test_every_answer_has_a_boolean_success_and_a_string_data(ws, client, scenario: Call) -> None:
    result = scenario(ws, client)
    assert isinstance(result.success, bool), result.evidence()
    assert isinstance(result.data, str), result.evidence()


def _probe(case: Case) -> Any:
    marks = [pytest.mark.requires(*case.all_requirements)]
    if case.waits:
        marks.append(pytest.mark.waits)
    return pytest.param(case, marks=marks, id=f"{case.expected_code}-{case.id}")


# Two or more golden cases per code, marked `probe`, varying what is incidental to the code
# (paths, names, commands): the refusals every other clause judges by their behaviour alone.
PROBES = [_probe(case) for case in load_cases() if case.probe]


@pytest.mark.clause("RESULT-02")
@pytest.mark.parametrize("case", PROBES)
def test_a_refusal_names_the_code_of_its_cause(ws, client, case: Case) -> None:
    result = play_probe(case, ws, client)
    # A success in words that refuse is a refusal no code can be read from: this clause's one
    # failure for it, where every clause that expected the refusal is not judged.
    if result.success and result.refusal_unproven is not None:
        not_applicable(str(result.unproven_refusal()))  # the self-check named this premise
    assert result.unproven_refusal() is None, (
        f"{case.expected_code} expected: the refusal came back as a success, in words no failure "
        f"marker of the profile reads (give it [implementation].failure or "
        f"[tools.{result.request.tool}].failure)\n{result.evidence()}")
    if result.success:
        not_applicable(f"the call was not refused: {case.clauses[0]}'s matter (case {case.id})")
    assert result.error in ERROR_CODES, (
        f"{case.expected_code} expected: no contract code could be read from this refusal "
        f"(give the profile an error pattern or code mapping for it)\n{result.evidence()}")


@pytest.mark.clause("RESULT-02")
@pytest.mark.parametrize("scenario", SUCCESSES)
def test_a_success_carries_no_error_code(ws, client, scenario: Call) -> None:
    result = scenario(ws, client)
    assert result.success is True, result.evidence()
    assert result.error is None, result.evidence()


@pytest.mark.clause("RESULT-03")
@pytest.mark.parametrize("scenario", FAILURES)
def test_a_failure_says_in_words_what_went_wrong(ws, client, scenario: Call) -> None:
    result = scenario(ws, client)
    # What the profile reads as its text (a command's stdout and stderr) may be empty where the
    # answer's message says it all (`{"message": "Command execution failed", "stdout": ""}`).
    words = result.data.strip() or " ".join(strings_in(document_of(result.shown))).strip()
    assert words, result.evidence()
    assert words != result.error, result.evidence()
    assert any(char.isalpha() for char in words.replace(result.error or "", "")), result.evidence()


def _answered(call: Callable[[], Any], what: str) -> Any:
    """A crash, a hang or a protocol error is itself the RESULT-04 violation. An envelope that
    merely lacks a code is RESULT-02's, judged there (charged here too, it was a cascade)."""
    try:
        return call()
    except ImplementationFailure as failure:
        pytest.fail(f"{what:.300} ended without an envelope: {failure}")


# A NUL byte in a read's or a write's path is CONFINE-07's input: a crash on it is charged there
# alone (one cause, one clause), so it is not among these.
HOSTILE_ARGUMENTS: list[tuple[str, dict[str, Any]]] = [
    ("read_file", {"path": "x" * 100_000}),
    ("read_file", {"path": "/"}),
    ("read_file", {"path": ""}),
    ("read_file", {"path": "line\nbreak.txt"}),
    ("read_file", {"path": "💥/😀.txt"}),
    ("read_file", {"path": "a.txt", "start_line": 10**30}),
    ("read_file", {"path": "a.txt", "start_line": -(10**30)}),
    ("write_file", {"path": "deep/" * 200 + "f.txt", "content": "x"}),
    ("write_file", {"path": "n" * 300, "content": "name too long for the file system"}),
    ("write_file", {"path": "a.txt/child.txt", "content": "parent is a file"}),
    ("edit_file", {"path": "a.txt", "old_text": "\x00", "new_text": "\x00"}),
    ("list_files", {"path": "a.txt\x00"}),
    ("list_files", {"path": ".", "pattern": "[" * 50}),
    ("grep", {"pattern": "(" * 500}),
    ("grep", {"pattern": "a", "include": "\x00"}),
    ("bash", {"command": "\x00"}),
    ("bash", {"command": "echo ok", "timeout_ms": 10**30}),
]


@pytest.mark.clause("RESULT-04")
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [pytest.param(tool, args, marks=_needs(tool), id=f"{tool}-{i}")
     for i, (tool, args) in enumerate(HOSTILE_ARGUMENTS)],
)
def test_hostile_arguments_get_an_envelope_not_a_crash(ws, client, tool: str, arguments) -> None:
    ws.write("a.txt", "alpha\n")
    result = _answered(lambda: client.call(tool, **arguments), f"{tool}({arguments!r})")
    assert isinstance(result.success, bool) and isinstance(result.data, str), result.evidence()


@pytest.mark.clause("RESULT-04")
@PROPERTY
@given(data=st.data())
def test_arbitrary_json_arguments_to_any_tool_get_an_envelope(ws, client, data) -> None:
    # Only the contract's tools: an implementation's other tools (kill_process, set_config_value,
    # open_url...) are none of the kit's business and could harm the machine. bash is left out
    # too: arbitrary arguments could form a runnable command; so are the destructive path tools
    # (move, copy, delete), which are driven only with paths inside the sandbox.
    names = _FIRST_LISTING.setdefault(
        client, client.contract_tool_names(leave_out=("bash", *DESTRUCTIVE_TOOLS)))
    if not names:
        not_applicable("no contract tool other than bash is advertised")
    name = data.draw(st.sampled_from(names), label="tool")
    arguments = data.draw(
        st.one_of(st.dictionaries(st.text(max_size=8), json_values(), max_size=4), json_values()),
        label="arguments",
    )
    result = _answered(lambda: client.call_raw(name, arguments), f"{name}({arguments!r})")
    assert isinstance(result.success, bool) and isinstance(result.data, str), result.evidence()


@pytest.mark.clause("RESULT-05")
def test_a_successful_write_carries_a_one_line_summary(ws, client) -> None:
    result = client.call("write_file", path="new.txt", content="hello\nworld\n")
    assert result.success, result.evidence()
    assert isinstance(result.summary, str) and result.summary.strip(), result.evidence()
    assert "\n" not in result.summary.strip(), result.evidence()


@pytest.mark.clause("RESULT-05")
@pytest.mark.requires("edit_file")
def test_a_successful_edit_carries_a_one_line_summary(ws, client) -> None:
    ws.write("a.txt", "alpha\nbeta\n")
    if client.has("read_file"):
        client.call("read_file", path="a.txt")
    result = client.call("edit_file", path="a.txt", old_text="beta", new_text="gamma")
    assert result.success, result.evidence()
    assert isinstance(result.summary, str) and result.summary.strip(), result.evidence()
    assert "\n" not in result.summary.strip(), result.evidence()


# An include glob that does not parse reaches the search engine's own error path.
BAD_GLOBS = ["[", "{a", "a[z-a]"]


@pytest.mark.clause("RESULT-04")
@pytest.mark.requires("grep")
@pytest.mark.parametrize("include", BAD_GLOBS)
def test_an_include_glob_that_does_not_parse_gets_an_envelope(ws, client, include: str) -> None:
    ws.write("a.txt", "alpha\n")
    arguments = {"pattern": "alpha", "include": include}
    result = _answered(lambda: client.call("grep", **arguments), f"grep({arguments!r})")
    assert isinstance(result.success, bool) and isinstance(result.data, str), result.evidence()


@pytest.mark.clause("RESULT-04")
@pytest.mark.requires("write_file")
@pytest.mark.parametrize(
    "path",
    # Short names that pass PATH_MAX (4096 on Linux) together; a name past NAME_MAX (255) in a
    # folder that does not exist yet, so nothing complains before the folder is made.
    ["d/" * 2100 + "f.txt", "fresh/" + "n" * 300],
    ids=["past-path-max", "past-name-max-in-a-new-folder"],
)
def test_a_write_path_longer_than_the_system_allows_gets_an_envelope(ws, client, path) -> None:
    result = _answered(lambda: client.call("write_file", path=path, content="x"), "write_file")
    assert isinstance(result.success, bool) and isinstance(result.data, str), result.evidence()


# A lone surrogate is a JSON string (`"\ud800"`) but not Unicode text: it cannot become a file
# name or UTF-8 content as it is. (Models do send them: half an emoji cut by a token limit.)
LONE_SURROGATES: list[tuple[str, dict[str, Any]]] = [
    ("read_file", {"path": "lone\ud800surrogate.txt"}),
    ("write_file", {"path": "lone\udfffsurrogate.txt", "content": "x"}),
    ("write_file", {"path": "surrogate-content.txt", "content": "half an emoji \ud83d here"}),
    ("list_files", {"path": "\udc80"}),
]


@pytest.mark.clause("RESULT-04")
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [pytest.param(tool, args, marks=_needs(tool), id=f"{tool}-{i}")
     for i, (tool, args) in enumerate(LONE_SURROGATES)],
)
def test_a_lone_surrogate_in_an_argument_gets_an_envelope(ws, client, tool, arguments) -> None:
    ws.write("a.txt", "alpha\n")
    try:
        result = _answered(lambda: client.call(tool, **arguments), f"{tool}({arguments!r})")
    except UnicodeEncodeError:
        # The transport encoded the request as UTF-8 text instead of escaping the surrogate.
        not_applicable("this transport cannot carry a lone surrogate to the implementation")
    assert isinstance(result.success, bool) and isinstance(result.data, str), result.evidence()


@pytest.mark.clause("RESULT-07")
@pytest.mark.requires("read_file")
def test_a_call_with_hundreds_of_problems_answers_within_the_message_budget(client) -> None:
    # Hundreds of unknown arguments: every one is a problem, and the words must stay short.
    arguments = {f"unknown_argument_{index:03d}": index for index in range(300)}
    result = client.call("read_file", path="a.txt", **arguments)
    refused(result)
    budget = client.limits.message_budget_chars
    assert len(result.data) <= budget, f"{len(result.data)} characters, over the budget of {budget}"
