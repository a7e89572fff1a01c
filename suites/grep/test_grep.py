"""GREP: matches with path and line number, no match is not an error, a pattern is never an option,
binary files skipped, results bounded (dskcode, Claude Code: `rg -- PATTERN`, exit 1 is "no
matches").

Output formats differ (`a.txt:3:text`, `a.txt\n  3: text`, JSON...): judged on facts only.
"""

from typing import Any

import pytest
from _checks import refused, shows_number

from agentconf.harness.session.answers import document_of, unmarked
from agentconf.harness.session.client import AT_ONCE_S
from agentconf.harness.verdicts.errors import ImplementationFailure, not_applicable


def _lines_with(data: str, *needles: str, match: str = "") -> list[str]:
    """The answer's lines holding every needle, also with `match` unmarked (`_bare`); in a JSON
    answer also each record (an object of plain values, `{"file": "notes.txt", "line": 3,
    "text": "needle here"}`) as one line, since pretty-printing puts its values on lines of
    their own."""
    lines = _bare(data, match).splitlines() + [" ".join(map(str, record)) for record in _records(
        document_of(data))]
    return [line for line in lines if all(needle in line for needle in needles)]


def _bare(data: str, match: str) -> str:
    """The answer, then again with the marks a search may put around its matches taken off
    (`>>>needle<<< here`): a line shown with its match marked is shown whole (GREP-01)."""
    return f"{data}\n{unmarked(data, match)}" if match else data


def _records(value: Any) -> list[list[Any]]:
    if isinstance(value, list):
        return [record for item in value for record in _records(item)]
    if not isinstance(value, dict):
        return []
    plain = [item for item in value.values() if isinstance(item, str | int | float)]
    nested = [record for item in value.values() for record in _records(item)]
    return ([plain] if plain else []) + nested


def _line(client: Any, number: int) -> int:
    """How the output numbers the file's line `number` (1-based): `[tools.grep] line_base`."""
    return number - 1 + client.profile.tool("grep").first_line_number


def _search(client: Any, **arguments: Any) -> Any:
    result = client.call("grep", **arguments)
    assert result.success, result.evidence()
    return result


@pytest.mark.clause("GREP-01")
def test_a_match_is_reported_with_its_path_and_line_number(ws, client) -> None:
    ws.write("notes.txt", "alpha\nbravo\nneedle here\ndelta\n")
    result = _search(client, pattern="needle")
    assert "notes.txt" in result.data, result.evidence()
    assert "needle here" in _bare(result.data, "needle"), result.evidence()
    # The number sits on the match's line or on its file's heading line.
    number = _line(client, 3)
    shown = (_lines_with(result.data, "needle here", match="needle")
             + _lines_with(result.data, "notes.txt"))
    assert any(shows_number(line, number) for line in shown), result.evidence()


@pytest.mark.clause("GREP-01")
def test_matches_in_nested_folders_carry_their_path_from_the_root(ws, client) -> None:
    ws.write("src/deep/mod.txt", "".join(f"filler line {chr(97 + i)}\n" for i in range(6))
             + "the quarry\n")
    result = _search(client, pattern="quarry")
    assert "src/deep/mod.txt" in result.data, result.evidence()
    assert any(shows_number(line, _line(client, 7))
               for line in _lines_with(result.data, "the quarry", match="quarry")), (
        result.evidence()
    )


@pytest.mark.clause("GREP-01")
def test_every_matching_line_is_reported(ws, client) -> None:
    ws.write("a.txt", "hit one\nmiss\nhit two\n")
    ws.write("b.txt", "hit three\n")
    result = _search(client, pattern="hit")
    for text in ("hit one", "hit two", "hit three"):
        assert text in _bare(result.data, "hit"), result.evidence()
    assert "miss" not in result.data, result.evidence()


@pytest.mark.clause("GREP-02")
@pytest.mark.parametrize("with_files", [True, False], ids=["files", "empty-root"])
def test_no_match_is_a_success_that_says_so(ws, client, with_files: bool) -> None:
    if with_files:
        ws.write("a.txt", "alpha\n")
    result = client.call("grep", pattern="agentconf-absent-text")
    assert result.success, result.evidence()
    assert result.error is None, result.evidence()
    assert result.data.strip(), result.evidence()


@pytest.mark.clause("GREP-03")
@pytest.mark.parametrize("pattern", ["-v", "--files", "-e", "--count", "-l", "--version"])
def test_a_pattern_starting_with_a_dash_is_a_pattern(ws, client, pattern: str) -> None:
    ws.write("flags.txt", f"the option {pattern} appears here\n")
    ws.write("other.txt", "nothing relevant\n")
    result = _search(client, pattern=pattern)
    # The match, not its whole line: whether grep shows the whole line is GREP-01's.
    assert "flags.txt" in result.data, result.evidence()
    assert pattern in result.data, result.evidence()
    assert "other.txt" not in result.data, result.evidence()


