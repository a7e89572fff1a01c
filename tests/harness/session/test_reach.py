"""The safety rules of harness/session/reach.py: which strings a destructive tool may be sent, and
which tools the kit may call at all (real folders and links, no mocks)."""

import os
from pathlib import Path

import pytest

from agentconf.harness.profile.model import parse_profile
from agentconf.harness.session.reach import (
    escaping_strings,
    is_destructive,
    outside_contract,
    resolves_inside,
)


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    (tmp_path / "sandbox" / "root" / "sub").mkdir(parents=True)
    (tmp_path / "sandbox" / "outside").mkdir()
    os.symlink(tmp_path / "sandbox" / "outside", tmp_path / "sandbox" / "root" / "link_out")
    os.symlink("/etc", tmp_path / "sandbox" / "root" / "link_etc")
    return tmp_path / "sandbox"


@pytest.mark.parametrize("text", [
    "a.txt", "sub/../a.txt", "../outside/secret.txt", "link_out/secret.txt", "@a.txt",
    "../root_evil/x", "%2e%2e/outside",
])
def test_paths_that_stay_in_the_sandbox_may_be_sent(sandbox: Path, text: str) -> None:
    assert resolves_inside(text, sandbox / "root", sandbox)


@pytest.mark.parametrize("text", [
    "../../escape", "/etc/passwd", "~/.ssh/authorized_keys", "link_etc/passwd",
    "%2e%2e/%2e%2e/escape", "..\\..\\escape", "file:///etc/passwd", "@/etc/passwd",
    "\uff0fetc/passwd", "a\x00b", "/tmp/agentconf-canary-x/secret.txt",
])
def test_paths_that_may_leave_the_sandbox_however_read_are_refused(
    sandbox: Path, text: str
) -> None:
    assert not resolves_inside(text, sandbox / "root", sandbox)


def test_every_string_in_nested_arguments_is_judged(sandbox: Path) -> None:
    arguments = {"files": [{"path": "a.txt"}, {"path": "../../x"}], "n": 3}
    assert escaping_strings(arguments, sandbox / "root", sandbox) == ["../../x"]


def test_only_mapped_or_declared_tools_may_be_called_unless_the_profile_opts_in() -> None:
    listed = {"read_file": {}, "wipe": {}, "stat": {}}
    profile = parse_profile({"tools": {"extra": {"stat": {"paths": ["path"]}}}})
    assert outside_contract(profile, "wipe", listed)
    assert not outside_contract(profile, "stat", listed)
    assert not outside_contract(profile, "read_file", listed)
    assert not outside_contract(profile, "never_listed", listed)  # TOOL_NOT_FOUND checks
    opted = parse_profile({"implementation": {"call_other_tools": True}})
    assert not outside_contract(opted, "wipe", listed)


def test_a_declared_tool_is_destructive_unless_it_says_otherwise() -> None:
    profile = parse_profile({"tools": {"extra": {
        "a": {"paths": ["p"]}, "b": {"paths": ["p"], "destructive": False},
        "c": {"paths": ["p"]}}}})
    listed = {"a": {}, "b": {}, "c": {"annotations": {"destructiveHint": False}}}
    assert is_destructive(profile, "a", listed)  # fail safe
    assert not is_destructive(profile, "b", listed)
    assert not is_destructive(profile, "c", listed)
    assert is_destructive(profile, "delete_file", listed)
    assert not is_destructive(profile, "read_file", listed)


def test_one_tool_for_a_write_and_a_delete_is_destructive_by_the_operation_a_call_carries(
) -> None:
    profile = parse_profile({"tools": {
        "write_file": {"name": "file_ops", "args": {"path": "file_path"},
                       "defaults": {"action": "write"}},
        "delete_file": {"name": "file_ops", "args": {"path": "file_path"},
                        "defaults": {"action": "delete"}},
        "list_files": {"name": "dir_ops", "args": {"path": "dir_path"},
                       "defaults": {"action": "list", "dir_path": "."}}}})
    listed = {"file_ops": {}, "dir_ops": {}}
    write = {"action": "write", "file_path": "../../x", "content": "c"}
    assert not is_destructive(profile, "file_ops", listed, write)  # the disk oracle judges it
    assert is_destructive(profile, "file_ops", listed, {**write, "action": "delete"})
    assert is_destructive(profile, "file_ops", listed, {"file_path": "../../x"})  # fail safe
    assert is_destructive(profile, "file_ops", listed)
    assert not is_destructive(profile, "dir_ops", listed, {"action": "list", "dir_path": "sub"})


def test_the_client_refuses_to_send_a_destructive_call_that_may_leave_the_sandbox(
    tmp_path: Path,
) -> None:
    from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
    from agentconf.harness.session.client import Client
    from agentconf.harness.session.reach import UnsafeCall
    from agentconf.harness.target.adapters import open_adapter
    from agentconf.harness.target.adapters.base import AdapterEnv
    from agentconf.harness.target.spec import parse_spec

    with SandboxWorkspace(base=tmp_path / "ws") as ws:
        spec = parse_spec("reference")
        env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp, call_timeout_s=10.0,
                         log_dir=ws.logs)
        client = Client(open_adapter(spec, env), spec.profile, ws.root, ws.oracle, ws.sandbox)
        try:
            victim = tmp_path / "victim.txt"  # beside the sandbox: must survive
            victim.write_text("keep me")
            for path in (str(victim), "../../victim.txt", "~/x"):
                with pytest.raises(UnsafeCall):
                    client.call("delete_file", path=path)
            assert victim.read_text() == "keep me"
            ws.write("a.txt", "alpha\n")
            assert client.call("delete_file", path="a.txt").success  # inside: sent as usual
        finally:
            client.close()
