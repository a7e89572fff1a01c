"""TRUNCATE: output is bounded to max_output_chars, head and tail kept, cut on a character
boundary, with a marker that says how much was cut (Claude Code: head+tail at 50,000 chars;
@clarvis/agent-tools:
bound on a UTF-8 boundary).

Output is produced by `bash` printing a file the test wrote, so its exact characters are known.
Sizes come from the implementation's declared limits, never from constants here.
"""

import itertools
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.harness.session.answers import document_of
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.strategies import outputs_around_limit

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large],
    deadline=None,
)
_NAMES = itertools.count()


def _limits(client: Any) -> Any:
    """The limits bash's output is judged by (its own bound, when the profile declares one)."""
    return client.limits_for("bash")


def _print(ws: Any, client: Any, text: str) -> Any:
    """Has bash print exactly `text` (from a file, so no quoting is involved)."""
    name = f"out-{next(_NAMES)}.txt"
    ws.write(name, text)
    result = client.call("bash", command=f"cat {name}")
    if not result.success or text[:8] not in result.data:
        _prints_a_small_file(ws, client)
    assert result.success, result.evidence()
    return result


def _prints_a_small_file(ws: Any, client: Any) -> None:
    """A `cat` of a file of the root refused, or its head not shown, is this clause's only where
    a short file of the root prints: where that fails too, the shell does not see the root by
    relative names (its working folder is SHELL-06's) and no output here was ever produced."""
    ws.write("short.txt", "short-text\n")
    short = client.call("bash", command="cat short.txt")
    if not short.success or "short-text" not in short.data:
        not_applicable("not judged: `cat short.txt` of a short file of the root does not print "
                       "it either, so the output judged here was never produced (the shell's "
                       f"working folder is SHELL-06's): {' '.join(short.data.split())[:120]!r}")


def _cut(text: str, result: Any) -> None:
    """How a cut is made stands on a cut: an output shown whole was not cut, which is
    TRUNCATE-01's alone (its bound), and the shape of a cut that never happened is not judged."""
    if text in result.data:
        not_applicable(f"not judged: the output was not cut ({len(text)} characters shown "
                       "whole), so how a cut is made cannot be seen; the bound is TRUNCATE-01's")


def _bound(client: Any) -> int:
    return _limits(client).max_output_chars + _limits(client).marker_budget_chars


def _in_bytes(client: Any) -> bool:
    """Whether bash's own bound is declared in bytes of UTF-8: an output is then within it when
    its bytes are, and "é" fills it at half as many characters as "z"."""
    return client.profile.tool("bash").limits.max_output_bytes is not None


def _within(client: Any, text: str) -> bool:
    size = len(text.encode("utf-8")) if _in_bytes(client) else len(text)
    return size <= _limits(client).max_output_chars


