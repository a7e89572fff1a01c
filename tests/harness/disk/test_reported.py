"""A file an answer names is the implementation's product, not a temporary file left behind."""

from pathlib import Path

from agentconf.harness.disk.reported import named_in

ROOT = Path("/sandbox/root")
TREE = ["f.txt", "f.txt.tmp", ".versions/", ".versions/f.txt.1.bak", "other/", "other/x"]


def test_a_relative_path_in_the_answer_names_the_file_and_its_folder() -> None:
    said = ['{"ok": true, "backup": ".versions/f.txt.1.bak"}']
    assert named_in(said, TREE, ROOT) == {".versions/", ".versions/f.txt.1.bak"}


def test_an_absolute_path_in_the_answer_names_the_file() -> None:
    said = [f"kept the old text at {ROOT}/.versions/f.txt.1.bak"]
    assert named_in(said, TREE, ROOT) == {".versions/", ".versions/f.txt.1.bak"}


def test_a_name_is_never_read_inside_a_longer_one() -> None:
    assert named_in(["wrote f.txt (3 bytes)"], TREE, ROOT) == {"f.txt"}
    assert named_in(["wrote ./f.txt"], TREE, ROOT) == {"f.txt"}
    assert named_in(["wrote sub/f.txt.tmp2 and xf.txt"], TREE, ROOT) == set()


def test_an_answer_naming_nothing_names_nothing() -> None:
    assert named_in(["Successfully wrote 6 bytes"], TREE, ROOT) == set()
