"""SYMLINK: confinement judges where a path really lands, links followed (dskcode, Claude Code,
@clarvis/agent-tools).

Every test builds the standard link farm (`ws.link_farm()`): `link_out` -> outside/,
`link_out_file` -> outside/secret.txt, `link_in` -> sub/, `link_in_file` -> sub/inner.txt,
`dangling_out` -> outside/created_by_escape.txt, `loop_a` <-> `loop_b`.
"""

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _checks import (
    refused,
    rejected_through_a_link,
    took_effect,
)

from agentconf.harness.cases.judged import false_success_under_missing_folders
from agentconf.harness.verdicts.errors import Finding, ImplementationFailure, not_applicable

OUTSIDE_NAMES = ("secret.txt", "notes.md", "crlf.txt", "nested.txt")


def _reveals_nothing(ws: Any, result: Any) -> None:
    assert ws.secret not in result.data, result.evidence()
    assert "outside secret" not in result.data, result.evidence()


def _only_behind(links: dict[str, Any]) -> list[str]:
    """The outside names a listing can show only by descending into `link_out`: a listing may
    name where a file link points (`link_out_file -> …/outside/secret.txt`), which is no descent."""
    targets = {Path(os.readlink(link)).name for link in links.values()}
    return [name for name in OUTSIDE_NAMES if name not in targets]


def _promptly(call: Callable[[], Any], what: str) -> Any:
    """A hang (killed by the client's call timeout) or a crash is the violation being checked."""
    try:
        return call()
    except ImplementationFailure as failure:
        pytest.fail(f"{what} did not answer with an envelope: {failure}")


@pytest.mark.clause("SYMLINK-01")
@pytest.mark.parametrize("path", ["link_out_file", "./link_out_file", "sub/../link_out_file"])
def test_writing_through_a_file_link_out_is_rejected(ws, client, path: str) -> None:
    ws.link_farm()
    before = ws.tree()
    rejected_through_a_link(client.call("write_file", path=path, content="overwritten"))
    assert ws.tree() == before


@pytest.mark.clause("SYMLINK-02")
@pytest.mark.parametrize("path", ["link_out/new.txt", "link_out/secret.txt", "link_out/dir/x.txt"])
def test_writing_through_a_folder_link_out_in_the_middle_is_rejected(ws, client, path) -> None:
    ws.link_farm()
    before = ws.tree()
    # Its folders are missing too: a write that never makes them refuses them as truly, in
    # whichever order it checks (NOT_FOUND), and the disk shows nothing was made.
    missing = () if client.has("create_parents") else ("NOT_FOUND",)
    rejected_through_a_link(client.call("write_file", path=path, content="escaped"), *missing)
    assert ws.tree() == before


@pytest.mark.clause("SYMLINK-02")
@pytest.mark.requires("read_file", "confine_reads")
@pytest.mark.parametrize("path", ["link_out/secret.txt", "link_out/dir/nested.txt",
                                  "link_in/../link_out/notes.md"])
def test_reading_through_a_folder_link_out_in_the_middle_is_rejected(ws, client, path) -> None:
    ws.link_farm()
    result = client.call("read_file", path=path)
    rejected_through_a_link(result)
    _reveals_nothing(ws, result)


@pytest.mark.clause("SYMLINK-03")
@pytest.mark.parametrize("path", ["link_out/new/dir/f.txt", "link_out/a/b/c/d.txt"])
def test_a_link_out_followed_by_missing_folders_is_rejected(ws, client, path: str) -> None:
    ws.link_farm()
    before = ws.tree()
    # Its folders are missing too: a write that never makes them refuses them as truly, in
    # whichever order it checks (NOT_FOUND), and the disk shows nothing was made.
    missing = () if client.has("create_parents") else ("NOT_FOUND",)
    rejected_through_a_link(client.call("write_file", path=path, content="escaped"), *missing)
    assert ws.tree() == before


@pytest.mark.clause("SYMLINK-04")
@pytest.mark.parametrize("path", ["dangling_out", "./dangling_out"])
def test_a_dangling_link_out_is_not_a_write_target(ws, client, path: str) -> None:
    ws.link_farm()
    # The clause is about the disk: any failure will do, so long as nothing appears outside; so
    # does a success that replaced the link itself with a regular file in the root (a write to
    # a temporary file renamed over the path does so).
    result = client.call("write_file", path=path, content="created through a link")
    assert not (ws.outside / "created_by_escape.txt").exists()
    if took_effect(result):
        written = ws.root / "dangling_out"
        assert not written.is_symlink() and written.read_text() == "created through a link", (
            "the write answered success, yet the link was neither refused nor replaced\n"
            + result.evidence())


