"""CONFINE: every path is resolved and confined to the root by one resolver (dskcode,
@clarvis/agent-tools).

Judged on the disk: the oracle compares everything outside the root after every call and scans
each answer for the canaries' secret; the tests add the specific code and "nothing changed inside".
No argument ever carries the secret itself, so an implementation that echoes its arguments back
is never mistaken for one that leaked.
"""

import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _checks import (
    refused,
    rejected_as_outside,
    took_effect,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.harness.cases.judged import false_success_under_missing_folders
from agentconf.harness.session.arguments import AsGiven
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.strategies import hostile_paths

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)

PathOf = Callable[[Any], str]


def _reveals_nothing(ws: Any, result: Any) -> None:
    assert ws.secret not in result.data, result.evidence()
    for canary in ("outside secret", "sibling-prefix", "ssh-ed25519"):
        assert canary not in result.data, result.evidence()


# ---------------------------------------------------------------- CONFINE-01 `..`

DOTDOT_WRITES = [
    "../escape.txt",
    "./../escape.txt",
    "../outside/secret.txt",
    "../outside/new.txt",
    "../home/.ssh/authorized_keys",
    "..//escape.txt",
    "../root/../escape.txt",
]


@pytest.mark.clause("CONFINE-01")
@pytest.mark.parametrize("path", DOTDOT_WRITES)
def test_a_relative_path_that_climbs_out_is_rejected(ws, client, path: str) -> None:
    before = ws.tree()
    rejected_as_outside(client, client.call("write_file", path=path, content="escaped"))
    assert not (ws.sandbox / "escape.txt").exists()
    assert ws.tree() == before


# ---------------------------------------------------------------- CONFINE-02 absolute outside

ABSOLUTE_OUTSIDE: list[tuple[str, PathOf]] = [
    ("outside-new", lambda ws: str(ws.outside / "new.txt")),
    ("outside-secret", lambda ws: str(ws.outside / "secret.txt")),
    ("authorized-keys", lambda ws: str(ws.home / ".ssh" / "authorized_keys")),
    ("sandbox", lambda ws: str(ws.sandbox / "escape.txt")),
    ("double-slash", lambda ws: "/" + str(ws.outside / "new.txt")),
    ("root-then-up", lambda ws: str(ws.root) + "/../escape.txt"),
]


@pytest.mark.clause("CONFINE-02")
@pytest.mark.parametrize("path_of", [p for _, p in ABSOLUTE_OUTSIDE],
                         ids=[name for name, _ in ABSOLUTE_OUTSIDE])
def test_an_absolute_path_outside_the_root_is_rejected(ws, client, path_of: PathOf) -> None:
    before = ws.tree()
    path = path_of(ws)
    rejected_as_outside(client, client.call("write_file", path=path, content="escaped"))
    if not client.judged_virtually(path):  # else it may land inside, at root/<path>
        assert ws.tree() == before


# ---------------------------------------------------------------- CONFINE-03 `~`

@pytest.mark.clause("CONFINE-03")
@pytest.mark.parametrize("path", ["~/.ssh/authorized_keys", "~/.bashrc", "~/new.txt"])
def test_tilde_is_a_literal_folder_name_never_the_home_directory(ws, client, path: str) -> None:
    result = client.call("write_file", path=AsGiven(path), content="planted")
    # Writing into a folder literally called `~` is right; refusing is safe. Home is untouched
    # either way: the oracle checks that after every call.
    if result.success and not _in_a_tilde_folder_of_the_root(ws, client, path):
        false_success_under_missing_folders(ws, client)
        pytest.fail(f"the write answered success and {path} is not in the root\n"
                    + result.evidence())


def _in_a_tilde_folder_of_the_root(ws, client, path: str) -> bool:
    """`path`, sent as a model types it, landed in the root: at root/<path>, or, where the
    profile sends the root's paths absolute, under any folder of the root (what a relative
    path means to such an implementation is its own; that `~` stayed a name is this clause's)."""
    if ws.exists(path):
        return ws.read_bytes(path) == b"planted"
    if not (client.profile.absolute_paths or client.profile.virtual_absolute_paths):
        return False
    return any(found.as_posix().endswith("/" + path) and found.read_bytes() == b"planted"
               for found in ws.root.rglob(Path(path).name) if found.is_file())


