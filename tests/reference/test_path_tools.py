"""The reference's path tools: move_file, copy_file, delete_file, read_multiple_files and
directory_tree do what they say inside the root, and nothing through a path that leaves it."""

import os

from reference_box import SECRET, Box


def test_move_file_renames_and_never_replaces(box: Box) -> None:
    box.write("a.txt", "alpha\n")
    box.write("b.txt", "beta\n")
    assert box.call("move_file", source="a.txt", destination="sub/../c.txt")["success"]
    assert (box.root / "c.txt").read_text() == "alpha\n" and not (box.root / "a.txt").exists()
    refused = box.call("move_file", source="c.txt", destination="b.txt")
    assert refused["error"] == "ALREADY_EXISTS"
    assert (box.root / "b.txt").read_text() == "beta\n"


def test_copy_file_copies_bytes_and_refuses_a_folder(box: Box) -> None:
    box.write("a.bin", b"\x00\x01crlf\r\n")
    assert box.call("copy_file", source="a.bin", destination="b.bin")["success"]
    assert (box.root / "b.bin").read_bytes() == b"\x00\x01crlf\r\n"
    (box.root / "dir").mkdir()
    assert box.call("copy_file", source="dir", destination="d2")["error"] == "IS_DIRECTORY"


def test_delete_file_removes_one_file_never_a_folder(box: Box) -> None:
    box.write("a.txt", "alpha\n")
    (box.root / "dir").mkdir()
    assert box.call("delete_file", path="a.txt")["success"]
    assert not (box.root / "a.txt").exists()
    assert box.call("delete_file", path="dir")["error"] == "IS_DIRECTORY"
    assert box.call("delete_file", path="a.txt")["error"] == "NOT_FOUND"


def test_read_multiple_files_heads_each_file_and_fails_whole_on_one_outside(box: Box) -> None:
    box.write("a.txt", "alpha\n")
    box.write("sub/b.txt", "beta\n")
    answer = box.call("read_multiple_files", paths=["a.txt", "sub/b.txt"])
    assert answer["data"] == "==> a.txt <==\nalpha\n\n==> sub/b.txt <==\nbeta\n"
    refused = box.call("read_multiple_files", paths=["a.txt", "../outside/secret.txt"])
    assert refused["error"] == "OUTSIDE_ROOT" and SECRET not in refused["data"]


def test_directory_tree_indents_and_never_follows_a_link(box: Box) -> None:
    box.write("sub/b.txt", "beta\n")
    os.symlink(box.outside, box.root / "link_out")
    tree = box.call("directory_tree", path=".")["data"]
    assert tree == "./\n  link_out\n  sub/\n    b.txt"
    assert box.call("directory_tree", path="link_out")["error"] == "OUTSIDE_ROOT"


def test_every_path_tool_refuses_the_sibling_prefix_and_changes_nothing_there(box: Box) -> None:
    box.write("a.txt", "alpha\n")
    before = sorted(os.listdir(box.sibling))
    for tool, arguments in (
        ("move_file", {"source": "a.txt", "destination": "../root_evil/moved.txt"}),
        ("move_file", {"source": "../root_evil/secret.txt", "destination": "in.txt"}),
        ("copy_file", {"source": "../root_evil/secret.txt", "destination": "in.txt"}),
        ("delete_file", {"path": "../root_evil/secret.txt"}),
        ("read_multiple_files", {"paths": ["../root_evil/secret.txt"]}),
        ("directory_tree", {"path": "../root_evil"}),
    ):
        assert box.call(tool, **arguments)["error"] == "OUTSIDE_ROOT", (tool, arguments)
    assert sorted(os.listdir(box.sibling)) == before and not (box.root / "in.txt").exists()
