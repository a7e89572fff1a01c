"""Confinement and links, end to end on a real temp dir: hostile paths, real symlinks."""

import os
from pathlib import Path

import pytest
from reference_box import SECRET, Box

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


def link_farm(box: Box) -> None:
    (box.root / "sub").mkdir()
    (box.root / "sub" / "inner.txt").write_text("inner\n")
    os.symlink(box.outside, box.root / "link_out")
    os.symlink(box.outside / "secret.txt", box.root / "link_out_file")
    os.symlink("sub", box.root / "link_in")
    os.symlink("sub/inner.txt", box.root / "link_in_file")
    os.symlink(box.outside / "created_by_escape.txt", box.root / "dangling_out")
    os.symlink("loop_b", box.root / "loop_a")
    os.symlink("loop_a", box.root / "loop_b")


@pytest.mark.parametrize(
    "path",
    [
        "../outside/escape.txt",
        "a/../../outside/escape.txt",
        "../root_evil/escape.txt",
        "new/x/../../../outside/escape.txt",
        "link_out/escape.txt",
        "link_out/new/dir/escape.txt",
        "link_out_file",
        "dangling_out",
        "@../outside/escape.txt",
    ],
)
def test_a_write_that_resolves_outside_the_root_is_rejected_and_creates_nothing(
    box: Box, path: str
) -> None:
    link_farm(box)
    before = box.outside_state()
    answer = box.call("write_file", path=path, content="pwned")
    assert answer["error"] == "OUTSIDE_ROOT", answer
    assert box.outside_state() == before
    assert not (box.root / "new").exists()


def test_an_absolute_path_outside_the_root_is_rejected_without_echoing_it(box: Box) -> None:
    target = box.outside / "secret.txt"
    answer = box.call("write_file", path=str(target), content="pwned")
    assert answer["error"] == "OUTSIDE_ROOT"
    assert str(box.outside) not in answer["data"]
    assert target.read_text() == f"{SECRET}\n"


@pytest.mark.parametrize("path", ["link_out/secret.txt", "link_out_file", "../outside/secret.txt"])
def test_reading_through_any_route_out_of_the_root_reveals_nothing(box: Box, path: str) -> None:
    link_farm(box)
    answer = box.call("read_file", path=path)
    assert answer["error"] == "OUTSIDE_ROOT"
    assert SECRET not in answer["data"]


def test_an_absolute_path_inside_the_root_means_the_same_file(box: Box) -> None:
    box.write("a.txt", "same\n")
    answer = box.call("read_file", path=str(box.root / "a.txt"))
    assert answer["success"] and "same" in answer["data"]


def test_a_child_named_dotdot_cache_is_inside_the_root(box: Box) -> None:
    answer = box.call("write_file", path="..cache/x.txt", content="ok")
    assert answer["success"], answer
    assert box.read("..cache/x.txt") == b"ok"


def test_tilde_is_a_folder_name_and_home_is_never_touched(box: Box) -> None:
    answer = box.call("write_file", path="~/notes.txt", content="literal")
    assert answer["success"], answer
    assert box.read("~/notes.txt") == b"literal"


def test_a_mention_marker_is_stripped_before_resolution(box: Box) -> None:
    box.write("a.txt", "mentioned\n")
    answer = box.call("read_file", path="@a.txt")
    assert answer["success"] and "mentioned" in answer["data"]


@pytest.mark.parametrize("tool", ["read_file", "write_file", "list_files"])
def test_a_nul_byte_in_a_path_is_a_failure_envelope(box: Box, tool: str) -> None:
    arguments = {"path": "a\x00b.txt"}
    if tool == "write_file":
        arguments["content"] = "x"
    answer = box.call_raw(tool, arguments)
    assert answer["success"] is False and answer["error"] == "INVALID_ARGS"
    assert answer["issues"][0]["path"] == "$.path"
    assert list(box.root.iterdir()) == []


