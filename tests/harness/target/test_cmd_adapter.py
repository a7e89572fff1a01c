"""The cmd: adapter against tiny misbehaving programs: every one ends in a clear failure within
bounded time, and nothing of it is left running."""

import json
import sys
import time
from pathlib import Path

import pytest
from harness_programs import write_server

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.adapters.cmd import CmdAdapter, open_cmd
from agentconf.harness.verdicts.errors import ContractViolation, ImplementationFailure

TIMEOUT_S = 1.5
# A hang is detected after TIMEOUT_S; the kill adds at most a couple of seconds. Anything near
# this bound means the harness itself hung: it detects hangs, it does not measure speed.
HANG_BOUND_S = 30


@pytest.fixture
def sandbox(tmp_path: Path) -> SandboxWorkspace:
    workspace = SandboxWorkspace(base=tmp_path)
    workspace.write("a.txt", "hello\n")
    return workspace


def start(sandbox: SandboxWorkspace, mode: str) -> CmdAdapter:
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp,
                     call_timeout_s=TIMEOUT_S, log_dir=sandbox.logs)
    return open_cmd([*write_server(sandbox.base), mode], env, label=f"cmd:toy {mode}")


def live_members(pgid: int) -> list[int]:
    """Processes of the group that still run. Zombies do not count: they are dead, and whether
    init has reaped them yet is not the harness's doing."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            alive.append(int(entry.name))
    return alive


def group_is_gone(adapter: CmdAdapter) -> bool:
    return not live_members(adapter._process.pid)


def run_to_failure(sandbox: SandboxWorkspace, mode: str, method: str = "call") -> Exception:
    adapter = start(sandbox, mode)
    began = time.monotonic()
    try:
        with pytest.raises((ImplementationFailure, ContractViolation)) as caught:
            if method == "list":
                adapter.list_tools()
            else:
                adapter.call_tool("read_file", {"path": "a.txt"})
    finally:
        adapter.close()
    assert time.monotonic() - began < HANG_BOUND_S
    assert group_is_gone(adapter), "processes of the implementation were left running"
    return caught.value


def test_a_well_behaved_program_answers_list_and_call(sandbox) -> None:
    adapter = start(sandbox, "good")
    try:
        assert [tool["name"] for tool in adapter.list_tools()] == ["read_file"]
        assert adapter.call_tool("read_file", {"path": "a.txt"}) == {"success": True,
                                                                     "data": "hello\n"}
    finally:
        adapter.close()
    assert group_is_gone(adapter)


def test_the_program_runs_in_the_root_with_home_and_tmpdir_in_the_sandbox(sandbox) -> None:
    probe = sandbox.base / "probe.py"
    probe.write_text(
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    env = {k: os.environ.get(k) for k in ('HOME', 'TMPDIR', 'AGENTCONF_ROOT')}\n"
        "    env['cwd'] = os.getcwd()\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': r['id'],\n"
        "                      'result': {'success': True, 'data': json.dumps(env)}}),\n"
        "          flush=True)\n"
    )
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    adapter = open_cmd([sys.executable, str(probe)], env)
    try:
        seen = adapter.call_tool("anything", {})["data"]
    finally:
        adapter.close()
    assert json.loads(seen) == {
        "HOME": str(sandbox.home), "TMPDIR": str(sandbox.tmp),
        "AGENTCONF_ROOT": str(sandbox.root), "cwd": str(sandbox.root)}


def test_name_and_version_come_from_an_initialize_answer(sandbox) -> None:
    adapter = start(sandbox, "named")
    try:
        adapter.list_tools()
        assert (adapter.name, adapter.version) == ("toy", "1.2")
    finally:
        adapter.close()


def test_method_not_found_for_initialize_is_fine(sandbox) -> None:
    adapter = start(sandbox, "good")
    try:
        adapter.list_tools()
        assert adapter.name == "cmd:toy good" and adapter.version is None
    finally:
        adapter.close()


def test_a_hung_call_is_killed_and_reported_as_a_timeout(sandbox) -> None:
    failure = run_to_failure(sandbox, "hang")
    assert isinstance(failure, ImplementationFailure)
    assert f"did not answer tools/call within {TIMEOUT_S:g} s" in str(failure)


def test_a_crash_reports_the_exit_status_and_the_tail_of_stderr(sandbox) -> None:
    failure = run_to_failure(sandbox, "crash")
    assert isinstance(failure, ImplementationFailure)
    assert "exit status 7" in str(failure)
    assert "something broke in read_file" in str(failure)


def test_a_program_that_dies_at_start_is_reported_with_its_stderr(sandbox) -> None:
    failure = run_to_failure(sandbox, "crash_at_start", method="list")
    assert isinstance(failure, ImplementationFailure)
    assert "cannot open the database" in str(failure)


def test_garbage_and_partial_lines_end_in_a_timeout_not_a_crash(sandbox) -> None:
    failure = run_to_failure(sandbox, "garbage")
    assert isinstance(failure, ImplementationFailure)
    assert "not JSON: this is not json" in str(failure)


def test_an_answer_with_the_wrong_id_does_not_count(sandbox) -> None:
    failure = run_to_failure(sandbox, "wrong_id")
    assert isinstance(failure, ImplementationFailure)
    assert "answer to no open request (id 100" in str(failure)


def test_a_partial_answer_then_exit_is_a_failure(sandbox) -> None:
    failure = run_to_failure(sandbox, "partial_then_exit")
    assert isinstance(failure, ImplementationFailure)
    assert "exited before answering tools/call" in str(failure)


def test_a_json_rpc_error_to_tools_call_is_a_contract_violation(sandbox) -> None:
    failure = run_to_failure(sandbox, "rpc_error")
    assert isinstance(failure, ContractViolation)
    assert "RESULT-04" in str(failure) and "-32601" in str(failure)


def test_a_json_rpc_error_to_tools_list_is_an_implementation_failure(sandbox) -> None:
    failure = run_to_failure(sandbox, "list_error", method="list")
    assert isinstance(failure, ImplementationFailure)
    assert "tools/list" in str(failure)


def test_a_child_that_keeps_stdout_open_does_not_hang_the_harness(sandbox) -> None:
    failure = run_to_failure(sandbox, "grandchild")
    assert isinstance(failure, ImplementationFailure)
    assert "exited before answering" in str(failure)


def test_a_second_answer_to_one_request_is_ignored(sandbox) -> None:
    adapter = start(sandbox, "twice")
    try:
        first = adapter.call_tool("read_file", {"path": "a.txt"})
        second = adapter.call_tool("read_file", {"path": "missing.txt"})
    finally:
        adapter.close()
    assert first["data"] == "hello\n"
    assert second["error"] == "NOT_FOUND"
    assert any("answer to no open request" in line for line in adapter.noise)


def test_calls_in_flight_together_get_their_own_answers(sandbox) -> None:
    sandbox.write("slow.txt", "slow\n")
    sandbox.write("b.txt", "bee\n")
    adapter = start(sandbox, "slow_sleep")
    try:
        answers = adapter.call_many([("read_file", {"path": "slow.txt"}),
                                     ("read_file", {"path": "b.txt"}),
                                     ("read_file", {"path": "a.txt"})])
    finally:
        adapter.close()
    assert [answer["data"] for answer in answers] == ["slow\n", "bee\n", "hello\n"]


def test_a_command_that_does_not_exist_cannot_start(sandbox) -> None:
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp, log_dir=sandbox.logs)
    with pytest.raises(ImplementationFailure, match="could not start"):
        open_cmd([str(sandbox.base / "no-such-program")], env)


def test_calls_after_a_kill_fail_at_once(sandbox) -> None:
    adapter = start(sandbox, "hang")
    try:
        with pytest.raises(ImplementationFailure):
            adapter.call_tool("read_file", {"path": "a.txt"})
        began = time.monotonic()
        with pytest.raises(ImplementationFailure):
            adapter.call_tool("read_file", {"path": "a.txt"})
        assert time.monotonic() - began < HANG_BOUND_S
    finally:
        adapter.close()
