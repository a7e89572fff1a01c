"""EDIT: exact unique replacement, distinct failures, read-before-edit, atomic writes.

dskcode (edit_file), Claude Code (read-before-edit, mtime guard, curly quotes),
@clarvis/agent-tools (atomic writes).
Judged on codes and the bytes on disk.
"""

import os
import stat
import time
from typing import Any

import pytest
from _checks import code_read, read_first, refused, took_effect

from agentconf.harness.cases.judged import crlf_flattened
from agentconf.harness.disk.reported import unreported
from agentconf.harness.verdicts.errors import not_applicable


def _edit(ws: Any, client: Any, original: str | bytes, old_text: str, new_text: str,
          **extra: Any) -> tuple[Any, bytes]:
    ws.write("f.txt", original)
    read_first(client, "f.txt")
    result = client.call("edit_file", path="f.txt", old_text=old_text, new_text=new_text, **extra)
    return result, ws.read_bytes("f.txt")


@pytest.mark.clause("EDIT-01")
@pytest.mark.parametrize(
    ("original", "old", "new", "expected"),
    [
        ("alpha\nbeta\ngamma\n", "beta", "BETA", "alpha\nBETA\ngamma\n"),
        ("def f():\n    return 1\n", "    return 1", "    return 2", "def f():\n    return 2\n"),
        ("one two three", "two ", "", "one three"),
        ("x = 1\ny = 2\n", "x = 1\ny = 2\n", "z = 3\n", "z = 3\n"),
        ("é中😀 text", "中😀", "ascii", "éascii text"),
    ],
    ids=["word", "indented", "deletion", "whole-file", "unicode"],
)
def test_a_unique_old_text_is_replaced(ws, client, original, old, new, expected) -> None:
    result, after = _edit(ws, client, original, old, new)
    assert result.success, result.evidence()
    assert after == expected.encode()


@pytest.mark.clause("EDIT-02")
@pytest.mark.parametrize("old", ["omega", "ALPHA", "alpha beta", "  alpha"],
                         ids=["absent", "case", "across-lines", "indentation"])
def test_an_old_text_that_does_not_occur_is_text_not_found(ws, client, old: str) -> None:
    result, after = _edit(ws, client, "alpha\nbeta\n", old, "x")
    refused(result, "TEXT_NOT_FOUND")
    assert after == b"alpha\nbeta\n"


@pytest.mark.clause("EDIT-03")
@pytest.mark.parametrize(
    ("original", "old"),
    [("foo\nbar\nfoo\n", "foo"), ("a = 1\na = 1\n", "a = 1\n"), ("xx yy xx yy xx", "xx")],
    ids=["two-lines", "multi-line", "three-times"],
)
def test_an_old_text_that_occurs_twice_is_multiple_matches(ws, client, original, old) -> None:
    result, after = _edit(ws, client, original, old, "CHANGED")
    refused(result, "TEXT_MULTIPLE_MATCHES")
    assert after == original.encode()


@pytest.mark.clause("EDIT-03")
def test_multiple_matches_and_no_match_are_different_codes(ws, client) -> None:
    multiple, _ = _edit(ws, client, "foo\nfoo\n", "foo", "bar")
    missing, _ = _edit(ws, client, "foo\nfoo\n", "qux", "bar")
    refused(multiple)
    refused(missing)
    # Told apart by their codes where both are read; an unread one is RESULT-02's alone.
    if code_read(multiple) and code_read(missing):
        assert multiple.error != missing.error, multiple.evidence() + missing.evidence()


@pytest.mark.clause("EDIT-04")
@pytest.mark.parametrize(
    ("original", "old", "new", "expected"),
    [
        ("foo bar foo baz foo", "foo", "qux", "qux bar qux baz qux"),
        ("a.a.a", ".", "::", "a::a::a"),
        ("only once here", "once", "twice", "only twice here"),
        ("x\r\nx\r\n", "x", "y", "y\r\ny\r\n"),
    ],
    ids=["three", "punctuation", "single", "crlf"],
)
def test_replace_all_replaces_every_occurrence_and_nothing_else(
    ws, client, original, old, new, expected
) -> None:
    result, after = _edit(ws, client, original, old, new, replace_all=True)
    assert result.success, result.evidence()
    if after != expected.encode() and "\r\n" in original and crlf_flattened(ws, client):
        not_applicable("an edit writes a CRLF file back with LF: EOL-01's, not replace_all's")
    assert after == expected.encode()


@pytest.mark.clause("EDIT-05")
@pytest.mark.parametrize("original", ["alpha\n", ""], ids=["text", "empty-file"])
def test_an_empty_old_text_is_rejected(ws, client, original: str) -> None:
    result, after = _edit(ws, client, original, "", "inserted")
    refused(result)
    assert after == original.encode()


