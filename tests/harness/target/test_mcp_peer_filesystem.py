"""The mcp: adapter against the real peer, the pinned official filesystem server, on real temp
dirs: the hard cases its peer page (docs/peers/server-filesystem.md) reports, shown first-hand.

The peer is installed by scripts/install-peers.sh; without it these tests skip, saying so.
"""

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentconf.harness.profile.model import Profile
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.adapters.mcp import McpAdapter, open_mcp
from agentconf.harness.target.spec import parse_spec
from agentconf.harness.verdicts.errors import ImplementationFailure

REPO = Path(__file__).resolve().parents[3]
PROFILE = REPO / "peers" / "server-filesystem" / "agentconf.toml"
SPEC = parse_spec(str(PROFILE))
SERVER_JS = Path(SPEC.argv[1])

pytestmark = pytest.mark.skipif(
    not SERVER_JS.is_file(),
    reason=f"the server-filesystem peer is not installed ({SERVER_JS} is missing): "
    "run scripts/install-peers.sh",
)

SECRET = "canary-7f3a"


class Sandbox:
    """root/ for the server, and canaries beside it that must never change."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.root = base / "root"
        self.outside = base / "outside"
        self.sibling = base / "root_evil"
        self.home = base / "home"
        for folder in (self.root, self.outside, self.sibling, self.home, base / "tmp"):
            folder.mkdir()
        (self.outside / "secret.txt").write_text(SECRET)
        (self.home / ".profile").write_text(SECRET)

    def outside_state(self) -> dict[str, bytes | str]:
        """Every path outside the root (links by target, files by bytes, folders by name)."""
        state: dict[str, bytes | str] = {}
        for path in sorted(self.base.rglob("*")):
            # The root is the server's to change; tmp/ (its TMPDIR) and logs/ are not judged.
            unjudged = (self.root, self.base / "tmp", self.base / "logs")
            if any(path == folder or folder in path.parents for folder in unjudged):
                continue
            key = str(path.relative_to(self.base))
            if path.is_symlink():
                state[key] = f"-> {os.readlink(path)}"
            elif path.is_file():
                state[key] = path.read_bytes()
            else:
                state[key] = "dir"
        return state


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


@pytest.fixture
def server(box: Sandbox) -> Iterator[McpAdapter]:
    env = AdapterEnv(
        root=box.root,
        home=box.home,
        tmp=box.base / "tmp",
        call_timeout_s=20.0,
        start_timeout_s=30.0,
        log_dir=box.base / "logs",
    )
    adapter = open_mcp(SPEC.command(env.root, env.home, env.tmp), env, SPEC.profile)
    yield adapter
    adapter.close()


def classify(profile: Profile, envelope: dict) -> str | None:
    """The code the profile's ordered patterns give a failure without one."""
    if envelope.get("error"):
        return envelope["error"]
    for entry in profile.error_patterns:
        if entry.pattern.search(envelope["data"]):
            return entry.code
    return None


def edit(server: McpAdapter, path: str, old: str, new: str) -> dict:
    return server.call_tool(
        "edit_file", {"path": path, "edits": [{"oldText": old, "newText": new}], "dryRun": False}
    )


def test_the_peer_identifies_itself_and_marks_its_read_tools(server: McpAdapter) -> None:
    tools = {tool["name"]: tool for tool in server.list_tools()}
    assert server.name == "secure-filesystem-server"
    assert {"read_text_file", "write_file", "edit_file", "list_directory"} <= set(tools)
    assert tools["read_text_file"]["kind"] == "read"
    assert tools["write_file"]["kind"] == "other"
    assert "grep" not in tools and "bash" not in tools


def test_an_edit_of_a_text_that_occurs_twice_silently_replaces_the_first(
    server: McpAdapter, box: Sandbox
) -> None:
    (box.root / "twice.txt").write_text("alpha\nbeta\nalpha\n")
    envelope = edit(server, "twice.txt", "alpha", "omega")
    assert envelope["success"] is True, envelope
    assert (box.root / "twice.txt").read_text() == "omega\nbeta\nalpha\n"


