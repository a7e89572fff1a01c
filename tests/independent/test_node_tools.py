"""What the Node example's tools do, judged on a real disk: codes, bytes, links, processes.

These are the example's own behaviour checks, written from the contract's clauses; the
conformance suites (`agentconf run`) are the authority, these catch regressions fast.
"""

import os
import re
import stat
from pathlib import Path

import pytest

from .conftest import SECRET
from .node_server import NodeServer

MAX_OUTPUT_CHARS = 50_000


def unchanged_outside(sandbox: Path) -> None:
    assert (sandbox / "outside" / "secret.txt").read_text() == SECRET
    assert sorted(p.name for p in (sandbox / "outside").iterdir()) == ["secret.txt"]
    assert list((sandbox / "root_evil").iterdir()) == []
    assert not (sandbox / "escape.txt").exists()


# ---------------------------------------------------------------- confinement and links


@pytest.mark.parametrize(
    "path",
    [
        "../escape.txt",
        "a/../../escape.txt",
        "new/x/../../../escape.txt",
        "../root_evil/x.txt",
        "@../escape.txt",
    ],
)
def test_a_path_that_leaves_the_root_is_rejected_and_creates_nothing(
    server: NodeServer, sandbox: Path, path: str
) -> None:
    envelope = server.call("write_file", path=path, content="x")
    assert envelope["error"] == "OUTSIDE_ROOT", envelope
    unchanged_outside(sandbox)
    assert list((sandbox / "root").iterdir()) == []


def test_an_absolute_path_outside_is_rejected_and_one_inside_means_the_relative_file(
    server: NodeServer, sandbox: Path, root: Path
) -> None:
    assert (
        server.call("write_file", path=str(sandbox / "escape.txt"), content="x")["error"]
        == "OUTSIDE_ROOT"
    )
    assert server.call("write_file", path=str(root / "in.txt"), content="inside")["success"]
    assert (root / "in.txt").read_text() == "inside"
    unchanged_outside(sandbox)


def test_tilde_names_a_folder_in_the_root_and_home_is_untouched(
    server: NodeServer, sandbox: Path, root: Path
) -> None:
    assert server.call("write_file", path="~/.ssh/authorized_keys", content="key")["success"]
    assert (root / "~" / ".ssh" / "authorized_keys").read_text() == "key"
    assert list((sandbox / "home").iterdir()) == []


def test_a_name_starting_with_two_dots_is_an_ordinary_child(server: NodeServer, root: Path) -> None:
    assert server.call("write_file", path="..cache/x.txt", content="ok")["success"]
    assert "ok" in server.call("read_file", path="..cache/x.txt")["data"]


def test_a_nul_byte_in_a_path_is_a_failure_that_creates_nothing(
    server: NodeServer, root: Path
) -> None:
    envelope = server.call("write_file", path="a\u0000b.txt", content="x")
    assert envelope["success"] is False and envelope["error"] == "INVALID_ARGS"
    assert list(root.iterdir()) == []


def test_links_out_of_the_root_are_neither_read_nor_written_through(
    server: NodeServer, sandbox: Path, root: Path
) -> None:
    (root / "link_out").symlink_to(sandbox / "outside")
    (root / "link_out_file").symlink_to(sandbox / "outside" / "secret.txt")
    (root / "dangling_out").symlink_to(sandbox / "outside" / "created_by_escape.txt")
    calls = [
        ("read_file", {"path": "link_out_file"}),
        ("read_file", {"path": "link_out/secret.txt"}),
        ("write_file", {"path": "link_out_file", "content": "pwned"}),
        ("write_file", {"path": "link_out/new/dir/f.txt", "content": "pwned"}),
        ("write_file", {"path": "dangling_out", "content": "pwned"}),
        ("list_files", {"path": "link_out"}),
        ("grep", {"pattern": "canary", "path": "link_out"}),
    ]
    for tool, arguments in calls:
        envelope = server.call(tool, **arguments)
        assert envelope["error"] == "OUTSIDE_ROOT", (tool, arguments, envelope)
        assert SECRET not in envelope["data"]
    listing = server.call("list_files")
    grep = server.call("grep", pattern="canary")
    assert SECRET not in listing["data"] and "secret.txt" not in listing["data"]
    assert grep["success"] and SECRET not in grep["data"]
    unchanged_outside(sandbox)


