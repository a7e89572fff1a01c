"""Head + tail bounding of text and byte streams (Claude Code truncation, @clarvis/agent-tools
UTF-8 cut)."""

import re
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentconf.reference.sandbox.bounding import StreamBound, bound_text, marker, split_limit

MARKER = re.compile(r"\n\[\.\.\. truncated (\d+) chars \.\.\.\]\n")

# Multi-byte characters are over-represented: they are what a byte-level cut breaks.
unicode_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(["é", "€", "𝄞", "😀", "中", "\n", "\r", "a"]),
    ),
    max_size=300,
)
limits = st.integers(min_value=0, max_value=320)


def cut_count(result: str) -> int:
    found = MARKER.search(result)
    assert found is not None, f"no marker in {result!r}"
    return int(found.group(1))


def feed_in_chunks(bound: StreamBound, data: bytes, cuts: list[int]) -> None:
    """Feeds `data` split at the given byte offsets, which may fall inside a UTF-8 sequence."""
    start = 0
    for offset in sorted({c % (len(data) + 1) for c in cuts}):
        bound.feed(data[start:offset])
        start = offset
    bound.feed(data[start:])


def test_text_within_the_limit_is_returned_whole_without_a_marker() -> None:
    assert bound_text("hello\nworld", 11) == "hello\nworld"
    assert bound_text("", 0) == ""


def test_text_over_the_limit_keeps_head_and_tail_and_counts_the_cut() -> None:
    text = "HEAD" + "m" * 100 + "TAIL"
    result = bound_text(text, 8)
    assert result.startswith("HEAD")
    assert result.endswith("TAIL")
    assert cut_count(result) == 100
    assert "m" not in result.replace("\n[... truncated 100 chars ...]\n", "")


def test_a_negative_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="limit"):
        bound_text("abc", -1)


@given(text=unicode_text, limit=limits)
def test_bounded_text_is_within_limit_plus_marker_and_keeps_head_and_tail(
    text: str, limit: int
) -> None:
    result = bound_text(text, limit)
    if len(text) <= limit:
        assert result == text
        return
    head, tail = split_limit(limit)
    cut = len(text) - limit
    assert len(result) <= limit + len(marker(cut))
    assert result.startswith(text[:head])
    assert result.endswith(text[len(text) - tail :])
    assert cut_count(result) == cut
    if "\ufffd" not in text:
        assert "\ufffd" not in result
    result.encode("utf-8")  # valid text: no lone surrogates


@given(text=unicode_text, capacity=limits, cuts=st.lists(st.integers(min_value=0), max_size=12))
def test_a_stream_fed_in_any_chunks_bounds_like_the_whole_text(
    text: str, capacity: int, cuts: list[int]
) -> None:
    bound = StreamBound(capacity)
    feed_in_chunks(bound, text.encode("utf-8"), cuts)
    assert bound.render() == bound_text(text, capacity)
    assert bound.total_chars == len(text)


@given(text=unicode_text, capacity=limits, smaller=limits)
def test_a_stream_rendered_at_a_smaller_limit_bounds_like_the_whole_text(
    text: str, capacity: int, smaller: int
) -> None:
    bound = StreamBound(capacity)
    bound.feed(text.encode("utf-8"))
    limit = min(capacity, smaller)
    assert bound.render(limit) == bound_text(text, limit)


@given(text=unicode_text, capacity=st.integers(min_value=1, max_value=40))
def test_a_cut_through_multibyte_characters_adds_no_replacement_character(
    text: str, capacity: int
) -> None:
    bound = StreamBound(capacity)
    for byte in text.encode("utf-8"):
        bound.feed(bytes([byte]))
    result = bound.render()
    if "\ufffd" not in text:
        assert "\ufffd" not in result
    result.encode("utf-8")


@given(data=st.binary(max_size=400), capacity=limits)
def test_arbitrary_bytes_come_out_as_valid_bounded_text(data: bytes, capacity: int) -> None:
    bound = StreamBound(capacity)
    bound.feed(data)
    result = bound.render()
    result.encode("utf-8")
    cut = bound.total_chars - capacity
    if cut > 0:
        assert len(result) <= capacity + len(marker(cut))
        assert cut_count(result) == cut
    else:
        assert MARKER.search(result) is None


def test_a_stream_that_ends_inside_a_character_reports_it_as_one_replacement() -> None:
    bound = StreamBound(100)
    bound.feed("ok €".encode()[:-1])
    assert bound.render() == "ok \ufffd"


def test_feeding_after_render_is_refused() -> None:
    bound = StreamBound(10)
    bound.feed(b"abc")
    bound.render()
    with pytest.raises(RuntimeError):
        bound.feed(b"more")


def test_memory_stays_bounded_while_a_large_stream_passes_through() -> None:
    capacity = 10_000
    chunk = ("line of output é€😀\n" * 4000).encode()  # ~100 KB, multi-byte throughout
    bound = StreamBound(capacity)
    tracemalloc.start()
    try:
        for _ in range(500):  # ~50 MB in all
            bound.feed(chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Kept text + one decoded chunk, with room to spare; the 50 MB that passed would not fit.
    assert peak < 3_000_000, peak
    assert bound.total_chars == 500 * len(chunk.decode())
    result = bound.render()
    assert result.startswith("line of output é€😀\n")
    assert result.endswith("line of output é€😀\n")
    assert cut_count(result) == bound.total_chars - capacity
