"""`reuse = "worker"`: one server per pytest worker, a fresh sandbox at the same place per test.

End to end in a child pytest with a real cmd: server that tells who it is (pid, cwd, HOME) and
how many calls it has seen, so the tests can see it kept, and see each test's sandbox fresh.
"""

import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from agentconf.harness.disk.sandbox_workspace import (
    SandboxWorkspace,
    _retry_writable,
    copy_sandbox,
    empty_for_reuse,
)
from agentconf.harness.profile.model import ProfileError, parse_profile
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import parse_spec

pytest_plugins = ["pytester"]

SERVER = textwrap.dedent('''
    import json, os, sys
    calls = 0
    tool = {"name": "read_file", "description": "who am I", "kind": "read",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("method") == "tools/list":
            result = {"tools": [tool]}
        elif request.get("method") == "tools/call":
            calls += 1
            me = {"pid": os.getpid(), "cwd": os.getcwd(), "home": os.environ["HOME"],
                  "calls": calls}
            result = {"success": True, "data": json.dumps(me)}
        else:
            result = None
        answer = {"jsonrpc": "2.0", "id": request.get("id")}
        if result is None:
            answer["error"] = {"code": -32601, "message": "method not found"}
        else:
            answer["result"] = result
        sys.stdout.write(json.dumps(answer) + "\\n")
        sys.stdout.flush()
''')

PROFILE = '''
[implementation]
spec = "cmd:{python} {server}"
reuse = "worker"

[capabilities]
read_before_edit = false
stale_read = false
'''

# Each test records what the server told it; the last one compares them all.
CHECKS = '''
import json, os
import pytest

RECORD = os.environ["REUSE_RECORD"]

def seen(client, ws):
    me = json.loads(client.call("read_file", path="x").data)
    with open(RECORD, "a") as record:
        record.write(json.dumps({**me, "root": str(ws.root), "ws_home": str(ws.home),
                                 "entries": sorted(os.listdir(ws.root))}) + "\\n")
    return me

@pytest.mark.clause("RESULT-01")
def test_1_leaves_things_in_the_root(ws, client):
    seen(client, ws)
    ws.write("left/behind.txt", "x")
    os.chmod(ws.root, 0o555)

@pytest.mark.clause("RESULT-01")
def test_2_finds_a_fresh_root(ws, client):
    seen(client, ws)

@pytest.mark.clause("RESULT-01")
def test_3_fails(ws, client):
    seen(client, ws)
    ws.write("evidence.txt", "kept")
    assert False, "a failure"

@pytest.mark.clause("RESULT-01")
def test_4_after_the_failure(ws, client):
    seen(client, ws)

@pytest.mark.clause("RESULT-01")
def test_5_runs_a_command_and_fails(ws, client):
    seen(client, ws)
    client.call("bash", command="true")  # its children could still be at work
    ws.write("evidence.txt", "after a command")
    assert False, "a failure"

@pytest.mark.clause("RESULT-01")
def test_6_after_the_command(ws, client):
    seen(client, ws)

@pytest.mark.clause("RESULT-01")
def test_7_meets_a_bug_of_the_kit(ws, client):
    seen(client, ws)
    ws.write("evidence.txt", "a bug")
    raise KeyError("ours")

@pytest.mark.clause("RESULT-01")
def test_8_after_the_bug(ws, client):
    seen(client, ws)
'''


