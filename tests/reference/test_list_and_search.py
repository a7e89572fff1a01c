"""list_files and tool_search on a real tree."""

from collections.abc import Callable

from reference_box import Box


def tree(box: Box) -> None:
    files = ("b.txt", "a.txt", "src/main.py", "src/util/helpers.py", "a b/x.md", "..cache/c")
    for relative in files:
        box.write(relative, "x\n")
    (box.root / "empty").mkdir()


def test_the_root_is_listed_recursively_in_path_order_with_folders_marked(box: Box) -> None:
    tree(box)
    listed = box.call("list_files")["data"].split("\n")
    assert listed == [
        "..cache/",
        "..cache/c",
        "a b/",
        "a b/x.md",
        "a.txt",
        "b.txt",
        "empty/",
        "src/",
        "src/main.py",
        "src/util/",
        "src/util/helpers.py",
    ]
    assert box.call("list_files", path=".")["data"].split("\n") == listed


def test_a_subfolder_is_listed_with_paths_relative_to_the_root(box: Box) -> None:
    tree(box)
    assert box.call("list_files", path="src/util")["data"] == "src/util/helpers.py"


def test_a_pattern_filters_by_glob_on_path_or_name(box: Box) -> None:
    tree(box)
    assert box.call("list_files", pattern="*.py")["data"] == "src/main.py\nsrc/util/helpers.py"
    assert box.call("list_files", pattern="src/*.py")["data"] == "src/main.py\nsrc/util/helpers.py"
    answer = box.call("list_files", pattern="*.rs")
    assert answer["success"] and "No paths" in answer["data"]


def test_a_missing_folder_is_not_found_and_a_file_is_not_a_folder(box: Box) -> None:
    tree(box)
    assert box.call("list_files", path="nope")["error"] == "NOT_FOUND"
    assert box.call("list_files", path="a.txt")["error"] == "NOT_A_DIRECTORY"


def test_an_empty_folder_says_so(box: Box) -> None:
    (box.root / "empty").mkdir()
    answer = box.call("list_files", path="empty")
    assert answer["success"] and "empty" in answer["data"]


def test_a_huge_tree_is_bounded_with_a_marker(box_with: Callable[..., Box]) -> None:
    box = box_with(limits={"max_output_chars": 500})
    for n in range(300):
        box.write(f"many/file_{n:04}.txt", "")
    data = box.call("list_files")["data"]
    assert len(data) <= 500 + 200
    assert data.startswith("many/\nmany/file_0000.txt") and "listing cut after" in data


def test_a_deferred_tool_is_hidden_until_tool_search_reveals_it(box: Box) -> None:
    names = [tool["name"] for tool in box.system.list_tools()]
    assert "file_info" not in names
    assert box.call("file_info", path=".")["error"] == "TOOL_NOT_FOUND"
    found = box.call("tool_search", query="permission bits")
    assert found["success"] and "file_info" in found["data"]
    assert '"required": ["path"]' in found["data"]
    assert [tool["name"] for tool in box.system.list_tools()] == [*names, "file_info"]
    box.write("a.txt", "one\ntwo\n")
    info = box.call("file_info", path="a.txt")
    assert info["success"] and "text file" in info["data"] and "2 line breaks" in info["data"]


def test_tool_search_finds_listed_tools_too_and_says_when_nothing_matches(box: Box) -> None:
    found = box.call("tool_search", query="old_text")
    assert found["data"].split("\n")[:3] == ['1 tool matches "old_text":', "", "edit_file"]
    missing = box.call("tool_search", query="teleport")
    assert missing["success"] and "No tool matches" in missing["data"]
    assert "file_info" in missing["data"]


def test_file_info_uses_the_json_schema_track_for_its_issues(box: Box) -> None:
    box.call("tool_search", query="file_info")
    answer = box.call_raw("file_info", {"path": 3, "extra": True})
    assert answer["error"] == "INVALID_ARGS"
    assert [issue["path"] for issue in answer["issues"]] == ["$.extra", "$.path"]
    assert answer["issues"][1]["received"] == "number 3"


def test_file_info_describes_folders_and_binary_files(box: Box) -> None:
    box.call("tool_search", query="file_info")
    box.write("d/blob", b"\x00\x01")
    assert "binary file" in box.call("file_info", path="d/blob")["data"]
    assert "folder, 1 entries" in box.call("file_info", path="d")["data"]
    assert box.call("file_info", path="../outside")["error"] == "OUTSIDE_ROOT"