@pytest.mark.clause("CONFINE-03")
@pytest.mark.requires("read_file")
def test_reading_tilde_paths_never_reads_the_home_directory(ws, client) -> None:
    result = client.call("read_file", path=AsGiven("~/.ssh/authorized_keys"))
    _reveals_nothing(ws, result)
    ws.write("~/.ssh/authorized_keys", "literal tilde folder\n")
    result = client.call("read_file", path="~/.ssh/authorized_keys")
    assert result.success, result.evidence()
    assert "literal tilde folder" in result.data, result.evidence()


# ---------------------------------------------------------------- CONFINE-04 sibling prefix

SIBLING_PATHS: list[tuple[str, PathOf]] = [
    ("absolute-new", lambda ws: str(ws.sibling / "new.txt")),
    ("absolute-existing", lambda ws: str(ws.sibling / "a.txt")),
    ("relative", lambda ws: f"../{ws.sibling.name}/new.txt"),
    ("root-string-prefix", lambda ws: str(ws.root) + "_evil/new.txt"),
]


@pytest.mark.clause("CONFINE-04")
@pytest.mark.parametrize("path_of", [p for _, p in SIBLING_PATHS],
                         ids=[name for name, _ in SIBLING_PATHS])
def test_a_sibling_folder_sharing_the_roots_prefix_is_outside(ws, client, path_of) -> None:
    rejected_as_outside(client, client.call("write_file", path=path_of(ws), content="escaped"))


@pytest.mark.clause("CONFINE-04")
@pytest.mark.requires("read_file", "confine_reads")
def test_reading_from_the_sibling_prefix_folder_is_rejected(ws, client) -> None:
    result = client.call("read_file", path=str(ws.sibling / "secret.txt"))
    rejected_as_outside(client, result)
    _reveals_nothing(ws, result)


# ---------------------------------------------------------------- CONFINE-05 inside then out

@pytest.mark.clause("CONFINE-05")
@pytest.mark.parametrize(
    "path", ["a/../../escape.txt", "sub/./../../escape.txt", "a/b/../../../escape.txt",
             "sub/../sub/../../escape.txt", "./sub/../../outside/new.txt"],
)
@pytest.mark.parametrize("existing", [True, False], ids=["folders-exist", "folders-missing"])
def test_a_path_that_normalises_inside_then_out_is_rejected(ws, client, path, existing) -> None:
    if existing:
        ws.mkdir("a/b")
        ws.mkdir("sub")
    before = ws.tree()
    rejected_as_outside(client, client.call("write_file", path=path, content="escaped"))
    assert not (ws.sandbox / "escape.txt").exists()
    assert ws.tree() == before


# ---------------------------------------------------------------- CONFINE-06 `@` mentions

@pytest.mark.clause("CONFINE-06")
def test_a_leading_at_sign_is_stripped_before_reading(ws, client) -> None:
    ws.write("a.txt", "mentioned file\n")
    result = client.call("read_file", path="@a.txt")
    assert result.success, result.evidence()
    assert "mentioned file" in result.data, result.evidence()


@pytest.mark.clause("CONFINE-06")
@pytest.mark.requires("write_file")
def test_a_leading_at_sign_is_stripped_before_writing(ws, client) -> None:
    result = client.call("write_file", path="@new.txt", content="via mention")
    assert result.success, result.evidence()
    assert ws.read_bytes("new.txt") == b"via mention"
    assert not ws.exists("@new.txt")


@pytest.mark.clause("CONFINE-06")
@pytest.mark.requires("confine_reads")
@pytest.mark.parametrize("path_of", [
    lambda ws: "@../outside/secret.txt",
    lambda ws: "@" + str(ws.outside / "secret.txt"),
    lambda ws: f"@../{ws.sibling.name}/secret.txt",
], ids=["relative", "absolute", "sibling"])
def test_a_stripped_mention_is_confined_like_any_path(ws, client, path_of: PathOf) -> None:
    result = client.call("read_file", path=path_of(ws))
    rejected_as_outside(client, result)
    _reveals_nothing(ws, result)