def run_child(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    server = pytester.path / "server.py"
    server.write_text(SERVER)
    profile = pytester.path / "agentconf.toml"
    profile.write_text(PROFILE.format(python=sys.executable, server=server))
    record = pytester.path / "record.jsonl"
    monkeypatch.setenv("REUSE_RECORD", str(record))
    pytester.makepyfile(test_checks=CHECKS)
    result = pytester.runpytest_subprocess("--agentconf-profile", str(profile),
                                           "-p", "no:cacheprovider", timeout=240)
    result.assert_outcomes(passed=5, failed=3)
    return [json.loads(line) for line in record.read_text().splitlines()]


def test_clean_tests_share_one_server_and_each_gets_a_fresh_root(pytester, monkeypatch) -> None:
    first, second, third, *_ = run_child(pytester, monkeypatch)
    assert first["pid"] == second["pid"] == third["pid"]
    assert (first["calls"], second["calls"], third["calls"]) == (1, 2, 3)
    assert second["entries"] == [] and second["root"] == first["root"]
    # What a freshly started server would see: its cwd is the root, HOME this test's home.
    assert second["cwd"] == second["root"]
    assert second["home"] == second["ws_home"]


def _set_aside(root: str) -> list[str]:
    """What the other sandboxes beside this one's base (the failures' copies among them) hold
    in evidence.txt."""
    base = Path(root).parent.parent
    return sorted(path.read_text() for path in
                  base.parent.glob(f"ws-*/{Path(root).relative_to(base)}/evidence.txt")
                  if not path.is_relative_to(base))


def test_a_plain_departure_keeps_the_server_and_a_copy_of_its_sandbox(
    pytester, monkeypatch
) -> None:
    _, _, third, fourth, *_ = run_child(pytester, monkeypatch)
    assert fourth["pid"] == third["pid"] and fourth["calls"] == 4
    assert fourth["root"] == third["root"] and fourth["entries"] == []
    assert fourth["cwd"] == fourth["root"] and fourth["home"] == fourth["ws_home"]
    assert "kept" in _set_aside(third["root"])  # the failure's sandbox, copied out whole


def test_a_failure_after_a_command_or_a_bug_of_the_kit_retires_the_server_and_keeps_its_sandbox(
    pytester, monkeypatch
) -> None:
    *_, fifth, sixth, seventh, eighth = run_child(pytester, monkeypatch)
    for failed, after, evidence in ((fifth, sixth, "after a command"), (seventh, eighth, "a bug")):
        assert after["pid"] != failed["pid"] and after["calls"] == 1
        assert after["root"] != failed["root"]
        assert after["cwd"] == after["root"] and after["home"] == after["ws_home"]
        assert Path(failed["root"], "evidence.txt").read_text() == evidence  # left in place
        assert evidence not in _set_aside(failed["root"])


def test_a_failures_copy_keeps_links_fifos_and_modes_without_opening_a_fifo(
    tmp_path: Path
) -> None:
    source, target = tmp_path / "base", tmp_path / "copy"
    (source / "root" / "locked").mkdir(parents=True)
    (source / "root" / "a.txt").write_bytes(b"a\r\n")
    os.chmod(source / "root" / "a.txt", 0o640)
    os.symlink("/nowhere/at/all", source / "root" / "dangling")
    os.mkfifo(source / "root" / "pipe")  # nothing writes to it: opening it would block
    (source / "root" / "locked" / "in.txt").write_text("in")
    os.chmod(source / "root" / "locked", 0o555)
    target.mkdir()
    copy_sandbox(source, target)
    copied = target / "root"
    assert (copied / "a.txt").read_bytes() == b"a\r\n"
    assert stat.S_IMODE(os.lstat(copied / "a.txt").st_mode) == 0o640
    assert os.readlink(copied / "dangling") == "/nowhere/at/all"
    assert stat.S_ISFIFO(os.lstat(copied / "pipe").st_mode)
    assert (copied / "locked" / "in.txt").read_text() == "in"
    assert stat.S_IMODE(os.lstat(copied / "locked").st_mode) == 0o555
    for folder in (source / "root" / "locked", copied / "locked"):
        os.chmod(folder, 0o755)  # for pytest's own clean-up


def test_emptying_keeps_the_root_folder_and_its_first_mode(tmp_path: Path) -> None:
    base = tmp_path / "base"
    ws = SandboxWorkspace(base=base)
    info = os.lstat(ws.root)
    ws.write("deep/er/file.txt", "x")
    ws.symlink("out", ws.outside)
    os.chmod(ws.root / "deep", 0o500)
    os.chmod(ws.root, 0o500)
    (ws.logs / "server.stderr").write_text("kept")
    (base / "stray").write_text("gone")
    assert empty_for_reuse(base, (info.st_dev, info.st_ino), info.st_mode & 0o7777)
    after = os.lstat(ws.root)
    assert (after.st_ino, after.st_mode) == (info.st_ino, info.st_mode)
    assert os.listdir(ws.root) == []
    assert sorted(os.listdir(base / "sandbox")) == ["root"]
    assert sorted(os.listdir(base)) == ["harness", "sandbox"]
    assert (ws.logs / "server.stderr").read_text() == "kept"
    assert not ws.outside.exists()  # the canaries are built again, with a new secret
    again = SandboxWorkspace(base=base)
    assert again.secret != ws.secret and again.oracle.changes() == []


def test_a_root_that_was_replaced_is_not_reused(tmp_path: Path) -> None:
    base = tmp_path / "base"
    ws = SandboxWorkspace(base=base)
    info = os.lstat(ws.root)
    ws.write("a.txt", "x")
    ws.root.rename(ws.sandbox / "moved")
    ws.root.mkdir()
    assert not empty_for_reuse(base, (info.st_dev, info.st_ino), 0o755)
    assert (ws.sandbox / "moved" / "a.txt").exists()  # nothing was removed


# shutil.rmtree reports a folder it could not enter as a failed os.open: a kept Desktop Commander
# removing its config's lock folder while its HOME was emptied made the kit retry os.open(path),
# a TypeError charged to the test as a harness error.
_CANNOT_ENTER = """
import os
from pathlib import Path
from agentconf.harness.disk.sandbox_workspace import remove_tree
os.makedirs("own/tree/locked/inner")
open("own/tree/locked/inner/file.txt", "w").close()
if os.geteuid() == 0:  # root enters any folder: become nobody, owning the tree
    for folder, _, files in os.walk("own"):
        for name in [folder, *(os.path.join(folder, f) for f in files)]:
            os.chown(name, 65534, 65534)
os.chdir("own")  # from inside: nobody may not search the folders above it
if os.geteuid() == 0:
    os.setgid(65534)
    os.setuid(65534)
os.chmod("tree/locked", 0)
remove_tree(Path("tree"))
print(os.path.exists("tree"))
"""


def test_a_folder_removal_could_not_enter_is_made_enterable_and_removed(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _CANNOT_ENTER], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]