@pytest.mark.clause("EDIT-06")
@pytest.mark.parametrize(
    "original",
    [b"a\nsame\nb\n", b"a\r\nsame\r\nb\r\n", b"a\r\nsame\nb", b"\xef\xbb\xbfsame\r\n"],
    ids=["lf", "crlf", "mixed", "bom"],
)
def test_an_edit_to_the_same_text_leaves_the_file_byte_identical(ws, client, original) -> None:
    result, after = _edit(ws, client, original, "same", "same")
    assert isinstance(result.success, bool), result.evidence()
    assert after == original


@pytest.mark.clause("EDIT-07")
@pytest.mark.parametrize(
    ("old", "new", "kept_before", "kept_after"),
    [
        ('"hello"', '"bye"', "say ", " and ‘it’s’ fine\n"),
        ("it's", "it is", "say “hello” and ‘", "’ fine\n"),
    ],
    ids=["double", "single"],
)
def test_straight_quotes_match_curly_ones(ws, client, old, new, kept_before, kept_after) -> None:
    result, after = _edit(ws, client, "say “hello” and ‘it’s’ fine\n", old, new)
    assert result.success, result.evidence()
    text = after.decode("utf-8")
    assert text.startswith(kept_before) and text.endswith(kept_after), text
    assert new.strip('"') in text


@pytest.mark.clause("EDIT-08")
def test_editing_a_file_not_read_this_session_is_not_read(ws, client) -> None:
    ws.write("f.txt", "alpha\n")
    result = client.call("edit_file", path="f.txt", old_text="alpha", new_text="beta")
    refused(result, "NOT_READ")
    assert ws.read_bytes("f.txt") == b"alpha\n"


@pytest.mark.clause("EDIT-08")
def test_reading_another_file_does_not_allow_editing_this_one(ws, client) -> None:
    ws.write("f.txt", "alpha\n")
    ws.write("g.txt", "alpha\n")
    client.call("read_file", path="g.txt")
    result = client.call("edit_file", path="f.txt", old_text="alpha", new_text="beta")
    refused(result, "NOT_READ")
    assert ws.read_bytes("f.txt") == b"alpha\n"


def _change_behind_the_sessions_back(ws: Any, rel: str, content: str) -> None:
    ws.write(rel, content)
    # A user edit comes later than the read; make that visible even on coarse-mtime file systems.
    later = time.time() + 5
    os.utime(ws.path(rel), (later, later))


@pytest.mark.clause("EDIT-09")
@pytest.mark.parametrize("new_content", ["alpha\nuser edit\n", "alpha\nbeta\n\n"],
                         ids=["changed", "same-size-plus-one"])
def test_editing_a_file_changed_since_it_was_read_is_stale(ws, client, new_content) -> None:
    ws.write("f.txt", "alpha\nbeta\n")
    client.call("read_file", path="f.txt")
    _change_behind_the_sessions_back(ws, "f.txt", new_content)
    result = client.call("edit_file", path="f.txt", old_text="alpha", new_text="ALPHA")
    refused(result, "STALE_READ")
    assert ws.read_bytes("f.txt") == new_content.encode()


@pytest.mark.clause("EDIT-09")
def test_reading_again_after_a_change_allows_the_edit(ws, client) -> None:
    ws.write("f.txt", "alpha\n")
    client.call("read_file", path="f.txt")
    _change_behind_the_sessions_back(ws, "f.txt", "alpha\nuser\n")
    client.call("read_file", path="f.txt")
    result = client.call("edit_file", path="f.txt", old_text="alpha", new_text="ALPHA")
    assert result.success, result.evidence()
    assert ws.read_bytes("f.txt") == b"ALPHA\nuser\n"


@pytest.mark.clause("EDIT-10")
def test_a_successful_edit_carries_a_unified_diff(ws, client) -> None:
    result, _ = _edit(ws, client, "one\ntwo\nthree\n", "two", "deux")
    assert result.success, result.evidence()
    assert isinstance(result.diff, str) and "@@" in result.diff, result.evidence()
    lines = result.diff.splitlines()
    assert "-two" in lines and "+deux" in lines, result.diff


@pytest.mark.clause("EDIT-11")
@pytest.mark.parametrize("path", ["missing.txt", "no/such/dir/missing.txt"])
def test_editing_a_missing_file_is_not_found_and_creates_nothing(ws, client, path: str) -> None:
    before = ws.tree()
    result = client.call("edit_file", path=path, old_text="a", new_text="b")
    refused(result, "NOT_FOUND")
    assert ws.tree() == before


