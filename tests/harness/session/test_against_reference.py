"""The harness against the real reference: in process and over `agentconf serve` (cmd:)."""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.client import Client
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import parse_spec
from agentconf.harness.verdicts.errors import EscapeDetected

pytest_plugins = ["pytester"]

SERVE = f"cmd:{sys.executable} -m agentconf serve --root {{root}}"


@pytest.fixture(params=["reference", SERVE], ids=["in-process", "cmd-serve"])
def session(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[SandboxWorkspace,
                                                                              Client]]:
    sandbox = SandboxWorkspace(base=tmp_path)
    spec = parse_spec(request.param)
    env = AdapterEnv(root=sandbox.root, home=sandbox.home, tmp=sandbox.tmp,
                     call_timeout_s=30, log_dir=sandbox.logs)
    client = Client(open_adapter(spec, env), spec.profile, sandbox.root, sandbox.oracle,
                    sandbox.sandbox)
    try:
        yield sandbox, client
    finally:
        client.close()


def test_the_reference_advertises_the_canonical_tools(session) -> None:
    _, client = session
    for tool in ("read_file", "write_file", "edit_file", "list_files"):
        assert client.has(tool), tool
        assert client.schema(tool)["type"] == "object"


def test_a_write_then_read_round_trips_through_the_harness(session) -> None:
    sandbox, client = session
    written = client.call("write_file", path="notes/a.txt", content="one\ntwo\n")
    assert written.success, written.evidence()
    assert sandbox.read_bytes("notes/a.txt") == b"one\ntwo\n"
    read = client.call("read_file", path="notes/a.txt")
    assert read.success and "two" in read.data, read.evidence()


def test_the_reference_refuses_to_write_outside_and_the_oracle_agrees(session) -> None:
    sandbox, client = session
    sandbox.link_farm()
    for path in ("../escape.txt", "a/../../escape.txt", "dangling_out", "../root_evil/a.txt"):
        result = client.call("write_file", path=path, content="x")
        assert not result.success, result.evidence()
        assert result.error is not None
    sandbox.oracle.check()


def test_a_secret_read_through_a_link_would_be_caught(session) -> None:
    sandbox, client = session
    sandbox.link_farm()
    # Done by hand: the reference refuses, so prove the oracle would see a leak in its answer.
    result = client.call("read_file", path="link_out_file")
    assert not result.success, result.evidence()
    with pytest.raises(EscapeDetected):
        sandbox.oracle.check(result.data + sandbox.secret)


def test_an_unknown_tool_is_an_envelope(session) -> None:
    _, client = session
    result = client.call_raw("agentconf_no_such_tool", {})
    assert (result.success, result.error) == (False, "TOOL_NOT_FOUND"), result.evidence()


def test_the_plugin_runs_the_shipped_registry_suite_against_the_reference(
    pytester: pytest.Pytester,
) -> None:
    from agentconf.harness.resources import suites_dir

    stream = pytester.path / "events.jsonl"
    result = pytester.runpytest_subprocess(
        str(suites_dir() / "registry" / "test_registry.py"), "--agentconf-events", str(stream),
        "-p", "no:cacheprovider", "--rootdir", str(pytester.path), timeout=300)
    import json

    records = [json.loads(line) for line in stream.read_text().splitlines()]
    tests = [r for r in records if r["event"] == "test"]
    assert records[0]["planned"] == len(tests) == records[-1]["executed"] > 0
    assert {r["outcome"] for r in tests} <= {"pass", "n/a"}, [
        (r["nodeid"], r["outcome"], r["evidence"][:300]) for r in tests
        if r["outcome"] not in ("pass", "n/a")]
    assert result.ret == 0
