"""apply_patch on real files: the format, all or nothing, EOL per file, confinement, rollback."""

from pathlib import Path

import pytest
from reference_box import Box

from agentconf.reference.sandbox.atomic import Change, replace_all
from agentconf.reference.sandbox.patch import HunkError, PatchSyntaxError, apply_hunks, parse


def patch(*sections: str) -> str:
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def names(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_add_update_move_and_delete_in_one_patch(box: Box) -> None:
    box.write("a.txt", "one\ntwo\nthree\n")
    box.write("b.txt", "keep\nold\n")
    box.write("gone.txt", "bye\n")
    answer = box.call("apply_patch", patch=patch(
        "*** Add File: new/n.txt\n+hello\n+world\n",
        "*** Update File: a.txt\n one\n-two\n+TWO\n three\n",
        "*** Update File: b.txt\n*** Move to: moved/b.txt\n keep\n-old\n+new\n",
        "*** Delete File: gone.txt\n",
    ))
    assert answer["success"], answer
    assert box.read("new/n.txt") == b"hello\nworld\n"
    assert box.read("a.txt") == b"one\nTWO\nthree\n"
    assert box.read("moved/b.txt") == b"keep\nnew\n"
    assert names(box.root) == ["a.txt", "moved", "moved/b.txt", "new", "new/n.txt"]
    assert answer["summary"] == "Patched 4 files (+4 -3)"  # added 2+1+1, removed 1+1+1
    assert "+TWO" in answer["diff"] and "A new/n.txt" in answer["data"]


def test_a_failing_hunk_in_the_third_file_leaves_the_first_two_untouched(box: Box) -> None:
    box.write("a.txt", "a\n")
    box.write("b.txt", "b\n")
    box.write("c.txt", "c\n")
    answer = box.call("apply_patch", patch=patch(
        "*** Update File: a.txt\n-a\n+A\n",
        "*** Update File: b.txt\n-b\n+B\n",
        "*** Update File: c.txt\n-not there\n+C\n",
        "*** Add File: d.txt\n+d\n",
    ))
    assert answer["error"] == "TEXT_NOT_FOUND" and "c.txt" in answer["data"], answer
    assert (box.read("a.txt"), box.read("b.txt"), box.read("c.txt")) == (b"a\n", b"b\n", b"c\n")
    assert names(box.root) == ["a.txt", "b.txt", "c.txt"]


@pytest.mark.parametrize(
    ("section", "code"),
    [
        ("*** Update File: missing.txt\n-x\n+y\n", "NOT_FOUND"),
        ("*** Delete File: missing.txt\n", "NOT_FOUND"),
        ("*** Add File: a.txt\n+again\n", "ALREADY_EXISTS"),
        ("*** Add File: ../escape.txt\n+x\n", "OUTSIDE_ROOT"),
        ("*** Update File: a.txt\n*** Move to: ../escape.txt\n-a\n+b\n", "OUTSIDE_ROOT"),
        ("*** Update File: a.txt\n*** Move to: sub\n-a\n+b\n", "ALREADY_EXISTS"),
        ("*** Update File: sub\n-a\n+b\n", "IS_DIRECTORY"),
        ("*** Add File: a.txt/under.txt\n+x\n", "NOT_A_DIRECTORY"),
        ("*** Update File: twice.txt\n-t\n+T\n", "TEXT_MULTIPLE_MATCHES"),
        ("*** Update File: a.txt\n-a\n+b\n*** Delete File: a.txt\n", "INVALID_ARGS"),
    ],
)
def test_each_refusal_has_its_code_and_changes_nothing(box: Box, section: str, code: str) -> None:
    box.write("a.txt", "a\n")
    box.write("twice.txt", "t\nt\n")
    (box.root / "sub").mkdir()
    before = {name: (box.root / name).read_bytes() for name in ("a.txt", "twice.txt")}
    answer = box.call("apply_patch", patch=patch("*** Add File: first.txt\n+1\n", section))
    assert answer["success"] is False and answer["error"] == code, answer
    assert names(box.root) == ["a.txt", "sub", "twice.txt"]
    assert {name: (box.root / name).read_bytes() for name in before} == before
    assert not (box.root.parent / "escape.txt").exists()


def test_a_crlf_file_keeps_its_endings_and_an_lf_file_its_own(box: Box) -> None:
    box.write("win.txt", "\ufeffone\r\ntwo\r\nthree")
    box.write("unix.txt", "one\ntwo\n")
    answer = box.call("apply_patch", patch=patch(
        "*** Update File: win.txt\n one\n-two\n+2\n+2b\n",
        "*** Update File: unix.txt\n-two\n+2\n",
    ))
    assert answer["success"], answer
    assert box.read("win.txt") == "\ufeffone\r\n2\r\n2b\r\nthree".encode()
    assert box.read("unix.txt") == b"one\n2\n"


def test_a_patch_not_in_the_format_is_invalid_args_with_an_issue(box: Box) -> None:
    answer = box.call("apply_patch", patch="--- a/x\n+++ b/x\n")
    assert answer["error"] == "INVALID_ARGS", answer
    assert answer["issues"][0]["path"] == "$.patch"
    assert "line 1" in answer["data"]


def test_hunks_apply_in_order_and_an_anchor_picks_the_occurrence_below_it() -> None:
    text = "def a():\n    return 1\n\ndef b():\n    return 1\n"
    ops = parse(patch("*** Update File: m.py\n@@ def b():\n-    return 1\n+    return 2\n"))
    assert apply_hunks(text, ops[0].hunks, "m.py") == (
        "def a():\n    return 1\n\ndef b():\n    return 2\n"
    )
    with pytest.raises(HunkError) as ambiguous:
        apply_hunks(text, parse(patch("*** Update File: m.py\n-    return 1\n+x\n"))[0].hunks, "m")
    assert ambiguous.value.code == "TEXT_MULTIPLE_MATCHES"


@pytest.mark.parametrize(
    ("original", "section", "expected"),
    [
        ("a\nb", " a\n-b\n", "a"),  # the last, unterminated line removed with its newline
        ("a\nb", "+c\n*** End of File\n", "a\nb\nc"),  # appended after an unterminated line
        ("a\n", "+c\n*** End of File\n", "a\nc\n"),
        ("", "+c\n*** End of File\n", "c\n"),
        ("a\r\nb\r\n", "@@ a\n+x\n", "a\r\nx\r\nb\r\n"),  # inserted below the anchor
    ],
)
def test_edges_of_the_file(original: str, section: str, expected: str) -> None:
    hunks = parse(patch(f"*** Update File: f\n{section}"))[0].hunks
    assert apply_hunks(original, hunks, "f") == expected


@pytest.mark.parametrize(
    "text",
    ["", "*** Begin Patch\n*** End Patch", "*** Begin Patch\n*** Frobnicate: x\n*** End Patch",
     "*** Begin Patch\n*** Add File: x\nno plus\n*** End Patch",
     "*** Begin Patch\n*** Update File: x\n*** End Patch"],
)
def test_malformed_patches_are_syntax_errors(text: str) -> None:
    with pytest.raises(PatchSyntaxError):
        parse(text)


def test_a_commit_that_fails_half_way_puts_back_what_it_had_done(tmp_path: Path) -> None:
    first = tmp_path / "first.txt"
    first.write_bytes(b"old\n")
    # Removing a file that is not there fails only at commit time, after `first` was replaced.
    with pytest.raises(FileNotFoundError):
        replace_all([Change(first, b"new\n"), Change(tmp_path / "folder" / "no.txt", None),
                     Change(tmp_path / "made" / "deep.txt", b"x")])
    assert first.read_bytes() == b"old\n"
    assert names(tmp_path) == ["first.txt"], "temp files, kept links and new folders are gone"
