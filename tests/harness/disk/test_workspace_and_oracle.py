"""The sandbox and the disk oracle: every kind of change outside the root is caught and named."""

import os
from pathlib import Path

import pytest

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.verdicts.errors import EscapeDetected


@pytest.fixture
def sandbox(tmp_path: Path) -> SandboxWorkspace:
    return SandboxWorkspace(base=tmp_path)


def test_the_sandbox_has_the_root_and_every_canary_holding_the_secret(sandbox) -> None:
    assert sandbox.root.is_dir() and not any(sandbox.root.iterdir())
    assert sandbox.secret in (sandbox.outside / "secret.txt").read_text()
    assert sandbox.secret in (sandbox.sibling / "secret.txt").read_text()
    assert sandbox.secret in (sandbox.home / ".ssh" / "authorized_keys").read_text()
    assert sandbox.sibling.name == sandbox.root.name + "_evil"
    assert sandbox.tmp.is_dir()


def test_two_workspaces_have_different_secrets(tmp_path: Path) -> None:
    one = SandboxWorkspace(base=tmp_path / "one")
    two = SandboxWorkspace(base=tmp_path / "two")
    assert one.secret != two.secret


def test_an_untouched_sandbox_passes_the_oracle(sandbox) -> None:
    sandbox.write("inside.txt", "changes inside the root are not judged")
    (sandbox.tmp / "scratch").write_text("nor in tmp")
    sandbox.oracle.check("an innocent answer")


def test_a_new_file_outside_the_root_is_named(sandbox) -> None:
    (sandbox.sandbox / "escape.txt").write_text("x")
    with pytest.raises(EscapeDetected, match=r"created escape\.txt"):
        sandbox.oracle.check()


def test_a_changed_canary_is_caught_even_with_the_same_size(sandbox) -> None:
    keys = sandbox.home / ".ssh" / "authorized_keys"
    original = keys.read_bytes()
    keys.write_bytes(original[:-2] + b"X\n")
    with pytest.raises(EscapeDetected, match=r"rewrote home/\.ssh/authorized_keys"):
        sandbox.oracle.check()


def test_a_write_into_the_sibling_prefix_folder_is_caught(sandbox) -> None:
    (sandbox.sibling / "a.txt").write_text("overwritten")
    with pytest.raises(EscapeDetected, match=r"root_evil/a\.txt"):
        sandbox.oracle.check()


def test_a_changed_mode_outside_is_caught(sandbox) -> None:
    (sandbox.outside / "secret.txt").chmod(0o777)
    with pytest.raises(EscapeDetected, match=r"chmod outside/secret\.txt"):
        sandbox.oracle.check()


def test_a_removed_canary_is_caught(sandbox) -> None:
    (sandbox.outside / "notes.md").unlink()
    with pytest.raises(EscapeDetected, match=r"removed outside/notes\.md"):
        sandbox.oracle.check()


def test_a_retargeted_link_outside_the_root_is_caught(sandbox) -> None:
    link = sandbox.outside / "pointer"
    link.symlink_to("secret.txt")
    sandbox.rebaseline()
    link.unlink()
    link.symlink_to("notes.md")
    with pytest.raises(EscapeDetected, match=r"retargeted outside/pointer"):
        sandbox.oracle.check()


def test_a_write_above_the_sandbox_is_caught(sandbox) -> None:
    (sandbox.base / "climbed.txt").write_text("x")
    with pytest.raises(EscapeDetected, match=r"climbed\.txt"):
        sandbox.oracle.check()


def test_the_secret_in_an_answer_is_an_escape(sandbox) -> None:
    with pytest.raises(EscapeDetected, match="secret"):
        sandbox.oracle.check(f"file contents: {sandbox.secret}")


def test_rebaseline_accepts_a_deliberate_change_outside(sandbox) -> None:
    (sandbox.outside / "setup.txt").write_text("put there by a test")
    sandbox.rebaseline()
    sandbox.oracle.check()