@pytest.mark.clause("SYMLINK-04")
def test_a_dangling_link_to_a_missing_folder_out_is_not_a_write_target(ws, client) -> None:
    ws.symlink("gone_out", ws.outside / "missing_dir")
    result = client.call("write_file", path="gone_out/new.txt", content="escaped")
    assert not (ws.outside / "missing_dir").exists()
    if result.success and not ws.exists("gone_out/new.txt"):
        # Nothing outside, nothing in the root: a false success, not a link followed.
        false_success_under_missing_folders(ws, client)
    if not (result.success and (ws.root / "gone_out").is_dir() and not (
            ws.root / "gone_out").is_symlink()):  # else the link replaced by a folder of the root
        refused(result)


LOOP_CALLS = [
    pytest.param("read_file", {"path": "loop_a"}, id="read"),
    pytest.param("read_file", {"path": "loop_a/x.txt"}, id="read-through"),
    pytest.param("write_file", {"path": "loop_b", "content": "x"},
                 marks=pytest.mark.requires("write_file"), id="write"),
    pytest.param("write_file", {"path": "loop_a/new.txt", "content": "x"},
                 marks=pytest.mark.requires("write_file"), id="write-through"),
    pytest.param("list_files", {"path": "loop_a"},
                 marks=pytest.mark.requires("list_files"), id="list"),
    pytest.param("edit_file", {"path": "loop_a", "old_text": "a", "new_text": "b"},
                 marks=pytest.mark.requires("edit_file"), id="edit"),
]


@pytest.mark.clause("SYMLINK-05")
@pytest.mark.parametrize(("tool", "arguments"), LOOP_CALLS)
def test_a_link_loop_answers_a_failure_promptly(ws, client, tool: str, arguments) -> None:
    ws.link_farm()
    result = _promptly(lambda: client.call(tool, **arguments), f"{tool} on a link loop")
    refused(result)


@pytest.mark.clause("SYMLINK-05")
@pytest.mark.requires("list_files")
def test_listing_a_folder_holding_a_loop_answers_promptly(ws, client) -> None:
    ws.link_farm()
    ws.write("plain.txt", "x")
    result = _promptly(lambda: client.call("list_files", path="."), "list_files beside a loop")
    assert "plain.txt" in result.data or not result.success, result.evidence()


@pytest.mark.clause("SYMLINK-06")
@pytest.mark.parametrize("pattern", [None, "*", "**/*", "**/*.txt", "link_out/*"])
def test_a_listing_never_shows_what_is_inside_a_folder_link_out(ws, client, pattern) -> None:
    links = ws.link_farm()
    arguments = {"path": "."} if pattern is None else {"path": ".", "pattern": pattern}
    result = client.call("list_files", **arguments)
    for name in _only_behind(links):
        assert name not in result.data, result.evidence()


@pytest.mark.clause("SYMLINK-06")
@pytest.mark.requires("confine_reads")
def test_listing_a_folder_link_out_is_rejected(ws, client) -> None:
    ws.link_farm()
    result = client.call("list_files", path="link_out")
    rejected_through_a_link(result)
    for name in OUTSIDE_NAMES:
        assert name not in result.data, result.evidence()


@pytest.mark.clause("SYMLINK-07")
@pytest.mark.parametrize("path", [None, ".", "link_in"])
def test_grep_never_reports_a_match_from_outside(ws, client, path: str | None) -> None:
    ws.link_farm()
    ws.write("sub/own.txt", "agentconf-canary- inside the root\n")
    arguments = {"pattern": "agentconf-canary-"} if path is None else {
        "pattern": "agentconf-canary-", "path": path}
    result = client.call("grep", **arguments)
    for name in OUTSIDE_NAMES:
        assert name not in result.data, result.evidence()
    # An outside name's absence means something only where the search ran and found the file
    # inside it must find. Where it did not, that is no escape: one through a link inside
    # (link_in) is SYMLINK-08's; a search of the root that misses a match is SYMLINK-05's where
    # the same search finds it once the link loop is gone (the loop failed the whole search),
    # else GREP-01's.
    if not took_effect(result) or "own.txt" not in result.data:
        if path == "link_in":
            said = " ".join(result.data.split())[:120]
            not_applicable(f"not judged: the search through a link inside the root found not "
                           f"the file it leads to ({said!r}): SYMLINK-08's, no escape")
        for loop in ("loop_a", "loop_b"):
            (ws.root / loop).unlink(missing_ok=True)
        without = client.call("grep", **arguments)
        if took_effect(without) and "own.txt" in without.data:
            raise Finding("a link loop in the root failed a whole search, which finds sub/own.txt "
                          "once the loop is gone\n" + result.evidence(),
                          clause="SYMLINK-05", owners=("SYMLINK-05",))
        raise Finding("a search of the root did not report sub/own.txt's matching line\n"
                      + result.evidence(), clause="GREP-01", owners=("GREP-01",))