def test_a_link_inside_the_root_can_be_read_and_a_loop_fails_promptly(
    server: NodeServer, root: Path
) -> None:
    (root / "sub").mkdir()
    (root / "sub" / "inner.txt").write_text("inner text\n")
    (root / "link_in_file").symlink_to(root / "sub" / "inner.txt")
    (root / "loop_a").symlink_to("loop_b")
    (root / "loop_b").symlink_to("loop_a")
    assert "inner text" in server.call("read_file", path="link_in_file")["data"]
    for tool, arguments in [
        ("read_file", {"path": "loop_a"}),
        ("write_file", {"path": "loop_a", "content": "x"}),
        ("list_files", {"path": "loop_b"}),
    ]:
        assert server.call(tool, **arguments)["success"] is False


# ---------------------------------------------------------------- read_file


def test_read_file_numbers_every_line_and_windows_are_exact(server: NodeServer, root: Path) -> None:
    (root / "ten.txt").write_text("".join(f"row-{n:02d}\n" for n in range(1, 11)))
    whole = server.call("read_file", path="ten.txt")["data"].splitlines()
    assert [line.split("\t") for line in whole] == [
        [f"{n:6d}", f"row-{n:02d}"] for n in range(1, 11)
    ]
    window = server.call("read_file", path="ten.txt", start_line=3, end_line=5.0)
    assert [f"row-{n:02d}" in window["data"] for n in range(1, 11)] == [
        n in (3, 4, 5) for n in range(1, 11)
    ]
    past = server.call("read_file", path="ten.txt", start_line=40)
    assert past["success"] is False and "10 lines" in past["data"]


def test_read_file_classifies_large_binary_empty_folder_and_fifo(
    server: NodeServer, root: Path
) -> None:
    (root / "big.txt").write_text("x" * 100 + "\n" + "filler line\n" * 30_000 + "last line\n")
    (root / "blob.bin").write_bytes(b"text\x00more")
    (root / "latin1.txt").write_bytes(b"caf\xe9\n")
    (root / "empty.txt").write_bytes(b"")
    (root / "folder").mkdir()
    os.mkfifo(root / "pipe")
    assert server.call("read_file", path="big.txt")["error"] == "FILE_TOO_LARGE"
    tail = server.call("read_file", path="big.txt", start_line=30_002, end_line=30_002)
    assert tail["success"] and "last line" in tail["data"]
    assert server.call("read_file", path="blob.bin")["error"] == "BINARY_FILE"
    assert server.call("read_file", path="latin1.txt")["error"] == "BINARY_FILE"
    empty = server.call("read_file", path="empty.txt")
    assert empty["success"] and "empty" in empty["data"]
    assert server.call("read_file", path="folder")["error"] == "IS_DIRECTORY"
    assert server.call("read_file", path="nothing.txt")["error"] == "NOT_FOUND"
    assert server.call("read_file", path="pipe")["success"] is False


# ---------------------------------------------------------------- write_file and edit_file


def test_write_file_stores_exact_bytes_creates_parents_and_leaves_no_temporary(
    server: NodeServer, root: Path
) -> None:
    content = "\ufeffone\r\ntwo\nthree"
    assert server.call("write_file", path="deep/er/file.txt", content=content)["success"]
    assert (root / "deep" / "er" / "file.txt").read_bytes() == content.encode()
    assert os.listdir(root / "deep" / "er") == ["file.txt"]