def test_an_edit_of_a_crlf_file_rewrites_every_line_ending_as_lf(
    server: McpAdapter, box: Sandbox
) -> None:
    (box.root / "crlf.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    assert edit(server, "crlf.txt", "two", "TWO")["success"] is True
    assert (box.root / "crlf.txt").read_bytes() == b"one\nTWO\nthree\n"


def test_an_old_text_that_does_not_occur_is_text_not_found_and_the_file_is_kept(
    server: McpAdapter, box: Sandbox
) -> None:
    (box.root / "a.txt").write_text("alpha\n")
    envelope = edit(server, "a.txt", "zeta", "omega")
    assert envelope["success"] is False
    assert classify(SPEC.profile, envelope) == "TEXT_NOT_FOUND"
    assert (box.root / "a.txt").read_text() == "alpha\n"


@pytest.mark.parametrize(
    ("path", "link", "target"),
    [
        ("link_out_file", "link_out_file", "outside/secret.txt"),
        ("link_out/secret.txt", "link_out", "outside"),
        ("link_out/new/dir/f.txt", "link_out", "outside"),
        ("dangling_out", "dangling_out", "outside/created_by_escape.txt"),
    ],
)
def test_writes_through_links_out_of_the_root_are_refused_and_create_nothing(
    server: McpAdapter, box: Sandbox, path: str, link: str, target: str
) -> None:
    (box.root / link).symlink_to(box.base / target)
    before = box.outside_state()
    envelope = server.call_tool("write_file", {"path": path, "content": "escaped"})
    assert envelope["success"] is False, envelope
    assert box.outside_state() == before


def test_reads_through_a_link_out_of_the_root_are_denied_and_reveal_nothing(
    server: McpAdapter, box: Sandbox
) -> None:
    (box.root / "link_out").symlink_to(box.outside)
    envelope = server.call_tool("read_text_file", {"path": "link_out/secret.txt"})
    assert envelope["success"] is False
    assert classify(SPEC.profile, envelope) == "OUTSIDE_ROOT"
    assert SECRET not in envelope["data"]


def test_a_dangling_link_out_is_refused_with_a_message_about_its_parent(
    server: McpAdapter, box: Sandbox
) -> None:
    # The refusal is right, its words are not: the parent (the root) exists.
    (box.root / "dangling_out").symlink_to(box.outside / "created_by_escape.txt")
    envelope = server.call_tool("write_file", {"path": "dangling_out", "content": "x"})
    assert envelope["data"].startswith("Parent directory does not exist")
    assert classify(SPEC.profile, envelope) == "NOT_FOUND"


@pytest.mark.parametrize(
    "path",
    [
        "../outside/new.txt",
        "a/../../outside/new.txt",
        "{base}/outside/new.txt",
        "{base}/root_evil/new.txt",
        "new/x/../../../outside/new.txt",
    ],
)
def test_paths_that_leave_the_root_are_outside_root_and_change_nothing(
    server: McpAdapter, box: Sandbox, path: str
) -> None:
    before = box.outside_state()
    envelope = server.call_tool(
        "write_file", {"path": path.format(base=box.base), "content": "escaped"}
    )
    assert classify(SPEC.profile, envelope) == "OUTSIDE_ROOT", envelope
    assert box.outside_state() == before
    assert list(box.root.iterdir()) == []


def test_a_tilde_path_is_expanded_to_home_and_refused_instead_of_staying_in_the_root(
    server: McpAdapter, box: Sandbox
) -> None:
    envelope = server.call_tool("write_file", {"path": "~/notes.txt", "content": "x"})
    assert classify(SPEC.profile, envelope) == "OUTSIDE_ROOT"
    assert str(box.home) in envelope["data"], "it resolved ~ to HOME, the workspace's home"
    assert not (box.root / "~").exists()
    assert not (box.home / "notes.txt").exists()


def test_an_absolute_path_inside_the_root_means_the_same_file(
    server: McpAdapter, box: Sandbox
) -> None:
    (box.root / "a.txt").write_text("inside\n")
    envelope = server.call_tool("read_text_file", {"path": str(box.root / "a.txt")})
    assert envelope["success"] is True and envelope["data"] == "inside\n"


def test_an_unknown_tool_is_a_tool_error_its_profile_classifies(server: McpAdapter) -> None:
    envelope = server.call_tool("no_such_tool", {})
    assert envelope["success"] is False
    assert "protocol_error" not in envelope, "it answers isError, not a JSON-RPC error"
    assert classify(SPEC.profile, envelope) == "TOOL_NOT_FOUND"


@pytest.mark.parametrize(
    ("tool", "arguments", "code"),
    [
        ("read_text_file", {"path": "missing.txt"}, "NOT_FOUND"),
        ("read_text_file", {"path": "."}, "IS_DIRECTORY"),
        ("read_text_file", {"path": "a.txt/inner"}, "NOT_A_DIRECTORY"),
        ("read_text_file", {"path": 3}, "INVALID_ARGS"),
        ("read_text_file", {"path": "a.txt", "head": 1, "tail": 1}, "INVALID_ARGS"),
        ("write_file", {"path": "a.txt"}, "INVALID_ARGS"),
        ("write_file", {"path": "new/dir/a.txt", "content": "x"}, "NOT_FOUND"),
        ("write_file", {"path": ".", "content": "x"}, "IS_DIRECTORY"),
        ("edit_file", {"path": "missing.txt", "edits": []}, "NOT_FOUND"),
        ("search_files", {"path": "a.txt", "pattern": "*"}, "NOT_A_DIRECTORY"),
        ("read_text_file", {"path": "loop_a"}, "IO_ERROR"),
    ],
)
def test_every_real_failure_message_gets_the_right_code_from_the_profile(
    server: McpAdapter, box: Sandbox, tool: str, arguments: dict, code: str
) -> None:
    (box.root / "a.txt").write_text("a\n")
    (box.root / "loop_a").symlink_to(box.root / "loop_b")
    (box.root / "loop_b").symlink_to(box.root / "loop_a")
    envelope = server.call_tool(tool, arguments)
    assert envelope["success"] is False, envelope
    assert classify(SPEC.profile, envelope) == code, envelope["data"]


def test_the_profile_patterns_are_anchored_so_quoted_text_cannot_match(
    server: McpAdapter, box: Sandbox
) -> None:
    # old_text is quoted in the message; an unanchored EISDIR pattern would misfile this.
    (box.root / "a.txt").write_text("a\n")
    envelope = edit(server, "a.txt", "EISDIR: Access denied - ENOENT:", "x")
    assert classify(SPEC.profile, envelope) == "TEXT_NOT_FOUND"
    assert all(re.match(r"\\A", entry.pattern.pattern) for entry in SPEC.profile.error_patterns)


def test_a_name_that_starts_with_two_dots_is_inside_and_written_when_its_folder_exists(
    server: McpAdapter, box: Sandbox
) -> None:
    # It does not create parents, so the folder is made first: what is judged is confinement.
    (box.root / "..cache").mkdir()
    envelope = server.call_tool("write_file", {"path": "..cache/data.txt", "content": "dotted"})
    assert envelope["success"] is True, envelope
    assert (box.root / "..cache" / "data.txt").read_text() == "dotted"


def test_the_listing_tool_globs_below_a_folder_and_skips_links_out(
    server: McpAdapter, box: Sandbox
) -> None:
    (box.root / "docs").mkdir()
    (box.root / "docs" / "guide.md").write_text("g")
    (box.root / "main.py").write_text("m")
    (box.root / "link_out").symlink_to(box.outside)
    listed = server.call_tool("search_files", {"path": ".", "pattern": "*"})["data"].splitlines()
    assert sorted(listed) == [str(box.root / "docs"), str(box.root / "main.py")]
    found = server.call_tool("search_files", {"path": ".", "pattern": "**/*.md"})["data"]
    assert found == str(box.root / "docs" / "guide.md")


def test_reading_a_fifo_blocks_the_server_until_the_adapter_kills_it(box: Sandbox) -> None:
    os.mkfifo(box.root / "pipe")
    env = AdapterEnv(
        root=box.root,
        home=box.home,
        tmp=box.base / "tmp",
        call_timeout_s=2.0,
        start_timeout_s=30.0,
        log_dir=box.base / "logs",
    )
    adapter = open_mcp(SPEC.command(env.root, env.home, env.tmp), env, SPEC.profile)
    pid = adapter.pid
    assert pid is not None
    with pytest.raises(ImplementationFailure, match="no answer within 2 s"):
        adapter.call_tool("read_text_file", {"path": "pipe"})
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