BINARIES = [
    pytest.param(b"\x00\x01BINTOKEN needle\x00\xff\x00", id="nul-bytes"),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR BINTOKEN needle", id="png-header"),
    pytest.param(b"needle BINTOKEN " + b"\x00" * 64 + b"needle again", id="text-then-nul"),
]


@pytest.mark.clause("GREP-04")
@pytest.mark.parametrize("content", BINARIES)
def test_binary_files_are_skipped(ws, client, content: bytes) -> None:
    ws.write("blob.bin", content)
    ws.write("text.txt", "a needle in text\n")
    result = _search(client, pattern="needle")
    assert "text.txt" in result.data, result.evidence()  # the whole line is GREP-01's
    assert "BINTOKEN" not in result.data, result.evidence()
    assert "\x00" not in result.data and "\ufffd" not in result.data, result.evidence()


@pytest.mark.clause("GREP-05")
def test_a_search_matching_every_line_of_a_large_tree_is_bounded(ws, client) -> None:
    limits = client.limits_for("grep")
    line = "match " + "z" * 60 + "\n"
    per_file = line * 200
    files = 3 * limits.max_output_chars // len(per_file) + 1
    for index in range(files):
        ws.write(f"logs/part{index:04d}.log", per_file)
    result = _search(client, pattern="match")
    assert len(result.data) <= limits.max_output_chars + limits.marker_budget_chars, (
        f"{len(result.data)} characters"
    )
    if result.success and "match" not in result.data and len(result.data) < 1000:
        # A short answer with no match found none: nothing came to bound (GREP-01's to judge).
        not_applicable("not judged: the search found no line of the tree it had to bound "
                       f"({' '.join(result.data.split())[:80]!r})")
    assert "match" in result.data, result.evidence()


@pytest.mark.clause("GREP-05")
def test_one_huge_line_is_bounded(ws, client) -> None:
    limits = client.limits_for("grep")
    ws.write("one-line.txt", "match" + "q" * (4 * limits.max_output_chars) + "\n")
    result = _search(client, pattern="match")
    assert len(result.data) <= limits.max_output_chars + limits.marker_budget_chars


@pytest.mark.clause("GREP-06")
@pytest.mark.parametrize("pattern", ["(", "[a-", "*oops", "a{2,1}"])
def test_an_invalid_regular_expression_is_invalid_args(ws, client, pattern: str) -> None:
    if client.profile.tool("grep").is_literal:
        not_applicable("the profile says [tools.grep].literal = true: a pattern is plain text, "
                    "never an invalid regular expression")
    ws.write("a.txt", "alpha\n")
    result = client.call("grep", pattern=pattern)
    refused(result, "INVALID_ARGS")
    assert result.data.strip(), result.evidence()


@pytest.mark.clause("GREP-07")
@pytest.mark.parametrize(("include", "kept", "dropped"), [
    ("*.py", "code.py", "notes.txt"),
    ("*.txt", "notes.txt", "code.py"),
    ("code.*", "code.py", "notes.txt"),
])
def test_include_restricts_the_search_to_matching_files(ws, client, include, kept, dropped) -> None:
    for name in ("code.py", "notes.txt", "readme.md"):
        ws.write(name, f"shared token in {name}\n")
    result = _search(client, pattern="shared token", include=include)
    assert kept in result.data, result.evidence()
    assert dropped not in result.data, result.evidence()


@pytest.mark.clause("GREP-08")
@pytest.mark.parametrize(("path", "kept", "dropped"), [
    ("src", "src/in.txt", "docs/out.txt"),
    ("src/in.txt", "in.txt", "docs/out.txt"),
    ("docs/", "docs/out.txt", "src/in.txt"),
])
def test_path_restricts_the_search(ws, client, path, kept, dropped) -> None:
    ws.write("src/in.txt", "shared token\n")
    ws.write("docs/out.txt", "shared token\n")
    result = _search(client, pattern="shared token", path=path)
    assert kept in result.data, result.evidence()
    assert dropped not in result.data, result.evidence()


@pytest.mark.clause("GREP-04")
@pytest.mark.parametrize("content", BINARIES)
def test_a_binary_file_named_as_the_path_is_skipped(ws, client, content: bytes) -> None:
    ws.write("blob.bin", content)
    result = client.call("grep", pattern="needle", path="blob.bin")
    assert "BINTOKEN" not in result.data, result.evidence()
    assert "\x00" not in result.data and "\ufffd" not in result.data, result.evidence()


@pytest.mark.clause("GREP-09")
@pytest.mark.parametrize("path", ["pipe", "sub/pipe"])
def test_a_fifo_named_as_the_path_is_answered_at_once(ws, client, path: str) -> None:
    ws.fifo(path)
    try:
        with client.budget(AT_ONCE_S):  # "at once": no need to wait the full call timeout
            result = client.call("grep", pattern="needle", path=path)
    except ImplementationFailure as failure:
        pytest.fail(f"grep on a FIFO did not answer: {failure}")
    # Any answer will do, a failure or no matches: the clause is about answering at all.
    assert isinstance(result.success, bool), result.evidence()