@pytest.mark.clause("CONFINE-06")
@pytest.mark.requires("write_file")
def test_a_mention_that_climbs_out_is_not_written(ws, client) -> None:
    rejected_as_outside(client, client.call("write_file", path="@../escape.txt", content="escaped"))


# ---------------------------------------------------------------- CONFINE-07 NUL

@pytest.mark.clause("CONFINE-07")
@pytest.mark.parametrize("path", ["a\x00b.txt", "new.txt\x00.png", "\x00", "sub/\x00/x.txt"])
def test_a_path_with_a_nul_byte_is_rejected_and_nothing_is_created(ws, client, path) -> None:
    before = ws.tree()
    refused(client.call("write_file", path=path, content="nul"))
    assert ws.tree() == before


@pytest.mark.clause("CONFINE-07")
@pytest.mark.requires("read_file")
def test_a_nul_byte_in_a_read_path_reads_nothing(ws, client) -> None:
    ws.write("a.txt", "must not be read\n")
    result = client.call("read_file", path="a.txt\x00.png")
    refused(result)
    assert "must not be read" not in result.data, result.evidence()


# ---------------------------------------------------------------- CONFINE-08 reads outside

READ_OUTSIDE: list[tuple[str, PathOf]] = [
    ("relative", lambda ws: "../outside/secret.txt"),
    ("absolute", lambda ws: str(ws.outside / "secret.txt")),
    ("home", lambda ws: str(ws.home / ".ssh" / "authorized_keys")),
    ("inside-then-out", lambda ws: "sub/../../outside/notes.md"),
    ("nested", lambda ws: "../outside/dir/nested.txt"),
]


@pytest.mark.clause("CONFINE-08")
@pytest.mark.parametrize("path_of", [p for _, p in READ_OUTSIDE],
                         ids=[name for name, _ in READ_OUTSIDE])
def test_reading_outside_the_root_is_rejected_and_reveals_nothing(ws, client, path_of) -> None:
    result = client.call("read_file", path=path_of(ws))
    rejected_as_outside(client, result)
    _reveals_nothing(ws, result)


# ---------------------------------------------------------------- CONFINE-09 `..name`

@pytest.mark.clause("CONFINE-09")
@pytest.mark.parametrize(
    "path", ["..cache", "..cache/data.txt", "...", "a/..b/c.txt", "..hidden/x.txt"]
)
def test_a_name_that_merely_starts_with_two_dots_is_inside(ws, client, path: str) -> None:
    if "/" in path:  # the folder exists, so the check does not lean on create_parents
        ws.mkdir(path.rsplit("/", 1)[0])
    written = client.call("write_file", path=path, content="dotted")
    assert written.success, written.evidence()
    assert ws.read_bytes(path) == b"dotted"
    read = client.call("read_file", path=path)
    assert read.success, read.evidence()
    assert "dotted" in read.data, read.evidence()


# ---------------------------------------------------------------- CONFINE-10 absolute inside

@pytest.mark.clause("CONFINE-10")
def test_an_absolute_path_inside_the_root_means_the_same_file(ws, client) -> None:
    written = client.call("write_file", path=str(ws.root / "abs.txt"), content="absolute")
    assert written.success, written.evidence()
    # The same file as its relative form; a final newline a write adds is EOL-08's.
    assert ws.read_bytes("abs.txt").rstrip(b"\r\n") == b"absolute"
    read = client.call("read_file", path="abs.txt")
    assert read.success and "absolute" in read.data, read.evidence()


@pytest.mark.clause("CONFINE-10")
def test_an_absolute_path_reads_what_the_relative_path_wrote(ws, client) -> None:
    ws.mkdir("sub")
    written = client.call("write_file", path="sub/rel.txt", content="relative")
    assert written.success, written.evidence()
    read = client.call("read_file", path=str(ws.root / "sub" / "rel.txt"))
    assert read.success and "relative" in read.data, read.evidence()


