"""The path walker's rules as fast unit tests on a fake file system (pyfakefs).

The same rules run against the real kernel in test_confinement.py; here each rule is one line.
"""

from pathlib import Path

import pytest
from pyfakefs.fake_filesystem import FakeFilesystem

from agentconf.reference.results import ToolError
from agentconf.reference.sandbox.paths import (
    confine_read,
    confine_write,
    resolve_in_root,
    strip_mention,
)

ROOT_NAME = "/work/root"


@pytest.fixture
def root(fs: FakeFilesystem) -> Path:
    """The root, built once pyfakefs is active (its Path class differs from the real one)."""
    root = Path(ROOT_NAME)
    fs.create_file(root / "sub" / "inner.txt", contents="inner")
    fs.create_file("/work/root_evil/secret.txt", contents="secret")
    fs.create_file("/work/outside/secret.txt", contents="secret")
    fs.create_symlink(root / "link_out", "/work/outside")
    fs.create_symlink(root / "link_in", "sub")
    fs.create_symlink(root / "chain", "link_in/../link_in")
    fs.create_symlink(root / "dangling_in", "nowhere/file.txt")
    return root


def code_of(call: object) -> str:
    with pytest.raises(ToolError) as caught:
        call()  # type: ignore[operator]
    return caught.value.code


def test_only_one_leading_mention_marker_is_stripped() -> None:
    assert strip_mention("@a.txt") == "a.txt"
    assert strip_mention("@@a.txt") == "@a.txt"
    assert strip_mention("a@b") == "a@b"


def test_resolution_keeps_absolute_paths_and_never_expands_tilde() -> None:
    root = Path(ROOT_NAME)
    assert resolve_in_root("/etc/passwd", root) == Path("/etc/passwd")
    assert resolve_in_root("~/x", root) == root / "~" / "x"
    assert resolve_in_root("@sub/a", root) == root / "sub" / "a"


def test_a_sibling_with_the_roots_name_as_prefix_is_outside(root: Path) -> None:
    assert code_of(lambda: confine_read("../root_evil/secret.txt", root)) == "OUTSIDE_ROOT"


def test_missing_folders_then_dotdot_resolve_lexically(root: Path) -> None:
    inside = confine_write("new/x/../../sub/y.txt", root, [root])
    assert inside.real == root / "sub" / "y.txt" and not inside.exists
    assert code_of(lambda: confine_write("new/x/../../../evil", root, [root])) == "OUTSIDE_ROOT"


def test_a_link_in_the_middle_is_followed_before_confinement(root: Path) -> None:
    assert code_of(lambda: confine_write("link_out/new/f.txt", root, [root])) == "OUTSIDE_ROOT"
    assert confine_read("link_in/inner.txt", root).real == root / "sub" / "inner.txt"


def test_dotdot_after_a_link_climbs_from_the_links_target(root: Path) -> None:
    # The kernel resolves `link_in` to sub/ first, so `..` from there is the root again.
    assert confine_read("chain/inner.txt", root).real == root / "sub" / "inner.txt"


def test_a_dangling_link_is_readable_as_missing_but_never_a_write_target(
    root: Path,
) -> None:
    target = confine_read("dangling_in", root)
    assert not target.exists and target.through_dangling_link
    assert code_of(lambda: confine_write("dangling_in", root, [root])) == "PERMISSION_DENIED"


def test_a_new_file_in_an_existing_folder_is_not_dangling(root: Path) -> None:
    target = confine_write("link_in/new.txt", root, [root])
    assert target.real == root / "sub" / "new.txt" and not target.through_dangling_link


def test_messages_name_paths_relative_to_the_root(root: Path) -> None:
    assert confine_read(str(root / "sub" / "inner.txt"), root).shown == "sub/inner.txt"
    assert confine_read("", root).shown == "."