def test_a_folder_that_vanished_before_removal_entered_it_counts_as_removed(
        tmp_path: Path) -> None:
    vanished = tmp_path / "config.lock"
    error = FileNotFoundError(errno.ENOENT, "No such file or directory", str(vanished))
    # shutil.rmtree's own call, for an os.open that lost the race with the server's rmdir
    _retry_writable(os.open, str(vanished), (FileNotFoundError, error, None))
    assert not vanished.exists()


@pytest.mark.parametrize(("table", "message"), [
    ('reuse = "forever"', "reuse: Input should be 'worker'"),
    ("reuse = true", "reuse: Input should be 'worker'"),
])
def test_a_profile_asking_for_reuse_it_cannot_have_is_refused(table: str, message: str) -> None:
    import tomllib

    data = tomllib.loads(f'[implementation]\nspec = "mcp:x"\n{table}\n')
    with pytest.raises(ProfileError, match=message):
        parse_profile(data)


# The same server with its session features on (the profile leaves them as they are), offering
# more tools: each answers who it is, except a call with path "refuse", answered INVALID_ARGS,
# and a tool it does not offer, TOOL_NOT_FOUND.
SESSION_SERVER = SERVER.replace(
    'tool = {"name": "read_file", "description": "who am I", "kind": "read",',
    'tools = [{"name": name, "description": "who am I", "input_schema": {"type": "object", '
    '"properties": {"path": {"type": "string"}, "command": {"type": "string"}, '
    '"pattern": {"type": "string"}}}} for name in '
    '("read_file", "list_files", "grep", "bash", "tool_search")]\n'
    'tool = {"name": "read_file", "description": "who am I", "kind": "read",',
).replace('result = {"tools": [tool]}', 'result = {"tools": tools}').replace(
    'result = {"success": True, "data": json.dumps(me)}',
    'result = {"success": True, "data": json.dumps(me)}\n'
    '        if request["params"].get("arguments", {}).get("path") == "refuse":\n'
    '            result = {"success": False, "data": "path: refused", '
    '"error": "INVALID_ARGS", "issues": [{"path": "path", "expected": "another path", '
    '"received": "refuse", "message": "refused"}]}\n'
    '        if request["params"]["name"] not in [t["name"] for t in tools]:\n'
    '            result = {"success": False, "data": "no such tool", "error": "TOOL_NOT_FOUND"}',
) + textwrap.dedent('''
    # Its input ended: a polite close. A retired server never gets here (test_retire.py).
    with open(os.environ["REUSE_RECORD"], "a") as record:
        record.write(json.dumps({"goodbye": os.getpid()}) + "\\n")
''')