@pytest.mark.clause("CONFINE-10")
@pytest.mark.requires("list_files")
@pytest.mark.parametrize("slash", ["", "/"], ids=["absolute", "absolute-slash"])
def test_the_roots_absolute_path_lists_what_its_relative_form_lists(ws, client, slash) -> None:
    ws.write("visible-at-root.txt", "x")
    relative = client.call("list_files", path=".")
    if not (relative.success and "visible-at-root.txt" in relative.data):
        not_applicable("the root is not listed as `.`: CONFINE-15's matter, not its absolute path")
    result = client.call("list_files", path=str(ws.root) + slash)
    assert result.success, result.evidence()
    assert "visible-at-root.txt" in result.data, result.evidence()


# ---------------------------------------------------------------- CONFINE-11 missing then out

@pytest.mark.clause("CONFINE-11")
@pytest.mark.parametrize("path", ["new/x/../../../evil.txt", "new/../../evil.txt",
                                  "n1/n2/n3/../../../../evil.txt"])
def test_missing_folders_then_dotdot_out_are_rejected_and_create_nothing(ws, client, path) -> None:
    before = ws.tree()
    rejected_as_outside(client, client.call("write_file", path=path, content="escaped"))
    assert ws.tree() == before, "folders were created on the way"
    assert not (ws.sandbox / "evil.txt").exists()


# ---------------------------------------------------------------- CONFINE-12 edit outside

@pytest.mark.clause("CONFINE-12")
@pytest.mark.parametrize("path_of", [
    lambda ws: "../outside/secret.txt",
    lambda ws: str(ws.outside / "secret.txt"),
    lambda ws: f"../{ws.sibling.name}/secret.txt",
], ids=["relative", "absolute", "sibling"])
def test_edit_file_never_changes_a_file_outside(ws, client, path_of: PathOf) -> None:
    if client.has("read_file") and client.has("confine_reads"):
        client.prime(path_of(ws))
    # A text every canary file holds once (the sibling's says "sibling-prefix", not "secret"):
    # an edit that reaches the file changes it, and the disk oracle sees the escape.
    result = client.call("edit_file", path=path_of(ws), old_text="agentconf-canary-",
                         new_text="edited-")
    rejected_as_outside(client, result)


# ---------------------------------------------------------------- CONFINE-13 list and grep

@pytest.mark.clause("CONFINE-13")
@pytest.mark.requires("list_files")
@pytest.mark.parametrize("path_of", [
    lambda ws: "..",
    lambda ws: "../outside",
    lambda ws: str(ws.outside),
    lambda ws: str(ws.home / ".ssh"),
    lambda ws: str(ws.sibling),
], ids=["parent", "relative", "absolute", "home", "sibling"])
def test_listing_outside_the_root_is_rejected_and_reveals_nothing(ws, client, path_of) -> None:
    path = path_of(ws)
    result = client.call("list_files", path=path)
    rejected_as_outside(client, result)
    revealed = result.data.replace(path, "<REQUESTED>")
    for name in ("secret.txt", "notes.md", "authorized_keys", "nested.txt"):
        assert name not in revealed, result.evidence()


@pytest.mark.clause("CONFINE-13")
@pytest.mark.requires("grep")
@pytest.mark.parametrize("path_of", [
    lambda ws: "..",
    lambda ws: "../outside",
    lambda ws: str(ws.outside / "secret.txt"),
    lambda ws: str(ws.home),
], ids=["parent", "relative", "absolute-file", "home"])
def test_grep_outside_the_root_is_rejected_and_reveals_nothing(ws, client, path_of) -> None:
    # The pattern is the secret's fixed prefix, so an echo of the pattern is not a leak.
    path = path_of(ws)
    result = client.call("grep", pattern="agentconf-canary-", path=path)
    rejected_as_outside(client, result)
    # Quoting the requested path back is not a leak; naming anything else found there is.
    revealed = result.data.replace(path, "<REQUESTED>")
    for name in ("secret.txt", "notes.md", "authorized_keys"):
        assert name not in revealed, result.evidence()