@pytest.mark.clause("EDIT-12")
@pytest.mark.parametrize(
    "new_text",
    ["$1", "$&", "$$", "\\1", "\\g<0>", "\\n", "C:\\new\\table", "$'", "\\\\"],
)
def test_new_text_is_inserted_literally(ws, client, new_text: str) -> None:
    result, after = _edit(ws, client, "before (target) after\n", "(target)", new_text)
    assert result.success, result.evidence()
    assert after == f"before {new_text} after\n".encode()


@pytest.mark.clause("EDIT-13")
def test_overwriting_a_file_not_read_is_not_read(ws, client) -> None:
    ws.write("f.txt", "precious\n")
    result = client.call("write_file", path="f.txt", content="overwritten\n")
    refused(result, "NOT_READ")
    assert ws.read_bytes("f.txt") == b"precious\n"


@pytest.mark.clause("EDIT-13")
def test_overwriting_a_file_after_reading_it_succeeds(ws, client) -> None:
    ws.write("f.txt", "precious\n")
    client.call("read_file", path="f.txt")
    result = client.call("write_file", path="f.txt", content="replaced\n")
    assert result.success, result.evidence()
    assert ws.read_bytes("f.txt") == b"replaced\n"


@pytest.mark.clause("EDIT-14")
# Not a folder named `..x`: a name that starts with two dots is CONFINE-09's (one cause, one
# clause; a lexical `..` check failed both).
@pytest.mark.parametrize("path", ["a/new.txt", "a/b/c/d/new.txt"])
def test_write_file_creates_missing_parent_folders(ws, client, path: str) -> None:
    result = client.call("write_file", path=path, content="nested\n")
    assert result.success, result.evidence()
    assert ws.read_bytes(path) == b"nested\n"


def _mode(ws: Any, rel: str) -> int:
    return stat.S_IMODE(os.stat(ws.path(rel)).st_mode)


@pytest.mark.clause("EDIT-15")
@pytest.mark.requires("edit_file")
@pytest.mark.parametrize("mode", [0o755, 0o600, 0o640], ids=oct)
def test_an_edit_keeps_the_permission_bits(ws, client, mode: int) -> None:
    ws.write("tool.sh", "#!/bin/sh\necho old\n", mode=mode)
    read_first(client, "tool.sh")
    result = client.call("edit_file", path="tool.sh", old_text="old", new_text="new")
    assert result.success, result.evidence()
    assert _mode(ws, "tool.sh") == mode


@pytest.mark.clause("EDIT-15")
@pytest.mark.requires("write_file")
@pytest.mark.parametrize("mode", [0o755, 0o600], ids=oct)
def test_an_overwrite_keeps_the_permission_bits(ws, client, mode: int) -> None:
    ws.write("tool.sh", "#!/bin/sh\necho old\n", mode=mode)
    read_first(client, "tool.sh")
    result = client.call("write_file", path="tool.sh", content="#!/bin/sh\necho new\n")
    if not took_effect(result):
        not_applicable("the overwrite was refused: whether write_file replaces a file is "
                       "EDIT-16's matter, not the mode it keeps")
    assert _mode(ws, "tool.sh") == mode


@pytest.mark.clause("EDIT-16")
def test_a_new_write_leaves_exactly_the_target_behind(ws, client) -> None:
    ws.write("keep.txt", "kept\n")
    before = ws.tree()
    result = client.call("write_file", path="new.txt", content="fresh\n")
    assert result.success, result.evidence()
    expected = {**before, "new.txt": b"fresh\n"}
    assert unreported(ws.tree(), [result], ws.root, expected) == expected


@pytest.mark.clause("EDIT-16")
def test_an_overwrite_leaves_exactly_the_target_behind(ws, client) -> None:
    ws.write("sub/f.txt", "a much longer old content than the new one\n" * 20)
    read_first(client, "sub/f.txt")
    before = ws.tree()
    result = client.call("write_file", path="sub/f.txt", content="short\n")
    assert result.success, result.evidence()
    expected = {**before, "sub/f.txt": b"short\n"}
    assert unreported(ws.tree(), [result], ws.root, expected) == expected


@pytest.mark.clause("EDIT-16")
def test_concurrent_writes_to_one_path_leave_no_temporary_file_behind(ws, client) -> None:
    # Writers that share one temporary name, or clean up only their own, leave one behind only
    # when they overlap (CONCUR-02 judges the content they leave; this clause the files).
    contents = [chr(ord("A") + i) * 200_000 + "\n" for i in range(6)]
    results = client.call_concurrently(
        [("write_file", {"path": "target.txt", "content": content}) for content in contents])
    assert any(result.success for result in results), results[0].evidence()
    left = sorted(unreported(ws.tree(), results, ws.root, ["target.txt"]))
    assert left == ["target.txt"], f"temporary files were left behind: {left}"


