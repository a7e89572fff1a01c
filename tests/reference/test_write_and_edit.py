"""write_file and edit_file on real files: exact bytes, read guards, EOL, quotes, locks, modes."""

import asyncio
import os
import stat

from reference_box import Box

# ---------------------------------------------------------------- write_file


def test_a_new_file_gets_exactly_the_bytes_given(box: Box) -> None:
    content = "\ufeffone\r\ntwo\nthree"
    answer = box.call("write_file", path="deep/new/dir/f.txt", content=content)
    assert answer["success"], answer
    assert box.read("deep/new/dir/f.txt") == content.encode()
    assert answer["summary"].startswith("Created deep/new/dir/f.txt")


def test_overwriting_an_unread_file_is_refused_and_leaves_it(box: Box) -> None:
    box.write("a.txt", "precious\n")
    answer = box.call("write_file", path="a.txt", content="gone")
    assert answer["error"] == "NOT_READ" and "read_file" in answer["data"]
    assert box.read("a.txt") == b"precious\n"


def test_overwriting_a_read_file_keeps_its_mode_and_leaves_no_temp_file(box: Box) -> None:
    script = box.write("run.sh", "#!/bin/sh\necho old\n")
    script.chmod(0o754)
    box.read_first("run.sh")
    answer = box.call("write_file", path="run.sh", content="#!/bin/sh\necho new\n")
    assert answer["success"] and answer["summary"].startswith("Overwrote run.sh")
    assert stat.S_IMODE(script.stat().st_mode) == 0o754
    assert sorted(p.name for p in box.root.iterdir()) == ["run.sh"]
    assert "-echo old\n+echo new\n" in answer["diff"]


def test_a_binary_file_read_as_binary_may_then_be_replaced(box: Box) -> None:
    """BINARY_FILE shows the model what is there, so it counts as the read before an overwrite;
    an edit of it stays BINARY_FILE and changes nothing."""
    box.write("blob.bin", "")
    (box.root / "blob.bin").write_bytes(b"\x00\x01\x02 old")
    assert box.call("write_file", path="blob.bin", content="text")["error"] == "NOT_READ"
    assert box.call("read_file", path="blob.bin")["error"] == "BINARY_FILE"
    edit = box.call("edit_file", path="blob.bin", old_text="old", new_text="new")
    assert edit["error"] == "BINARY_FILE"
    assert box.read("blob.bin") == b"\x00\x01\x02 old"
    assert box.call("write_file", path="blob.bin", content="text now\n")["success"]
    assert box.read("blob.bin") == b"text now\n"


def test_writing_a_folder_path_is_refused(box: Box) -> None:
    (box.root / "dir").mkdir()
    assert box.call("write_file", path="dir", content="x")["error"] == "IS_DIRECTORY"


def test_a_lone_surrogate_in_content_is_invalid_not_a_crash(box: Box) -> None:
    answer = box.call("write_file", path="a.txt", content="bad \ud800 text")
    assert answer["error"] == "INVALID_ARGS" and answer["issues"][0]["path"] == "$.content"
    assert not (box.root / "a.txt").exists()


def test_a_file_changed_on_disk_after_the_read_is_stale(box: Box) -> None:
    path = box.write("a.txt", "v1\n")
    box.read_first("a.txt")
    path.write_text("v2 by someone else\n")
    os.utime(path, ns=(1, 1))  # an mtime no write of ours could produce
    answer = box.call("write_file", path="a.txt", content="v3")
    assert answer["error"] == "STALE_READ"
    assert box.read("a.txt") == b"v2 by someone else\n"


# ---------------------------------------------------------------- edit_file


def edit(box: Box, path: str, old: str, new: str, **extra: object) -> dict[str, object]:
    return box.call("edit_file", path=path, old_text=old, new_text=new, **extra)


def test_a_unique_old_text_is_replaced_with_a_diff_and_a_summary(box: Box) -> None:
    box.write("a.py", "x = 1\ny = 2\n")
    box.read_first("a.py")
    answer = edit(box, "a.py", "y = 2", "y = 3")
    assert answer["success"], answer
    assert box.read("a.py") == b"x = 1\ny = 3\n"
    assert answer["diff"].startswith("--- a/a.py\n+++ b/a.py\n")
    assert answer["summary"] == "Edited a.py (+1 -1)"
    assert "line 2" in answer["data"]


def test_not_found_and_multiple_matches_are_different_failures(box: Box) -> None:
    box.write("a.txt", "dup\ndup\n")
    box.read_first("a.txt")
    assert edit(box, "a.txt", "absent", "x")["error"] == "TEXT_NOT_FOUND"
    several = edit(box, "a.txt", "dup", "x")
    assert several["error"] == "TEXT_MULTIPLE_MATCHES" and "2 times" in several["data"]
    assert box.read("a.txt") == b"dup\ndup\n"


def test_replace_all_replaces_every_occurrence_and_nothing_else(box: Box) -> None:
    box.write("a.txt", "dup-dup\ndupe\n")
    box.read_first("a.txt")
    answer = edit(box, "a.txt", "dup", "X", replace_all=True)
    assert answer["success"] and "3 occurrences" in answer["data"]
    assert box.read("a.txt") == b"X-X\nXe\n"


def test_editing_an_unread_file_is_refused(box: Box) -> None:
    box.write("a.txt", "text\n")
    assert edit(box, "a.txt", "text", "other")["error"] == "NOT_READ"
    assert box.read("a.txt") == b"text\n"