def test_overwriting_needs_a_read_and_keeps_the_mode(server: NodeServer, root: Path) -> None:
    script = root / "run.sh"
    script.write_text("echo old\n")
    script.chmod(0o755)
    refused = server.call("write_file", path="run.sh", content="echo new\n")
    assert refused["error"] == "NOT_READ" and script.read_text() == "echo old\n"
    server.call("read_file", path="run.sh")
    assert server.call("write_file", path="run.sh", content="echo new\n")["success"]
    assert script.read_text() == "echo new\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o755


def test_edit_inserts_new_text_literally(server: NodeServer, root: Path) -> None:
    (root / "a.txt").write_text("price: X\n")
    server.call("read_file", path="a.txt")
    assert server.call("edit_file", path="a.txt", old_text="X", new_text=r"$& $1 \1 $$")["success"]
    assert (root / "a.txt").read_text() == "price: $& $1 \\1 $$\n"


def test_edit_tells_not_found_from_multiple_and_replace_all_changes_every_one(
    server: NodeServer, root: Path
) -> None:
    (root / "a.txt").write_text("one two one\n")
    server.call("read_file", path="a.txt")
    assert (
        server.call("edit_file", path="a.txt", old_text="three", new_text="x")["error"]
        == "TEXT_NOT_FOUND"
    )
    assert (
        server.call("edit_file", path="a.txt", old_text="one", new_text="x")["error"]
        == "TEXT_MULTIPLE_MATCHES"
    )
    assert (
        server.call("edit_file", path="a.txt", old_text="", new_text="x")["error"] == "INVALID_ARGS"
    )
    assert (root / "a.txt").read_text() == "one two one\n"
    assert server.call("edit_file", path="a.txt", old_text="one", new_text="1", replace_all=True)[
        "success"
    ]
    assert (root / "a.txt").read_text() == "1 two 1\n"


def test_edit_keeps_crlf_bom_and_the_missing_final_newline(server: NodeServer, root: Path) -> None:
    (root / "win.txt").write_bytes(b"\xef\xbb\xbfalpha\r\nbeta\r\ngamma")
    server.call("read_file", path="win.txt")
    envelope = server.call(
        "edit_file", path="win.txt", old_text="alpha\nbeta", new_text="alpha\nBETA\nextra"
    )
    assert envelope["success"], envelope
    assert (root / "win.txt").read_bytes() == b"\xef\xbb\xbfalpha\r\nBETA\r\nextra\r\ngamma"
    assert envelope["diff"].startswith("--- a/win.txt\n+++ b/win.txt\n@@ ")


def test_edit_keeps_other_line_endings_of_a_mixed_file(server: NodeServer, root: Path) -> None:
    (root / "mixed.txt").write_bytes(b"a\r\nb\nc\r\nd\n")
    server.call("read_file", path="mixed.txt")
    assert server.call("edit_file", path="mixed.txt", old_text="c", new_text="C")["success"]
    assert (root / "mixed.txt").read_bytes() == b"a\r\nb\nC\r\nd\n"


def test_straight_quotes_match_curly_ones_and_the_rest_keeps_its_curls(
    server: NodeServer, root: Path
) -> None:
    (root / "q.txt").write_text("say \u201chello\u201d and \u2018bye\u2019\n")
    server.call("read_file", path="q.txt")
    assert server.call("edit_file", path="q.txt", old_text='"hello"', new_text='"hi"')["success"]
    assert (root / "q.txt").read_text() == 'say "hi" and \u2018bye\u2019\n'


def test_an_edit_after_the_file_changed_on_disk_is_a_stale_read(
    server: NodeServer, root: Path
) -> None:
    (root / "a.txt").write_text("before\n")
    server.call("read_file", path="a.txt")
    (root / "a.txt").write_text("BEFORE\n")  # same size, likely the same mtime tick
    assert (
        server.call("edit_file", path="a.txt", old_text="BEFORE", new_text="x")["error"]
        == "STALE_READ"
    )
    assert (root / "a.txt").read_text() == "BEFORE\n"


