"""`agentconf init --from SPEC` drafts a profile from a real implementation: its own tools/list
and a few probe calls in a scratch sandbox. A draft of the reference (served over stdio, as a
program in another language would be) switches nothing off; a draft of the official MCP
filesystem server maps its tools as its hand-written profile does, and both judge it alike."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from cli import agentconf, assert_usage_error
from first_peer import SERVER_JS, first_peer_run, needs_first_peer

REPO = Path(__file__).resolve().parents[2]
HAND_WRITTEN = REPO / "peers/server-filesystem/agentconf.toml"
# Categories whose verdicts depend on what the draft guesses (names, arguments, capabilities,
# error patterns), short enough for the test suite.
COMPARED = "READ,CONFINE,SYMLINK"


def _draft(spec: str, work: Path) -> dict:
    done = agentconf("init", "--from", spec, str(work), cwd=work)
    assert done.returncode == 0, done.stderr
    assert "drafted from" in done.stdout
    return tomllib.loads((work / "agentconf.toml").read_text("utf-8"))


def test_a_draft_of_the_reference_maps_every_tool_by_its_own_name_and_switches_nothing_off(
    tmp_path: Path,
) -> None:
    profile = _draft(f"cmd:{sys.executable} -m agentconf serve --root {{root}}", tmp_path)
    tools = profile["tools"]
    assert {"read_file", "write_file", "edit_file", "list_files", "grep", "bash"} <= set(tools)
    assert all(table["name"] == canonical for canonical, table in tools.items())
    assert all(set(table) == {"name"} for table in tools.values()), tools  # no renamed argument
    switched_off = [name for name, on in profile.get("capabilities", {}).items() if not on]
    assert switched_off == []
    # Only its tools outside the contract are never called.
    assert not set(profile["implementation"]["exclude_tools"]) & set(tools)


def _run(profile: Path, report: Path, cwd: Path) -> dict[str, str]:
    done = agentconf("run", "--impl", str(profile), "--clauses", COMPARED, "-n", "2",
                     "--report", str(report), cwd=cwd)
    assert (report / "conformance.json").is_file(), done.stdout[-2000:] + done.stderr
    document = json.loads((report / "conformance.json").read_text("utf-8"))
    return {c["id"]: c["status"] for c in document["clauses"]}


@needs_first_peer
def test_a_draft_of_the_filesystem_server_judges_it_as_its_hand_written_profile_does(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
) -> None:
    profile = _draft(f"mcp:node {SERVER_JS} {{root}}", tmp_path)
    hand = tomllib.loads(HAND_WRITTEN.read_text("utf-8"))
    def names(tools: dict) -> dict[str, str]:
        return {c: t["name"] for c, t in tools.items() if c != "extra"}

    assert names(profile["tools"]) == names(hand["tools"])
    # Its other path tools are declared for CONFINE and SYMLINK, as the hand-written profile does.
    assert profile["tools"]["extra"] == hand["tools"]["extra"]
    assert profile["capabilities"]["grep"] is False and profile["capabilities"]["bash"] is False
    drafted = _run(tmp_path / "agentconf.toml", tmp_path / "drafted", tmp_path)
    # The hand-written profile's verdicts: the session's whole run of it (tests/first_peer.py),
    # in the compared categories.
    written = {cid: status for cid, status in first_peer_run(tmp_path_factory).clause_statuses()
               .items() if cid.split("-")[0] in COMPARED.split(",")}
    drafted = {cid: status for cid, status in drafted.items()
               if cid.split("-")[0] in COMPARED.split(",")}
    differing = {cid: (drafted.get(cid), written.get(cid))
                 for cid in set(drafted) | set(written) if drafted.get(cid) != written.get(cid)}
    assert differing == {}, differing


def test_an_implementation_that_cannot_start_is_one_line_and_no_file_is_written(
    tmp_path: Path,
) -> None:
    done = agentconf("init", "--from", "cmd:./no-such-server --root {root}", str(tmp_path),
                     cwd=tmp_path)
    assert_usage_error(done, "cannot draft", "no-such-server")
    assert not (tmp_path / "agentconf.toml").exists()


def _console_script(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`agentconf` as a user runs it: the installed script, which puts no folder on sys.path
    (`python -m agentconf` would put the current one there by itself)."""
    script = Path(sys.executable).parent / "agentconf"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    env.update(HOME=str(cwd), AGENTCONF_CACHE=str(cwd / ".cache"))
    return subprocess.run([str(script), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_python_spec_is_imported_from_the_current_folder_as_run_does(tmp_path: Path) -> None:
    (tmp_path / "my_tools.py").write_text(
        "from agentconf.reference import create as _create\n\n\n"
        "def make(workspace):\n    return _create(workspace)\n")
    (tmp_path / "out").mkdir()
    done = _console_script("init", "--from", "python:my_tools:make", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    profile = tomllib.loads((tmp_path / "out" / "agentconf.toml").read_text("utf-8"))
    assert profile["implementation"]["spec"] == "python:my_tools:make"
    assert profile["tools"]["read_file"]["name"] == "read_file"


NOISY = '''
import sys
from mcp.server.mcpserver import MCPServer

server = MCPServer("noisy")


@server.tool()
def read_file(path: str) -> str:
    """Read a file"""
    return open(path).read()


print("Noisy server starting on stdio")  # onto stdout, its JSON-RPC channel
sys.stdout.flush()
server.run()
'''


def test_a_server_printing_on_stdout_is_named_once_without_tracebacks(tmp_path: Path) -> None:
    (tmp_path / "noisy.py").write_text(NOISY)
    done = agentconf("init", "--from", f"mcp:{sys.executable} {tmp_path / 'noisy.py'}",
                     str(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "Failed to parse" not in said, said
    assert said.count("Noisy server starting on stdio") == 1, said
    assert "stdout must carry protocol messages only" in said
    # Its one tool is read_file: the console says which of the contract's tools it lacks.
    assert ("not recognised among its tools: write_file, edit_file, list_files, grep, bash"
            in done.stdout), done.stdout