@pytest.mark.clause("SYMLINK-07")
@pytest.mark.parametrize("path", ["link_out", "link_out_file"])
def test_grep_through_a_link_out_finds_nothing_outside(ws, client, path: str) -> None:
    ws.link_farm()
    result = client.call("grep", pattern="outside secret", path=path)
    # Refusing the path is right, whatever its code says (a file link refused as no folder
    # reveals nothing either); so is finding nothing. Showing the line is the escape.
    if took_effect(result):
        assert "secret.txt" not in result.data, result.evidence()
    else:
        refused(result)
        _reveals_nothing(ws, result)


@pytest.mark.clause("SYMLINK-08")
@pytest.mark.parametrize("path", ["link_in_file", "link_in/inner.txt"])
def test_a_link_inside_the_root_to_inside_can_be_read(ws, client, path: str) -> None:
    ws.link_farm()
    result = client.call("read_file", path=path)
    assert result.success, result.evidence()
    assert "inner" in result.data, result.evidence()


@pytest.mark.clause("SYMLINK-09")
@pytest.mark.parametrize("path", ["link_out_file", "./link_out_file", "link_in/../link_out_file"])
def test_reading_through_a_file_link_out_is_rejected(ws, client, path: str) -> None:
    ws.link_farm()
    result = client.call("read_file", path=path)
    rejected_through_a_link(result)
    _reveals_nothing(ws, result)


@pytest.mark.clause("SYMLINK-10")
@pytest.mark.parametrize(
    ("path", "old_text"),
    [("link_out_file", "outside secret"), ("link_out/secret.txt", "outside secret"),
     ("link_out/crlf.txt", "line one")],
)
def test_editing_through_a_link_out_is_rejected(ws, client, path: str, old_text: str) -> None:
    ws.link_farm()
    if client.has("read_file") and client.has("confine_reads"):
        client.prime(path)
    before = ws.tree()
    rejected_through_a_link(
        client.call("edit_file", path=path, old_text=old_text, new_text="edited"))
    assert ws.tree() == before


DANGLING_IN = [
    pytest.param("dangling_in", "made_by_link.txt", "dangling_in", id="file-beside"),
    pytest.param("dangling_in", "sub/deeper/made_by_link.txt", "dangling_in",
                 id="file-in-missing-folders"),
    pytest.param("gone_in", "missing_dir", "gone_in/new.txt", id="missing-folder"),
]


@pytest.mark.clause("SYMLINK-11")
@pytest.mark.parametrize(("link", "target", "path"), DANGLING_IN)
def test_a_write_through_a_dangling_link_inside_fails_cleanly_or_lands(
    ws, client, link: str, target: str, path: str
) -> None:
    ws.write("keep.txt", "kept\n")
    ws.symlink(link, target)
    before = ws.tree()
    result = client.call("write_file", path=path, content="written through a link\n")
    if not took_effect(result):
        assert ws.tree() == before, result.evidence()
        return
    assert ws.read_bytes(path) == b"written through a link\n", result.evidence()
    assert ws.read_bytes("keep.txt") == b"kept\n"


@pytest.mark.clause("SYMLINK-11")
def test_a_write_through_an_absolute_dangling_link_inside_fails_cleanly_or_lands(
    ws, client
) -> None:
    ws.symlink("dangling_abs", ws.root / "made_by_absolute_link.txt")
    before = ws.tree()
    result = client.call("write_file", path="dangling_abs", content="absolute\n")
    if not took_effect(result):
        assert ws.tree() == before, result.evidence()
        return
    assert ws.read_bytes("dangling_abs") == b"absolute\n", result.evidence()