SESSION_CHECKS = '''
import json, os
import pytest

RECORD = os.environ["REUSE_RECORD"]

def pid(client):
    return json.loads(client.call("grep", pattern="x").data)["pid"]

def note(**seen):
    with open(RECORD, "a") as record:
        record.write(json.dumps(seen) + "\\n")

@pytest.mark.clause("RESULT-01")
def test_1_neutral_calls(client):
    client.list_tools()
    client.call("list_files", path=".")
    note(first=pid(client),
         refused=client.call("read_file", path="refuse").error,
         unknown=client.call_raw("no_such_tool", {}).error)

@pytest.mark.clause("RESULT-01")
@pytest.mark.parametrize(("seen", "then"), [
    ("second", ("read_file", {"path": "a.txt"})),
    ("third", ("tool_search", {"path": "x"})),
    ("fourth", ("bash", {"command": "true"})),
    ("fifth", None),
])
def test_2_who_answers_then_one_call(client, seen, then):
    note(**{seen: pid(client)})
    if then is not None:
        client.call(then[0], **then[1])

@pytest.mark.clause("RESULT-01")
@pytest.mark.requires("tool_search")
def test_3_depends_on_a_fresh_session(client):
    note(sixth=pid(client))
'''


# Whether the test after the one that read, the one that revealed tools (tool_search) and the one
# that ran a command met a new server, and whether the last test, which depends on a fresh
# session (it requires tool_search), did. What a reveal revealed stays listed whatever the
# session features: the last test needs a server that revealed nothing, in every mode.
@pytest.mark.parametrize(("reuse", "features", "retired", "fresh"), [
    ("worker", "on", [False] * 3, True),  # no [capabilities]: read_before_edit, stale_read on
    ("worker-stateful", "off", [False] * 3, True),  # taken to keep a session whatever they say
    ("worker-fresh-shell", "off", [False, False, True], False),  # retired after the command
    ("worker", "off", [False] * 3, True),  # the features off, but the third test revealed
])
def test_a_server_is_shared_until_a_check_depends_on_a_session_no_other_check_shaped(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, reuse: str, features: str,
    retired: list[bool], fresh: bool,
) -> None:
    server = pytester.path / "server.py"
    server.write_text(SESSION_SERVER)
    profile = pytester.path / "agentconf.toml"
    text = PROFILE.format(python=sys.executable, server=server).replace(
        'reuse = "worker"', f'reuse = "{reuse}"')
    profile.write_text(text if features == "off" else text.split("[capabilities]")[0])
    record = pytester.path / "record.jsonl"
    monkeypatch.setenv("REUSE_RECORD", str(record))
    pytester.makepyfile(test_checks=SESSION_CHECKS)
    result = pytester.runpytest_subprocess("--agentconf-profile", str(profile),
                                           "-p", "no:cacheprovider", timeout=240)
    result.assert_outcomes(passed=6)
    seen: dict[str, Any] = {}
    for line in record.read_text().splitlines():
        seen |= json.loads(line)
    # A listing, list_files, grep and calls refused before they ran keep it...
    assert seen["refused"] == "INVALID_ARGS" and seen["unknown"] == "TOOL_NOT_FOUND"
    assert seen["first"] == seen["second"]
    # ...and so do a read and a reveal (tool_search): only a shell that keeps a cd is retired
    # after a command. The check that depends on a fresh session meets a new server where an
    # earlier check may have shaped the session of the one kept, or revealed tools in it.
    after = [seen["third"] != seen["second"], seen["fourth"] != seen["third"],
             seen["fifth"] != seen["fourth"]]
    assert after == retired, seen
    assert (seen["sixth"] != seen["fifth"]) is fresh, seen
    # Every server was retired (killed) once its checks were judged, none closed politely.
    assert "goodbye" not in seen, seen