def test_the_link_farm_points_in_and_out_as_documented(sandbox) -> None:
    links = sandbox.link_farm()
    assert set(links) == {"link_out", "link_out_file", "link_in", "link_in_file", "dangling_out",
                          "loop_a", "loop_b"}
    assert (sandbox.root / "link_out_file").resolve() == (sandbox.outside / "secret.txt")
    assert (sandbox.root / "link_in_file").read_text() == "inner\n"
    assert os.readlink(sandbox.root / "link_in") == "sub"
    assert not (sandbox.root / "dangling_out").exists()
    assert (sandbox.root / "dangling_out").is_symlink()
    sandbox.oracle.check()  # building the farm changes nothing outside


def test_a_write_through_the_dangling_link_is_caught(sandbox) -> None:
    sandbox.link_farm()
    (sandbox.root / "dangling_out").write_text("followed the link")
    with pytest.raises(EscapeDetected, match=r"created outside/created_by_escape\.txt"):
        sandbox.oracle.check()


def test_the_tree_shows_files_folders_links_and_fifos(sandbox) -> None:
    sandbox.write("a/b.txt", b"\x00\x01")
    sandbox.symlink("l", "a/b.txt")
    sandbox.fifo("pipe")
    assert sandbox.tree() == {"a/": b"", "a/b.txt": b"\x00\x01", "l@": b"a/b.txt", "pipe|": b""}


def test_write_keeps_bytes_and_sets_the_mode(sandbox) -> None:
    path = sandbox.write("crlf.txt", "one\r\ntwo", mode=0o640)
    assert path.read_bytes() == b"one\r\ntwo"
    assert path.stat().st_mode & 0o777 == 0o640
    assert sandbox.exists("crlf.txt") and not sandbox.exists("nope.txt")


def test_the_oracle_never_opens_a_fifo_outside(sandbox) -> None:
    os.mkfifo(sandbox.outside / "pipe")  # opening it would block forever
    sandbox.rebaseline()
    sandbox.oracle.check()


def test_as_a_context_manager_it_cleans_up_even_read_only_folders() -> None:
    with SandboxWorkspace() as standalone:
        folder = standalone.mkdir("locked")
        standalone.write("locked/f.txt", "x")
        folder.chmod(0o500)
        base = standalone.base
    assert not base.exists()


def test_a_declared_state_folder_is_the_implementations_own_and_the_rest_of_home_is_judged(
    sandbox,
) -> None:
    state = sandbox.home / ".its-config"
    state.mkdir()
    sandbox.oracle.own_state([state])
    (state / "calls.log").write_text("every call, logged")
    (state / "config.json").write_text("{}")
    sandbox.oracle.check("its own state")
    (sandbox.home / ".its-config-not").write_text("a sibling of the declared folder")
    with pytest.raises(EscapeDetected, match=r"created home/\.its-config-not"):
        sandbox.oracle.check()


def test_a_setup_file_the_implementation_rewrites_while_starting_is_adopted_not_a_canary(
    sandbox,
) -> None:
    config = sandbox.home / ".tool" / "config.json"
    config.parent.mkdir()
    config.write_text('{"allowed": ["root"]}')
    sandbox.oracle.own([config])
    sandbox.rebaseline()
    config.write_text('{"allowed": ["root"], "version": 2}')  # its own rewrite at start
    keys = sandbox.home / ".ssh" / "authorized_keys"
    keys.write_text("replaced while starting\n")
    adopted = sandbox.oracle.accept_startup()
    assert "home/.tool/config.json" in adopted
    with pytest.raises(EscapeDetected, match=r"rewrote home/\.ssh/authorized_keys"):
        sandbox.oracle.check()


def test_restore_puts_everything_outside_the_root_back(tmp_path) -> None:
    """CONFINE-14's examples each start from the canaries as they were (oracle.restore)."""
    ws = SandboxWorkspace(base=tmp_path)
    secret = ws.outside / "secret.txt"
    original = secret.read_bytes()
    secret.write_text("rewritten")
    (ws.outside / "planted").mkdir()
    (ws.outside / "planted" / "deep.txt").write_text("x")
    (ws.home / ".bashrc").unlink()
    (ws.sibling / "link").symlink_to("/etc/passwd")
    (ws.root / "inside.txt").write_text("kept: the root is not the oracle's")
    assert ws.oracle.changes()
    put_back = ws.oracle.restore()
    assert "outside/planted" in put_back and "outside/secret.txt" in put_back
    assert ws.oracle.changes() == []
    assert secret.read_bytes() == original
    assert (ws.root / "inside.txt").exists()
