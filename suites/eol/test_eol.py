"""EOL: an edit is a splice; the file's line endings, BOM and final newline survive (dskcode).

dskcode's eol.ts: match on LF-normalised text, write back in the file's own convention, and
touch no byte outside the replaced span. Judged byte for byte on the disk.
"""

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.harness.cases.judged import crlf_flattened
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.strategies import BOM, eol_texts_with_edit

# Hypothesis examples share one workspace: each gets a fresh file name.
_NAMES = itertools.count()
PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)


def _edit(ws: Any, client: Any, original: bytes, old_text: str, new_text: str,
          name: str = "f.txt") -> tuple[Any, bytes]:
    """Writes `original`, reads it (read-before-edit), edits, and returns the answer and bytes."""
    ws.write(name, original)
    if client.has("read_file"):
        client.call("read_file", path=name)
    result = client.call("edit_file", path=name, old_text=old_text, new_text=new_text)
    return result, ws.read_bytes(name)


def _lf(data: bytes) -> bytes:
    """The bytes with CRLF as LF: for a clause that judges something other than line endings."""
    return data.replace(b"\r\n", b"\n")


def _landed(ws: Any, client: Any, result: Any, original: bytes, old_text: str,
            new_text: str) -> None:
    """EOL-01 judges line endings: a refused edit of a CRLF file is its failure only where the
    same edit of the file with LF endings lands. Refused there too, the refusal is not about
    line endings (a matcher that reads `line 7` as `line 17`): EDIT-01's, not judged here."""
    if result.success:
        return
    twin, _ = _edit(ws, client, _lf(original), old_text, new_text, name="lf-twin.txt")
    if not twin.success:
        not_applicable("the same edit is refused in the file with LF endings too: not a matter "
                       f"of line endings (EDIT-01's): {' '.join(twin.data.split())[:120]!r}")
    assert result.success, result.evidence()


@pytest.mark.clause("EOL-01")
@pytest.mark.parametrize(
    ("new_text", "expected"),
    [
        ("x\ny", b"a\r\nx\r\ny\r\nc\r\n"),
        ("x\r\ny", b"a\r\nx\r\ny\r\nc\r\n"),
        ("x\n\ny", b"a\r\nx\r\n\r\ny\r\nc\r\n"),
        ("only", b"a\r\nonly\r\nc\r\n"),
    ],
    ids=["lf-lines-added", "crlf-lines-added", "blank-line-added", "single-line"],
)
def test_editing_a_crlf_file_keeps_crlf_everywhere(ws, client, new_text, expected) -> None:
    result, after = _edit(ws, client, b"a\r\nb\r\nc\r\n", "b", new_text)
    _landed(ws, client, result, b"a\r\nb\r\nc\r\n", "b", new_text)
    assert after == expected


@pytest.mark.clause("EOL-01")
def test_a_crlf_file_gains_no_bare_lf_from_a_multi_line_edit(ws, client) -> None:
    original = b"".join(f"line {i}\r\n".encode() for i in range(20))
    result, after = _edit(ws, client, original, "line 7", "first\nsecond\nthird")
    _landed(ws, client, result, original, "line 7", "first\nsecond\nthird")
    assert after.count(b"\n") == after.count(b"\r\n") == 22
    assert b"first\r\nsecond\r\nthird\r\n" in after


@pytest.mark.clause("EOL-02")
@pytest.mark.parametrize(
    "original",
    [b"one\ntwo\nthree\n", b"\tindented  \ntrailing spaces   \nNEEDLE\n   \n",
     "héllo wörld\nNEEDLE 中文\n😀\n".encode(), b"no newline at all NEEDLE here"],
    ids=["plain", "whitespace", "unicode", "single-line"],
)
def test_an_edit_leaves_every_byte_outside_the_span_unchanged(ws, client, original) -> None:
    old = "NEEDLE" if b"NEEDLE" in original else "two"
    result, after = _edit(ws, client, original, old, "REPLACED")
    assert result.success, result.evidence()
    start = original.index(old.encode())
    assert after == original[:start] + b"REPLACED" + original[start + len(old):]


@pytest.mark.clause("EOL-03")
@pytest.mark.parametrize(
    ("original", "old", "new", "expected"),
    [
        (b"a\r\nb\nc\r\nd\n", "c", "C", b"a\r\nb\nC\r\nd\n"),
        (b"a\nb\r\nc\nd\r\n", "a", "A", b"A\nb\r\nc\nd\r\n"),
        (b"a\rb\nc\r\nd", "b", "B", b"a\rB\nc\r\nd"),
        (b"x\r\n\r\n\n\ny\n", "y", "z", b"x\r\n\r\n\n\nz\n"),
    ],
    ids=["crlf-lf-alternating", "lf-first", "with-cr", "blank-lines"],
)
def test_a_mixed_file_keeps_the_endings_of_lines_outside_the_span(
    ws, client, original, old, new, expected
) -> None:
    result, after = _edit(ws, client, original, old, new)
    assert result.success, result.evidence()
    if after != expected and crlf_flattened(ws, client):
        not_applicable("an edit writes a CRLF file back with LF: EOL-01's, not the mixed file's")
    assert after == expected