def test_links_inside_the_root_can_be_read_through(box: Box) -> None:
    link_farm(box)
    assert "inner" in box.call("read_file", path="link_in_file")["data"]
    assert "inner" in box.call("read_file", path="link_in/inner.txt")["data"]


def test_a_write_through_a_link_inside_the_root_changes_the_target_and_keeps_the_link(
    box: Box,
) -> None:
    link_farm(box)
    box.read_first("link_in_file")
    answer = box.call("write_file", path="link_in_file", content="new\n")
    assert answer["success"], answer
    assert (box.root / "link_in_file").is_symlink()
    assert box.read("sub/inner.txt") == b"new\n"


def test_a_dangling_link_inside_the_root_is_not_written_through(box: Box) -> None:
    os.symlink("nowhere.txt", box.root / "dangling_in")
    answer = box.call("write_file", path="dangling_in", content="x")
    assert answer["error"] == "PERMISSION_DENIED"
    assert answer["denial"]["source"] == "policy"
    assert not (box.root / "nowhere.txt").exists()


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("read_file", {"path": "loop_a"}),
        ("write_file", {"path": "loop_a", "content": "x"}),
        ("write_file", {"path": "loop_a/new.txt", "content": "x"}),
        ("list_files", {"path": "loop_b"}),
    ],
)
def test_a_link_loop_is_a_failure_envelope(box: Box, tool: str, arguments: dict[str, str]) -> None:
    link_farm(box)
    answer = box.call_raw(tool, arguments)
    assert answer["success"] is False
    assert answer["error"] == "IO_ERROR" and "loop" in answer["data"]
    assert (box.root / "loop_a").is_symlink()


def test_a_file_used_as_a_folder_is_not_a_directory(box: Box) -> None:
    box.write("a.txt", "x")
    answer = box.call("write_file", path="a.txt/b.txt", content="y")
    assert answer["error"] == "NOT_A_DIRECTORY"


def test_listing_never_follows_a_link_out_of_the_root(box: Box) -> None:
    link_farm(box)
    answer = box.call("list_files")
    assert answer["success"]
    assert "link_out" in answer["data"].split("\n")
    assert "secret.txt" not in answer["data"]


@pytest.mark.parametrize("tool", ["list_files", "read_file"])
def test_naming_a_folder_outside_is_rejected(box: Box, tool: str) -> None:
    answer = box.call(tool, path="../outside")
    assert answer["error"] == "OUTSIDE_ROOT"
    assert "secret" not in answer["data"]


def test_write_roots_narrow_where_writes_may_land_but_not_reads(tmp_path: Path) -> None:
    from agentconf.contract import Workspace
    from agentconf.reference import create

    root = tmp_path / "root"
    (root / "out").mkdir(parents=True)
    (root / "docs.txt").write_text("readable\n")
    system = create(Workspace(root=root, write_roots=(root / "out",)))
    import asyncio

    denied = asyncio.run(system.call_tool("write_file", {"path": "docs2.txt", "content": "x"}))
    allowed = asyncio.run(system.call_tool("write_file", {"path": "out/a.txt", "content": "x"}))
    read = asyncio.run(system.call_tool("read_file", {"path": "docs.txt"}))
    assert denied["error"] == "OUTSIDE_ROOT" and not (root / "docs2.txt").exists()
    assert allowed["success"] and read["success"]


def test_a_lone_surrogate_in_a_path_is_invalid_not_a_crash(box: Box) -> None:
    answer = box.call("read_file", path="bad\ud800name")
    assert answer["error"] == "INVALID_ARGS" and answer["issues"][0]["path"] == "$.path"


def test_a_name_too_long_for_the_file_system_is_a_failure_envelope(box: Box) -> None:
    answer = box.call("write_file", path="x" * 300 + "/f.txt", content="x")
    assert answer["error"] == "IO_ERROR" and "too long" in answer["data"]


def test_dot_components_are_harmless(box: Box) -> None:
    box.write("a.txt", "dots\n")
    assert "dots" in box.call("read_file", path="./././a.txt")["data"]