def _kept_reference(tmp_path: Path) -> Any:
    """A worker's kept server of the in-process reference, without session features, its
    bases numbered folders of `tmp_path`."""
    from agentconf.harness.target.reuse import WorkerServer

    profile = parse_profile({"implementation": {"reuse": "worker"},
                             "capabilities": {"read_before_edit": False, "stale_read": False}})
    bases = iter(tmp_path / f"base{n}" for n in range(9))

    def new_base() -> Path:
        base = next(bases)
        base.mkdir()
        return base

    return WorkerServer(parse_spec("reference", profile), new_base)


def test_an_in_process_object_is_kept_for_the_worker_and_rebuilt_only_when_retired(
    tmp_path: Path,
) -> None:
    """A python: factory's object is kept as a server is: one build for checks that share it,
    a new one once the kept one is retired (a timed-out call stops its session)."""
    kept = _kept_reference(tmp_path)
    try:
        objects = []
        for _ in range(3):
            workspace = SandboxWorkspace(base=kept.base())
            env = AdapterEnv(root=workspace.root, home=workspace.home, tmp=workspace.tmp)
            lease = kept.open(env)
            objects.append(lease.adapter)
            assert lease.call_tool("list_files", {"path": "."})["success"]
            kept.release(clean=True)
        assert kept.started == 1 and objects[0] is objects[1] is objects[2]
        objects[0]._stopped = "a call timed out"  # what a hung call does to the session
        workspace = SandboxWorkspace(base=kept.base())
        lease = kept.open(AdapterEnv(root=workspace.root, home=workspace.home, tmp=workspace.tmp))
        assert kept.started == 2 and lease.adapter is not objects[0]
    finally:
        kept.close()


def test_a_check_that_called_a_declared_extra_tool_retires_the_kept_server(
    tmp_path: Path,
) -> None:
    """What a tool outside the contract changed in the server (its default working folder set
    to a folder of this root) no probe settled: the next check gets a server of its own."""
    kept = _kept_reference(tmp_path)
    try:
        objects = []
        for beyond in (False, True, False):
            workspace = SandboxWorkspace(base=kept.base())
            env = AdapterEnv(root=workspace.root, home=workspace.home, tmp=workspace.tmp)
            objects.append(kept.open(env).adapter)
            kept.release(clean=True, beyond=beyond)
        assert objects[0] is objects[1] and objects[2] is not objects[1]
    finally:
        kept.close()


class _Cancellable:
    name, version, alive = "toy", "1", True

    def call_and_cancel(self, name: str, arguments: Any, ready: Any) -> dict[str, Any] | None:
        return {"success": False, "data": f"cancelled {name}", "error": "CANCELLED"}


class _Plain:
    name, version, alive = "plain", "1", True


def test_a_kept_server_can_still_cancel_a_call() -> None:
    # Every reused peer's CANCEL checks were n/a ("the _Lease cannot cancel a call"): the lease
    # hid its server's call_and_cancel, so a command left running by a cancel went unjudged.
    from agentconf.harness.target.reuse import _Lease
    from agentconf.harness.verdicts.errors import CancelUnsupported

    lease: Any = _Lease(_Cancellable())  # type: ignore[arg-type]
    cancel = getattr(lease, "call_and_cancel", None)
    assert cancel is not None
    assert cancel("bash", {"command": "sleep 9"}, lambda: True)["error"] == "CANCELLED"
    plain: Any = _Lease(_Plain())  # type: ignore[arg-type]
    with pytest.raises(CancelUnsupported, match="cannot cancel a call"):
        plain.call_and_cancel("bash", {}, lambda: True)