@pytest.mark.clause("EDIT-16")
@pytest.mark.requires("edit_file")
def test_an_edit_leaves_no_temporary_file_behind(ws, client) -> None:
    ws.write("sub/f.txt", "alpha\n")
    read_first(client, "sub/f.txt")
    before = ws.tree()
    result = client.call("edit_file", path="sub/f.txt", old_text="alpha", new_text="beta")
    assert result.success, result.evidence()
    expected = {**before, "sub/f.txt": b"beta\n"}
    assert unreported(ws.tree(), [result], ws.root, expected) == expected


# EDIT-17 does not order the folder check and the read guard: a folder was never read, so
# NOT_READ refuses it as truthfully as IS_DIRECTORY (some implementations check reads first).
FOLDER_REFUSALS = ("IS_DIRECTORY", "NOT_READ")


@pytest.mark.clause("EDIT-17")
@pytest.mark.requires("edit_file")
@pytest.mark.parametrize("path", ["folder", "folder/", "."])
def test_editing_a_folder_is_is_directory(ws, client, path: str) -> None:
    ws.write("folder/inside.txt", "alpha\n")
    before = ws.tree()
    result = client.call("edit_file", path=path, old_text="alpha", new_text="beta")
    refused(result, *FOLDER_REFUSALS)
    assert ws.tree() == before


@pytest.mark.clause("EDIT-17")
@pytest.mark.requires("write_file")
@pytest.mark.parametrize("path", ["folder", "folder/"])
def test_writing_to_a_folder_is_is_directory(ws, client, path: str) -> None:
    ws.write("folder/inside.txt", "alpha\n")
    before = ws.tree()
    result = client.call("write_file", path=path, content="replaced a folder")
    refused(result, *FOLDER_REFUSALS)
    assert ws.tree() == before


# ---------------------------------------------------------------- files that are not plain text

NOT_UTF8 = b"head \xff\xfe bytes\nalpha\ntail \x80 byte\n"


def _unchanged_or_only_the_span(result: Any, after: bytes, original: bytes) -> None:
    if took_effect(result):
        assert after == original.replace(b"alpha", b"omega", 1), result.evidence()
    else:
        assert after == original, result.evidence()


@pytest.mark.clause("EDIT-18")
def test_an_edit_of_a_file_with_invalid_utf8_never_corrupts_it(ws, client) -> None:
    ws.write("mixed.bin", NOT_UTF8)
    read_first(client, "mixed.bin")
    result = client.call("edit_file", path="mixed.bin", old_text="alpha", new_text="omega")
    _unchanged_or_only_the_span(result, ws.read_bytes("mixed.bin"), NOT_UTF8)


@pytest.mark.clause("EDIT-18")
def test_an_edit_of_a_file_with_nul_bytes_this_session_wrote_never_corrupts_it(ws, client) -> None:
    # Written by the session itself, so no read guard stands between the edit and the bytes.
    content = "head\x00\nalpha\ntail\x00\n"
    written = client.call("write_file", path="nul.bin", content=content)
    if not written.success:
        not_applicable(f"write_file does not store text with NUL characters ({written.error})")
    read_first(client, "nul.bin")
    result = client.call("edit_file", path="nul.bin", old_text="alpha", new_text="omega")
    _unchanged_or_only_the_span(result, ws.read_bytes("nul.bin"), content.encode())


def _too_large_to_read(limits: Any) -> bytes:
    line = b"a line of a file too large to read whole\n"
    return line * (limits.max_read_bytes // len(line) + 100)


def _invalid_past_its_first_lines(limits: Any) -> bytes:
    return b"plain first line\n" * 2000 + b"then \xff\xfe bytes\n" + b"more text\n" * 10


@pytest.mark.clause("EDIT-19")
@pytest.mark.parametrize("content_of", [_too_large_to_read, _invalid_past_its_first_lines],
                         ids=["larger-than-max-read-bytes", "invalid-utf8-past-the-start"])
def test_a_file_read_by_a_window_can_be_replaced_whole(ws, client, content_of) -> None:
    ws.write("f.dat", content_of(client.limits))
    window = client.call("read_file", path="f.dat", start_line=1, end_line=1)
    # Judging the whole file BINARY_FILE departs from nothing EDIT-19 says, and that answer
    # counts as a read; any other refusal leaves the clause's precondition unmet (not a failure).
    if not window.success and window.error != "BINARY_FILE":
        not_applicable(f"this implementation does not read a window of the file "
                    f"({window.error}), so EDIT-19's precondition is not met")
    before = ws.tree()
    result = client.call("write_file", path="f.dat", content="replaced\n")
    assert result.success, result.evidence()
    assert ws.tree() == {**before, "f.dat": b"replaced\n"}