@pytest.mark.clause("CONFINE-13")
@pytest.mark.requires("grep", "grep_include")
@pytest.mark.parametrize("include_of", [
    lambda ws: "../outside/*",
    lambda ws: "../**/secret.txt",
    lambda ws: f"{ws.outside}/*",
    lambda ws: "../home/.ssh/*",
], ids=["relative", "double-star", "absolute", "home"])
def test_an_include_glob_that_leaves_the_root_reveals_nothing(ws, client, include_of) -> None:
    """An include is a path too: a glob that climbs out of the root must find nothing there
    (refused, or no match), whatever the search path. The oracle scans the answer for the
    canaries' secret; the names of the files outside must not come back either."""
    ws.write("inside.txt", "agentconf-canary- a line inside\n")
    include = include_of(ws)
    result = client.call("grep", pattern="agentconf-canary-", include=include)
    revealed = result.data.replace(include, "<REQUESTED>")
    for name in ("secret.txt", "notes.md", "authorized_keys"):
        assert name not in revealed, result.evidence()


# ---------------------------------------------------------------- CONFINE-14 the property

_TOKENS = itertools.count()


def _hostile(ws: Any) -> st.SearchStrategy[str]:
    return hostile_paths(ws.root, outside=ws.outside, home=ws.home, sibling=ws.sibling,
                         beyond=ws.outer)


@pytest.mark.clause("CONFINE-14")
@PROPERTY
@given(data=st.data())
def test_no_sequence_of_calls_with_hostile_paths_changes_anything_outside(ws, client, data) -> None:
    # Every example starts from the canaries as they were: an escape of an earlier example
    # must not fail this one, or the example reported (the shrunk one) would not escape alone.
    ws.oracle.restore()
    if not ws.exists("sub"):
        ws.link_farm()
        ws.write("a.txt", "alpha\n")
    tools = ["write_file"] + [
        tool for tool in ("edit_file", "read_file", "list_files", "grep") if client.has(tool)
    ]
    if not client.has("confine_reads"):
        tools = [tool for tool in tools if tool in ("write_file", "edit_file")]
    steps = data.draw(st.lists(st.tuples(st.sampled_from(tools), _hostile(ws)), min_size=1,
                               max_size=4), label="calls")
    for tool, path in steps:
        # The oracle judges the disk and the answer after each call; an escape raises there.
        if tool == "write_file":
            client.call(tool, path=path, content="hostile write\n")
        elif tool == "edit_file":
            client.call(tool, path=path, old_text="secret", new_text="hostile edit")
        elif tool == "grep":
            client.call(tool, pattern="agentconf-canary-", path=path)
        else:
            client.call(tool, path=path)


@pytest.mark.clause("CONFINE-14")
@PROPERTY
@given(data=st.data())
def test_a_hostile_path_that_is_accepted_lands_inside_the_root(ws, client, data) -> None:
    ws.oracle.restore()  # as above: each example alone
    path = data.draw(_hostile(ws), label="path")
    token = f"planted-{next(_TOKENS)}".encode()
    result = client.call("write_file", path=path, content=token.decode())
    if took_effect(result):
        # os.walk does not follow links: only files really under the root count.
        landed = [
            Path(folder, name)
            for folder, _, names in os.walk(ws.root)
            for name in names
            if Path(folder, name).is_file() and not Path(folder, name).is_symlink()
            and Path(folder, name).read_bytes() == token
        ]
        assert landed, f"{path!r} was accepted but no file under the root holds what it wrote"


# ---------------------------------------------------------------- CONFINE-15 the root itself

@pytest.mark.clause("CONFINE-15")
@pytest.mark.parametrize("path_of", [lambda ws: ".", lambda ws: "./", None],
                         ids=["dot", "dot-slash", "omitted"])
def test_the_root_itself_is_a_valid_folder_to_list(ws, client, path_of: PathOf | None) -> None:
    ws.write("visible-at-root.txt", "x")
    if path_of is None:
        mapping = client.profile.tool("list_files")
        if (target := mapping.target("path")) in mapping.defaults:
            not_applicable(f"not judged: the profile sends {target} = "
                           f"{mapping.defaults[target]!r} where the path is left out "
                           "([tools.list_files].defaults): no call of it leaves the path out")
        result = client.call("list_files")
    else:
        result = client.call("list_files", path=path_of(ws))
    assert result.success, result.evidence()
    assert "visible-at-root.txt" in result.data, result.evidence()