def test_a_second_edit_after_the_sessions_own_write_is_not_stale(box: Box) -> None:
    box.write("a.txt", "one two\n")
    box.read_first("a.txt")
    assert edit(box, "a.txt", "one", "1")["success"]
    assert edit(box, "a.txt", "two", "2")["success"]
    assert box.read("a.txt") == b"1 2\n"


def test_an_edit_of_a_missing_file_is_not_found_and_creates_nothing(box: Box) -> None:
    assert edit(box, "ghost.txt", "a", "b")["error"] == "NOT_FOUND"
    assert not (box.root / "ghost.txt").exists()


def test_empty_old_text_and_a_no_op_edit_are_invalid(box: Box) -> None:
    box.write("a.txt", "same\n")
    box.read_first("a.txt")
    assert edit(box, "a.txt", "", "x")["issues"][0]["path"] == "$.old_text"
    assert edit(box, "a.txt", "same", "same")["issues"][0]["path"] == "$.new_text"
    assert box.read("a.txt") == b"same\n"


def test_lf_old_text_matches_crlf_lines_and_new_lines_take_crlf(box: Box) -> None:
    box.write("win.txt", b"\xef\xbb\xbfa\r\nb\r\nc\r\nd")
    box.read_first("win.txt")
    answer = edit(box, "win.txt", "b\nc", "B\nbetween\nC")
    assert answer["success"], answer
    assert box.read("win.txt") == b"\xef\xbb\xbfa\r\nB\r\nbetween\r\nC\r\nd"


def test_a_mixed_file_keeps_each_untouched_line_ending(box: Box) -> None:
    box.write("mixed.txt", b"a\r\nb\nc\r\nd\n")
    box.read_first("mixed.txt")
    assert edit(box, "mixed.txt", "c", "C")["success"]
    assert box.read("mixed.txt") == b"a\r\nb\nC\r\nd\n"


def test_new_text_is_inserted_literally(box: Box) -> None:
    box.write("a.txt", "name = foo\n")
    box.read_first("a.txt")
    assert edit(box, "a.txt", "foo", r"$1 \1 $& \\n")["success"]
    assert box.read("a.txt") == rb"name = $1 \1 $& \\n" + b"\n"


def test_straight_quotes_match_curly_ones_and_the_rest_keeps_its_curls(box: Box) -> None:
    box.write("doc.md", "He said “hi” and ‘bye’.\nShe said “ok”.\n")
    box.read_first("doc.md")
    answer = edit(box, "doc.md", 'said "hi"', 'said "hello"')
    assert answer["success"] and "curly quotes" in answer["data"]
    assert box.read("doc.md").decode() == "He said \"hello\" and ‘bye’.\nShe said “ok”.\n"


def test_editing_a_binary_file_is_refused(box: Box) -> None:
    # Written by the session itself, so the read guard is satisfied and binariness decides.
    assert box.call("write_file", path="blob.bin", content="\x00\x01binary")["success"]
    assert edit(box, "blob.bin", "binary", "x")["error"] == "BINARY_FILE"
    assert box.read("blob.bin") == b"\x00\x01binary"


def test_an_edit_keeps_an_executables_mode(box: Box) -> None:
    script = box.write("run.sh", "echo a\n")
    script.chmod(0o755)
    box.read_first("run.sh")
    assert edit(box, "run.sh", "echo a", "echo b")["success"]
    assert stat.S_IMODE(script.stat().st_mode) == 0o755


def test_concurrent_edits_of_one_file_lose_no_update(box: Box) -> None:
    count = 12
    box.write("list.txt", "".join(f"item {n};\n" for n in range(count)))
    box.read_first("list.txt")

    async def all_at_once() -> list[dict[str, object]]:
        calls = [
            box.system.call_tool(
                "edit_file", {"path": "list.txt", "old_text": f"item {n};", "new_text": f"{n} ok;"}
            )
            for n in range(count)
        ]
        return await asyncio.gather(*calls)

    answers = asyncio.run(all_at_once())
    assert all(answer["success"] for answer in answers), answers
    assert box.read("list.txt").decode() == "".join(f"{n} ok;\n" for n in range(count))


def test_concurrent_writes_leave_exactly_one_whole_content(box: Box) -> None:
    contents = [chr(ord("a") + n) * 50_000 for n in range(8)]

    async def all_at_once() -> list[dict[str, object]]:
        calls = [box.system.call_tool("write_file", {"path": "w.txt", "content": text})
                 for text in contents]
        return await asyncio.gather(*calls)

    answers = asyncio.run(all_at_once())
    assert any(answer["success"] for answer in answers)
    assert box.read("w.txt").decode() in contents
    assert sorted(p.name for p in box.root.iterdir()) == ["w.txt"]


def test_overwriting_a_large_or_binary_file_works_without_a_diff(box: Box) -> None:
    big = "line\n" * 100_000  # larger than max_read_bytes, so not diffed
    assert box.call("write_file", path="big.txt", content=big)["success"]
    replaced = box.call("write_file", path="big.txt", content="small\n")
    assert replaced["success"] and "diff" not in replaced
    assert box.call("write_file", path="blob", content="\x00")["success"]
    box.write("latin1.txt", b"caf\xe9\n")
    assert box.call("write_file", path="latin1.txt", content="x")["error"] == "NOT_READ"
    assert box.call("write_file", path="blob", content="text now\n")["success"]
    assert box.read("blob") == b"text now\n"
