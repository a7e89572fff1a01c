"""READ: whole text, classified failures, binary and size guards, line windows (dskcode, Claude
Code, agentkit, @clarvis/agent-tools). Lines carry NATO words so a line's text never looks like a
line number.
"""

from typing import Any

import pytest
from _checks import carried_by_the_refusal, refused, shows_number, took_effect

from agentconf.harness.session.answers import says_empty
from agentconf.harness.session.arguments import top_argument
from agentconf.harness.session.client import AT_ONCE_S
from agentconf.harness.verdicts.errors import ImplementationFailure, not_applicable

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliett", "kilo", "lima"]


def _numbered_file(ws: Any, rel: str = "words.txt", count: int = len(WORDS)) -> None:
    ws.write(rel, "".join(f"{WORDS[i]} word\n" for i in range(count)))


@pytest.mark.clause("READ-01")
@pytest.mark.parametrize(
    "content",
    ["one line\n", "alpha\nbravo\ncharlie\n", "no final newline", "crlf one\r\ncrlf two\r\n",
     "unicode é中😀\n", "\n\nafter blank lines\n"],
    ids=["one", "three", "no-final-newline", "crlf", "unicode", "blank-lines"],
)
def test_read_file_returns_every_line(ws, client, content: str) -> None:
    ws.write("a.txt", content)
    result = client.call("read_file", path="a.txt")
    assert result.success, result.evidence()
    for line in content.splitlines():
        if line.strip():
            assert line in result.data, result.evidence()


@pytest.mark.clause("READ-01")
def test_a_file_of_a_few_hundred_lines_comes_back_whole(ws, client) -> None:
    lines = [f"row {WORDS[i % len(WORDS)]}-{WORDS[(i // 12) % len(WORDS)]}" for i in range(144)]
    ws.write("many.txt", "\n".join(lines) + "\n")
    result = client.call("read_file", path="many.txt")
    assert result.success, result.evidence()
    for line in lines:
        assert line in result.data, line


@pytest.mark.clause("READ-02")
@pytest.mark.parametrize("path", ["missing.txt", "no/such/dir/file.txt", "sub/missing.txt"])
def test_reading_a_missing_file_is_not_found(ws, client, path: str) -> None:
    ws.mkdir("sub")
    result = client.call("read_file", path=path)
    refused(result, "NOT_FOUND")


@pytest.mark.clause("READ-03")
@pytest.mark.parametrize("path", ["folder", "folder/", ".", "folder/inner"])
def test_reading_a_folder_is_is_directory(ws, client, path: str) -> None:
    ws.mkdir("folder/inner")
    result = client.call("read_file", path=path)
    refused(result, "IS_DIRECTORY")


BINARIES = [
    pytest.param(b"BINTOKEN\x00\x01\x02 more BINTOKEN", id="nul-bytes"),
    pytest.param(b"BINTOKEN \xff\xfe\xfd invalid utf-8 BINTOKEN", id="invalid-utf8"),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR BINTOKEN", id="png"),
    pytest.param(b"BINTOKEN " + "é".encode()[:1] + b" cut sequence", id="truncated-sequence"),
]


@pytest.mark.clause("READ-04")
@pytest.mark.parametrize("content", BINARIES)
def test_reading_a_binary_file_is_binary_file_and_returns_no_bytes(ws, client, content) -> None:
    ws.write("blob.bin", content)
    result = client.call("read_file", path="blob.bin")
    refused(result, "BINARY_FILE")
    assert "BINTOKEN" not in result.data, result.evidence()


@pytest.mark.clause("READ-05")
@pytest.mark.parametrize("extra", [1, 4096], ids=["one-byte-over", "well-over"])
def test_reading_a_file_over_max_read_bytes_is_file_too_large(ws, client, extra: int) -> None:
    size = client.limits_for("read_file").max_read_bytes + extra
    ws.write("big.txt", _sized(client, size))
    result = client.call("read_file", path="big.txt")
    refused(result, "FILE_TOO_LARGE")