@pytest.mark.clause("EOL-04")
@pytest.mark.parametrize(
    "body", [b"hello\nworld\n", b"hello\r\nworld\r\n", b"world"], ids=["lf", "crlf", "one-line"]
)
def test_a_byte_order_mark_survives_an_edit(ws, client, body: bytes) -> None:
    result, after = _edit(ws, client, BOM + body, "world", "there")
    assert result.success, result.evidence()
    assert after.startswith(BOM), after[:8]
    # The BOM once and the text as edited; what became of CRLF is EOL-01's (one cause, one
    # clause: a flattened CRLF file is not also a lost BOM).
    assert _lf(after) == BOM + _lf(body.replace(b"world", b"there")), after


@pytest.mark.clause("EOL-04")
def test_an_edit_at_the_start_of_a_bom_file_keeps_the_bom_once(ws, client) -> None:
    result, after = _edit(ws, client, BOM + b"first\nsecond\n", "first", "1st")
    assert result.success, result.evidence()
    assert after == BOM + b"1st\nsecond\n"


@pytest.mark.clause("EOL-05")
@pytest.mark.parametrize(
    ("original", "old", "new"),
    [
        (b"a\nb\nc\n", "c", "z"),
        (b"a\nb\nc", "c", "z"),
        (b"a\r\nb\r\nc\r\n", "c", "z"),
        (b"a\r\nb\r\nc", "c", "z"),
        (b"a\nb\nc", "a", "z"),
        (b"only line", "line", "row"),
    ],
    ids=["lf-present", "lf-absent", "crlf-present", "crlf-absent", "absent-edit-first", "one"],
)
def test_an_edit_keeps_the_final_newline_state(ws, client, original, old, new) -> None:
    result, after = _edit(ws, client, original, old, new)
    assert result.success, result.evidence()
    assert after.endswith(b"\n") == original.endswith(b"\n"), after
    # What became of CRLF is EOL-01's: this clause judges the final newline alone.
    assert _lf(after) == _lf(original.replace(old.encode(), new.encode())), after


@pytest.mark.clause("EOL-06")
@PROPERTY
@given(case=eol_texts_with_edit())
def test_any_edit_changes_only_the_replaced_span(ws, client, case) -> None:
    name = f"eol-{next(_NAMES)}.txt"
    result, after = _edit(ws, client, case.original, case.old_text, case.new_text, name=name)
    assert result.success, result.evidence()
    assert after == case.expected, (case, after)


@pytest.mark.clause("EOL-07")
@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("a\nb", "A\nB", b"x\r\nA\r\nB\r\ny\r\n"),
        ("x\na\nb\ny\n", "all\n", b"all\r\n"),
        ("b\ny", "b y", b"x\r\na\r\nb y\r\n"),
    ],
    ids=["two-lines", "whole-file", "join-lines"],
)
def test_lf_old_text_matches_the_same_lines_in_a_crlf_file(ws, client, old, new, expected) -> None:
    result, after = _edit(ws, client, b"x\r\na\r\nb\r\ny\r\n", old, new)
    assert result.success, result.evidence()
    if after == expected.replace(b"\r\n", b"\n") != expected and crlf_flattened(ws, client):
        return  # the lines matched and changed; every CRLF written back LF is EOL-01's
    assert after == expected


@pytest.mark.clause("EOL-08")
@pytest.mark.parametrize(
    "content",
    ["a\r\nb\r\n", "a\rb\nc\r\n", "\ufeffwith bom\r\n", "no final newline", "\n\n\r\n",
     "tab\tand trailing spaces   \n", "é中😀\r\n"],
    ids=["crlf", "mixed", "bom", "no-final", "blank", "whitespace", "unicode"],
)
def test_write_file_stores_the_exact_bytes(ws, client, content: str) -> None:
    result = client.call("write_file", path="exact.txt", content=content)
    assert result.success, result.evidence()
    assert ws.read_bytes("exact.txt") == content.encode("utf-8")


@pytest.mark.clause("EOL-08")
@PROPERTY
@given(content=st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200))
def test_write_file_stores_any_text_byte_for_byte(ws, client, content: str) -> None:
    name = f"w-{next(_NAMES)}.txt"
    result = client.call("write_file", path=name, content=content)
    assert result.success, result.evidence()
    assert ws.read_bytes(name) == content.encode("utf-8")