def _long_text(client: Any, filler: str = "x", factor: int = 3) -> str:
    """HEADMARK, lines of filler, TAILMARK: far longer than the limit, no digits anywhere."""
    limit = _limits(client).max_output_chars
    line = filler * 79 + "\n"
    body = line * (factor * limit // len(line) + 1)
    return "HEADMARK\n" + body + "TAILMARK"


@pytest.mark.clause("TRUNCATE-01")
@pytest.mark.parametrize("factor", [2, 10], ids=["twice", "ten-times"])
def test_output_longer_than_the_limit_is_cut_to_the_limit_plus_a_marker(ws, client, factor) -> None:
    result = _print(ws, client, _long_text(client, factor=factor))
    # At most the bound: a cut far below it is TRUNCATE-06's (output that fits returned whole),
    # and what the cut keeps TRUNCATE-02's.
    assert len(result.data) <= _bound(client), f"{len(result.data)} characters"


@pytest.mark.clause("TRUNCATE-01")
def test_output_just_over_the_limit_is_cut(ws, client) -> None:
    limit = _limits(client).max_output_chars
    text = "HEADMARK" + "y" * (limit - 16 + 1 + _limits(client).marker_budget_chars) + "TAILMARK"
    result = _print(ws, client, text)
    assert len(result.data) <= _bound(client), f"{len(result.data)} characters"
    assert text not in result.data


@pytest.mark.clause("TRUNCATE-02")
@pytest.mark.parametrize("filler", ["x", "é", "中"], ids=["ascii", "two-byte", "three-byte"])
def test_truncation_keeps_the_head_and_the_tail(ws, client, filler: str) -> None:
    text = _long_text(client, filler=filler)
    result = _print(ws, client, text)
    _cut(text, result)
    assert "HEADMARK" in result.data, result.data[:200]
    assert "TAILMARK" in result.data, result.data[-200:]


@pytest.mark.clause("TRUNCATE-03")
def test_the_marker_says_how_much_was_cut_as_a_number(ws, client) -> None:
    text = _long_text(client)
    result = _print(ws, client, text)
    _cut(text, result)
    # The output has no digits, so any number in data belongs to the marker; and so does one
    # the whole answer gives a field naming a count (`"stdout_total": 288914` beside the text).
    numbers = [int(found.replace(",", "").replace("_", ""))
               for found in re.findall(r"\d[\d,_]*", result.data)]
    numbers += [number for key, number in _counts(document_of(result.shown))
                if _COUNT_KEY.search(key)]
    plausible = [n for n in numbers if 1 <= n <= len(text.encode("utf-8"))]
    assert plausible, f"no count of what was cut in: {result.data[-400:]!r}"


_COUNT_KEY = re.compile(r"(?i)total|count|size|length|omit|truncat|remain|cut|skip|bytes|char"
                        r"|lines")


def _counts(value: Any, key: str = "") -> list[tuple[str, int]]:
    """Every whole number of a JSON answer with the key it is under."""
    if isinstance(value, dict):
        return [pair for name, item in value.items() for pair in _counts(item, str(name))]
    if isinstance(value, list):
        return [pair for item in value for pair in _counts(item, key)]
    return [(key, value)] if isinstance(value, int) and not isinstance(value, bool) else []


def _split(text: str) -> str | None:
    """The half of a character a cut left behind (a lone surrogate: a 4-byte character split
    between its two UTF-16 halves), quoted with its neighbours; None when there is none."""
    found = re.search(r"[\ud800-\udfff]", text)
    if found is None:
        return None
    start = max(found.start() - 8, 0)
    return repr(text[start:found.end() + 8]).encode("ascii", "backslashreplace").decode()


@pytest.mark.clause("TRUNCATE-04")
@pytest.mark.parametrize("offset", [0, 1, 2, 3])
@pytest.mark.parametrize("char", ["é", "中", "😀"], ids=["2-byte", "3-byte", "4-byte"])
def test_truncation_never_splits_a_multibyte_character(ws, client, char: str, offset) -> None:
    repeat = 2 * _limits(client).max_output_chars
    text = "HEADMARK" + "a" * offset + char * repeat + "TAILMARK"
    result = _print(ws, client, text)
    if "HEADMARK" not in result.data:  # nothing of it shown: TRUNCATE-02's, nothing to judge here
        not_applicable(f"not judged: the output's head was not shown ({result.data[:60]!r})")
    _cut(text, result)
    # Bounded, head and tail kept: TRUNCATE-01's and TRUNCATE-02's; this clause is the split.
    assert "\ufffd" not in result.data, "a replacement character was added"
    assert not _split(result.data), f"a character was split: {_split(result.data)}"


@pytest.mark.clause("TRUNCATE-05")
@PROPERTY
@given(data=st.data())
def test_any_unicode_output_is_bounded_valid_and_keeps_head_and_tail(ws, client, data) -> None:
    limit = _limits(client).max_output_chars
    text = data.draw(outputs_around_limit(limit), label="output")
    result = _print(ws, client, text)
    assert "\ufffd" not in result.data
    assert not _split(result.data), f"a character was split: {_split(result.data)}"
    if _within(client, text):
        assert text in result.data, "output within the limit was not returned whole"
    else:
        assert len(result.data) <= _bound(client), f"{len(result.data)} > {_bound(client)}"
    assert text[:4] in result.data, "head lost"
    assert text[-4:] in result.data, "tail lost"


@pytest.mark.clause("TRUNCATE-06")
@pytest.mark.parametrize(
    "text_of",
    [
        lambda limit, width: "hello\nworld",
        lambda limit, width: "z" * limit,
        lambda limit, width: "é" * (limit // width),
        lambda limit, width: ("line\n" * (limit // 5))[:limit].strip(),
    ],
    ids=["small", "exactly-the-limit", "multibyte-at-the-limit", "lines-at-the-limit"],
)
def test_output_within_the_limit_is_returned_whole(ws, client, text_of) -> None:
    text = text_of(_limits(client).max_output_chars, 2 if _in_bytes(client) else 1)
    result = _print(ws, client, text)
    assert text in result.data, f"{len(result.data)} characters returned for {len(text)}"
    assert "truncat" not in result.data.lower()


@pytest.mark.clause("TRUNCATE-01")
@pytest.mark.requires("read_file")
@pytest.mark.parametrize("window", [None, (1, 2)], ids=["whole-read", "window"])
def test_a_read_of_one_line_longer_than_the_limit_is_bounded(ws, client, window) -> None:
    limits = client.limits_for("read_file")
    # Long enough to be cut several times over, small enough for a whole read.
    length = min(3 * limits.max_output_chars, limits.max_read_bytes // 2)
    ws.write("long.txt", "LONG-LINE-START" + "w" * length + "\nsecond line\n")
    arguments: dict[str, Any] = {"path": "long.txt"}
    if window is not None:
        if not client.has("line_window"):
            not_applicable("read_file takes no line window")
        arguments.update(start_line=window[0], end_line=window[1])
    result = client.call("read_file", **arguments)
    assert result.success, result.evidence()
    assert len(result.data) <= limits.max_output_chars + limits.marker_budget_chars, (
        f"{len(result.data)} characters"
    )
    assert "LONG-LINE-START" in result.data, result.data[:300]