@pytest.mark.clause("READ-05")
def test_a_file_exactly_at_max_read_bytes_is_not_too_large(ws, client) -> None:
    ws.write("edge.txt", _sized(client, client.limits_for("read_file").max_read_bytes))
    result = client.call("read_file", path="edge.txt")
    assert result.error != "FILE_TOO_LARGE", result.evidence()


@pytest.mark.clause("READ-05")
def test_a_file_over_max_read_lines_is_file_too_large(ws, client) -> None:
    lines = client.profile.max_read_lines
    if lines is None:
        not_applicable("the profile declares no [tools.read_file.limits].max_read_lines")
    ws.write("long.txt", "short\n" * (lines + 1))
    result = client.call("read_file", path="long.txt")
    refused(result, "FILE_TOO_LARGE")


def _sized(client: Any, size: int) -> str:
    """`size` bytes of text in lines; fewer lines than [tools.read_file.limits].max_read_lines
    when one is declared, so only the byte limit is judged."""
    lines = client.profile.max_read_lines
    width = 16 if lines is None else max(16, size // max(1, lines - 1) + 1)
    line = "large file line".ljust(width - 1, ".") + "\n"
    return (line * (size // len(line) + 1))[:size]


@pytest.mark.clause("READ-06")
@pytest.mark.parametrize(("start", "end"), [(3, 5), (1, 1), (12, 12), (1, 12), (6, 7)])
def test_a_line_window_returns_exactly_those_lines(ws, client, start: int, end: int) -> None:
    _numbered_file(ws)
    result = client.call("read_file", path="words.txt", start_line=start, end_line=end)
    assert result.success, result.evidence()
    for number, word in enumerate(WORDS, start=1):
        shown = f"{word} word" in result.data
        assert shown == (start <= number <= end), f"line {number} ({word}): {result.evidence()}"


@pytest.mark.clause("READ-06")
def test_a_window_with_only_a_start_runs_to_the_end(ws, client) -> None:
    _numbered_file(ws)
    result = client.call("read_file", path="words.txt", start_line=10)
    assert result.success, result.evidence()
    assert all(f"{word} word" in result.data for word in WORDS[9:]), result.evidence()
    assert "india word" not in result.data, result.evidence()


@pytest.mark.clause("READ-07")
@pytest.mark.parametrize(("start", "end"), [(1, 12), (4, 6)])
def test_returned_lines_carry_their_line_number(ws, client, start: int, end: int) -> None:
    _numbered_file(ws)
    result = client.call("read_file", path="words.txt", start_line=start, end_line=end)
    assert result.success, result.evidence()
    for number in range(start, end + 1):
        lines = [line for line in result.data.splitlines() if f"{WORDS[number - 1]} word" in line]
        assert lines and shows_number(lines[0], number), f"line {number}: {result.evidence()}"


@pytest.mark.clause("READ-07")
def test_a_whole_read_numbers_its_lines_from_one(ws, client) -> None:
    ws.write("two.txt", "first\nsecond\n")
    result = client.call("read_file", path="two.txt")
    assert result.success, result.evidence()
    first = [line for line in result.data.splitlines() if "first" in line]
    assert first and shows_number(first[0], 1), result.evidence()


@pytest.mark.clause("READ-08")
def test_a_window_near_the_end_of_a_huge_file_succeeds(ws, client) -> None:
    line_count = client.limits.max_read_bytes // 20 + 1000
    ws.write("huge.log", "".join(f"log entry {i:08d} padding\n" for i in range(line_count)))
    assert ws.path("huge.log").stat().st_size > client.limits.max_read_bytes
    result = client.call("read_file", path="huge.log", start_line=line_count - 1,
                         end_line=line_count)
    assert result.success, result.evidence()
    assert f"log entry {line_count - 2:08d}" in result.data, result.evidence()
    assert f"log entry {line_count - 1:08d}" in result.data, result.evidence()
    assert f"log entry {line_count - 3:08d}" not in result.data, result.evidence()


@pytest.mark.clause("READ-09")
def test_reading_an_empty_file_succeeds_and_says_it_is_empty(ws, client) -> None:
    ws.write("empty.txt", b"")
    result = client.call("read_file", path="empty.txt")
    assert result.success, result.evidence()
    # Judged on the whole answer the model sees, not on the part the profile reads as the
    # file's text: `{"content": "", "size": 0}` says it; `{"content": ""}` does not, nor does
    # `[{"path": "empty.txt", "content": ""}]`, which only echoes the path it was given.
    assert says_empty(result.shown, result.request.said), result.evidence()


@pytest.mark.clause("READ-10")
def test_reading_a_fifo_fails_at_once_instead_of_blocking(ws, client) -> None:
    ws.fifo("pipe")
    try:
        with client.budget(AT_ONCE_S):  # "at once": no need to wait the full call timeout
            result = client.call("read_file", path="pipe")
    except ImplementationFailure as failure:
        pytest.fail(f"read_file on a FIFO did not answer: {failure}")
    refused(result)


@pytest.mark.clause("READ-11")
@pytest.mark.parametrize(("start", "end"), [(13, 20), (100, 200), (13, None)])
def test_a_window_past_the_end_is_answered_without_a_crash(ws, client, start, end) -> None:
    _numbered_file(ws)
    arguments: dict[str, Any] = {"path": "words.txt", "start_line": start}
    if end is not None:
        arguments["end_line"] = end
    else:  # a start alone: READ-06 judges whether one is taken at all, inside the file
        inside = client.call("read_file", path="words.txt", start_line=2)
        if not inside.success or inside.unproven_refusal() is not None:
            not_applicable("a start_line alone is refused inside the file too (READ-06's): "
                           f"{inside.data[:100]!r}")
    result = client.call("read_file", **arguments)
    if took_effect(result):
        assert not any(f"{word} word" in result.data for word in WORDS), result.evidence()
    else:
        assert shows_number(result.data, len(WORDS)), result.evidence()


@pytest.mark.clause("READ-04")
@pytest.mark.parametrize("offset", [20_000, 100_000], ids=["past-8-kib", "past-64-kib"])
def test_invalid_utf8_far_into_a_file_is_still_binary_file(ws, client, offset: int) -> None:
    # A sniff of the first few KiB is a fine shortcut, but it cannot be the whole judgement:
    # the text before the bad byte must not come back as if the file were text.
    line = "BINTOKEN plain text line\n"
    ws.write("late.bin", (line * (offset // len(line))).encode() + b"\xff\xfe tail\n")
    result = client.call("read_file", path="late.bin")
    refused(result, "BINARY_FILE")
    assert "BINTOKEN" not in result.data, result.evidence()


@pytest.mark.clause("READ-12")
@pytest.mark.parametrize(("start", "end"), [(5, 3), (12, 1), (2, 1)])
def test_a_window_ending_before_it_starts_is_invalid_args(ws, client, start: int, end: int) -> None:
    _numbered_file(ws)
    result = client.call("read_file", path="words.txt", start_line=start, end_line=end)
    refused(result, "INVALID_ARGS")
    assert not any(f"{word} word" in result.data for word in WORDS), result.evidence()
    if client.has("validation_issues"):
        carried_by_the_refusal(result)
        # Where the profile sends the window (an offset/limit window's `limit`): the issue names
        # the field the implementation's schema has.
        mapping = client.profile.tool("read_file")
        window = {f"$.{name}" for name in ("start_line", "end_line")} | {
            f"$.{top_argument(mapping.target(name))}" for name in ("start_line", "end_line")}
        paths = {str(issue.get("path")).split("[")[0] for issue in result.issues or []}
        assert paths & window, result.evidence()
