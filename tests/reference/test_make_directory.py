"""make_directory on real folders: it only adds, and a second identical call changes nothing."""

from reference_box import Box


def test_a_folder_is_made_with_its_missing_parents(box: Box) -> None:
    answer = box.call("make_directory", path="a/b/c")
    assert answer["success"], answer
    assert (box.root / "a" / "b" / "c").is_dir()
    assert answer["summary"] == "Created a/b/c/"


def test_an_existing_folder_is_a_success_that_changes_nothing(box: Box) -> None:
    box.write("a/keep.txt", "kept\n")
    answer = box.call("make_directory", path="a")
    assert answer["success"] and "already" in answer["data"], answer
    assert sorted(p.name for p in (box.root / "a").iterdir()) == ["keep.txt"]
    assert box.read("a/keep.txt") == b"kept\n"


def test_a_file_in_the_way_is_refused_and_kept(box: Box) -> None:
    box.write("a.txt", "precious\n")
    answer = box.call("make_directory", path="a.txt")
    assert answer["error"] == "ALREADY_EXISTS", answer
    assert box.read("a.txt") == b"precious\n"
    answer = box.call("make_directory", path="a.txt/sub")
    assert answer["success"] is False and answer["error"] == "NOT_A_DIRECTORY", answer
    assert box.read("a.txt") == b"precious\n"


def test_a_folder_outside_the_root_is_refused(box: Box) -> None:
    answer = box.call("make_directory", path="../made")
    assert answer["error"] == "OUTSIDE_ROOT", answer
    assert not (box.root.parent / "made").exists()


def test_its_annotations_say_additive_and_idempotent(box: Box) -> None:
    listed = {tool["name"]: tool for tool in box.system.list_tools()}
    assert listed["make_directory"]["annotations"] == {
        "readOnlyHint": False, "destructiveHint": False, "idempotentHint": True,
        "openWorldHint": False,
    }
    assert listed["read_file"]["annotations"]["readOnlyHint"] is True
    assert listed["bash"]["annotations"]["openWorldHint"] is True
