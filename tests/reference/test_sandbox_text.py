"""The pure text building blocks: line endings, binary sniffing, diffs."""

from hypothesis import given, settings
from hypothesis import strategies as st

from agentconf.reference.sandbox import eol
from agentconf.reference.sandbox.binary import SNIFF_BYTES, looks_binary
from agentconf.reference.sandbox.diff import diff_stats, unified_diff


def test_the_dominant_ending_is_crlf_only_when_crlf_lines_outnumber_lf_ones() -> None:
    assert eol.detect("a\r\nb\r\nc\n") == "\r\n"
    assert eol.detect("a\r\nb\nc\n") == "\n"
    assert eol.detect("no newline") == "\n"


def test_a_splice_in_a_crlf_file_keeps_every_other_byte() -> None:
    original = "\ufeffone\r\ntwo\r\nthree"
    view = eol.LfView(original)
    start = view.text.index("two\nthree")
    edited = view.splice([(start, start + len("two\nthree"))], "2\r\n3")
    assert edited == "\ufeffone\r\n2\r\n3"


def test_a_span_ending_on_a_line_break_takes_the_whole_crlf() -> None:
    view = eol.LfView("a\r\nb\r\n")
    assert view.splice([(0, 2)], "") == "b\r\n"


def test_a_span_ending_before_a_line_break_leaves_the_cr_in_place() -> None:
    view = eol.LfView("a\r\nb\r\n")
    assert view.splice([(0, 1)], "x") == "x\r\nb\r\n"


def test_several_spans_are_spliced_in_one_pass() -> None:
    view = eol.LfView("x\r\ny\nx\r\n")
    spans = [(0, 1), (4, 5)]
    assert view.splice(spans, "z") == "z\r\ny\nz\r\n"


def test_with_eol_respells_every_line_break() -> None:
    assert eol.with_eol("a\nb\r\nc", "\r\n") == "a\r\nb\r\nc"
    assert eol.with_eol("a\r\nb", "\n") == "a\nb"


LINES = st.lists(
    st.tuples(st.text(alphabet="abc“”'\" ", max_size=6), st.sampled_from(["\n", "\r\n"])),
    min_size=1,
    max_size=8,
)


@settings(max_examples=200, deadline=None)
@given(LINES, st.booleans(), st.booleans(), st.data())
def test_a_splice_changes_only_the_replaced_span(
    lines: list[tuple[str, str]], bom: bool, final_newline: bool, data: st.DataObject
) -> None:
    original = ("\ufeff" if bom else "") + "".join(text + end for text, end in lines)
    if not final_newline:
        original = original.removesuffix("\r\n").removesuffix("\n")
    view = eol.LfView(original)
    start = data.draw(st.integers(0, len(view.text)))
    end = data.draw(st.integers(start, len(view.text)))
    edited = view.splice([(start, end)], "NEW")
    before, after = view.original_index(start), view.original_index(end)
    assert edited == original[:before] + "NEW" + original[after:]
    assert eol.to_lf(original[before:after]) == view.text[start:end]


def test_nul_bytes_or_invalid_utf8_look_binary() -> None:
    assert looks_binary(b"abc\x00def")
    assert looks_binary(b"\xff\xfe text")
    assert not looks_binary("héllo wörld\n".encode())


def test_a_character_cut_by_the_sniff_window_is_not_held_against_the_file() -> None:
    head = (b"a" * (SNIFF_BYTES - 1) + "é".encode())[:SNIFF_BYTES]
    assert not looks_binary(head)
    assert looks_binary(head, complete=True)


def test_a_diff_shows_the_change_and_counts_it() -> None:
    diff = unified_diff("a\nb\nc\n", "a\nB\nc\nd\n", "x.txt")
    assert diff.startswith("--- a/x.txt\n+++ b/x.txt\n@@")
    assert "-b\n+B\n" in diff
    stats = diff_stats(diff)
    assert (stats.added, stats.removed) == (2, 1)


def test_a_diff_says_when_a_file_has_no_final_newline() -> None:
    diff = unified_diff("a\n", "a\nb", "x.txt")
    assert diff.endswith("+b\n\\ No newline at end of file\n")


def test_no_change_is_an_empty_diff() -> None:
    assert unified_diff("same\n", "same\n", "x.txt") == ""