def test_editing_unread_missing_or_folder_targets_fails_without_change(
    server: NodeServer, root: Path
) -> None:
    (root / "a.txt").write_text("text\n")
    (root / "dir").mkdir()
    assert (
        server.call("edit_file", path="a.txt", old_text="text", new_text="x")["error"] == "NOT_READ"
    )
    assert (
        server.call("edit_file", path="ghost.txt", old_text="a", new_text="b")["error"]
        == "NOT_FOUND"
    )
    assert (
        server.call("edit_file", path="dir", old_text="a", new_text="b")["error"] == "IS_DIRECTORY"
    )
    assert sorted(os.listdir(root)) == ["a.txt", "dir"] and (root / "a.txt").read_text() == "text\n"


# ---------------------------------------------------------------- list_files and grep


def test_list_files_names_files_relative_to_the_root_and_filters_by_glob(
    server: NodeServer, root: Path
) -> None:
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "mod.py").write_text("")
    (root / "src" / "notes.md").write_text("")
    assert server.call("list_files", path="src")["data"].splitlines() == [
        "src/notes.md",
        "src/pkg/mod.py",
    ]
    assert server.call("list_files", path=".", pattern="*.py")["data"].splitlines() == [
        "src/pkg/mod.py"
    ]
    assert server.call("list_files", path="nowhere")["error"] == "NOT_FOUND"


def test_grep_reports_path_and_line_and_treats_no_match_as_success(
    server: NodeServer, root: Path
) -> None:
    (root / "a.txt").write_text("zero\n-v flag here\nthird\n")
    (root / "b.bin").write_bytes(b"-v flag\x00binary")
    assert server.call("grep", pattern="-v flag")["data"] == "a.txt:2:-v flag here"
    none = server.call("grep", pattern="absent-word")
    assert none["success"] and "No matches" in none["data"]
    bad = server.call("grep", pattern="(unclosed")
    assert bad["error"] == "INVALID_ARGS" and bad["issues"][0]["path"] == "$.pattern"


# ---------------------------------------------------------------- bash


def test_bash_reports_output_exit_codes_and_silence(server: NodeServer, root: Path) -> None:
    ok = server.call("bash", command="pwd; echo warn >&2")
    assert ok["success"] and str(root) in ok["data"] and "warn" in ok["data"]
    failed = server.call("bash", command="echo out; echo err >&2; exit 7")
    assert failed["error"] == "NONZERO_EXIT" and failed["exit_code"] == 7
    assert all(part in failed["data"] for part in ("7", "out", "err"))
    silent = server.call("bash", command="true")
    assert silent["success"] and silent["data"].strip()
    assert server.call("bash", command="read line; echo got:$line", timeout_ms=10_000)["success"]


def test_bash_output_is_bounded_keeping_head_and_tail_without_splitting_characters(
    server: NodeServer,
) -> None:
    envelope = server.call(
        "bash",
        command="printf 'HEAD'; for i in $(seq 1 40000); do printf 'é€😀'; done; printf 'TAIL'",
    )
    data = envelope["data"]
    assert len(data) <= MAX_OUTPUT_CHARS
    assert data.startswith("HEAD") and data.endswith("TAIL")
    assert "\ufffd" not in data
    # The output has no digits of its own, so the only number is the marker's count of the cut.
    kept = sum(data.count(char) for char in "é€😀") + len("HEADTAIL")
    assert [int(number) for number in re.findall(r"\d+", data)] == [120_008 - kept]


def test_plain_ascii_output_over_the_limit_keeps_its_tail(server: NodeServer) -> None:
    # Small enough to stay in the streaming head buffer, large enough to need a cut.
    envelope = server.call(
        "bash", command="printf 'HEADMARK'; head -c 120000 /dev/zero | tr '\\0' x; echo TAILMARK"
    )
    data = envelope["data"]
    assert len(data) <= MAX_OUTPUT_CHARS
    assert data.startswith("HEADMARK") and data.rstrip("\n").endswith("TAILMARK")
    kept = data.count("x")
    assert [int(number) for number in re.findall(r"\d+", data)] == [120_000 - kept]
