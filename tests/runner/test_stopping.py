"""A run stops cleanly: at once when the implementation cannot start, early when every check
ends in the same error, on SIGTERM with a partial report, and never leaves a process behind."""

import getpass
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from cli import agentconf

HARNESS = Path(__file__).resolve().parents[1] / "harness"


def processes_with(variable: str, value: str) -> list[int]:
    """Live processes whose environment holds variable=value (zombies are dead already)."""
    needle = f"{variable}={value}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if needle in environ.split(b"\0") and stat[stat.rindex(")") + 2] not in "ZX":
            found.append(int(entry.name))
    return found


def test_a_command_that_does_not_exist_stops_the_run_with_its_cause(tmp_path: Path) -> None:
    done = agentconf("run", "--impl", "cmd:./my-tool-server", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "No such file or directory: './my-tool-server'" in done.stderr
    assert "nothing was checked" in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.glob("reports/*/events.jsonl"))


def test_a_factory_that_raises_stops_the_run_with_its_message(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(
        "def create(workspace):\n    raise RuntimeError('database not configured')\n")
    done = agentconf("run", "--impl", "python:broken:create", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "database not configured" in done.stderr


# Lists its tools (each taking any object), then dies on every call: every check that calls it
# ends in the same error.
DIES = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    r = json.loads(line)\n"
    "    if r.get('method') == 'tools/call':\n"
    "        sys.exit(3)\n"
    "    tools = [{'name': n, 'description': n, 'input_schema': {'type': 'object'}}\n"
    "             for n in ('read_file', 'write_file')]\n"
    "    result = {'tools': tools} if r.get('method') == 'tools/list' else {}\n"
    "    print(json.dumps({'jsonrpc': '2.0', 'id': r.get('id'), 'result': result}),\n"
    "          flush=True)\n")


def test_the_same_error_over_and_over_stops_the_run_early(tmp_path: Path) -> None:
    """With the default workers (two a core): their checks interleave in the event stream, and
    the n/a ones (tools it lacks) between the errors neither break nor extend the count."""
    (tmp_path / "dies.py").write_text(DIES)
    done = agentconf("run", "--impl", f"cmd:{sys.executable} dies.py", "--report", "out",
                     cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "stopped early: 25 checks in a row ended in the same error" in done.stdout
    assert "planned checks were executed" in done.stdout
    assert "harness error" not in done.stdout.split("\n", 2)[2], done.stdout


def test_a_schema_that_accepts_any_object_leaves_the_ill_typed_check_n_a(tmp_path: Path) -> None:
    """Nothing can be ill-typed: VALIDATE-10 is n/a with the reason, before any call (it was a
    harness error: the strategy had nothing to draw)."""
    (tmp_path / "dies.py").write_text(DIES)
    done = agentconf("run", "--impl", f"cmd:{sys.executable} dies.py", "--report", "out",
                     "--clauses", "VALIDATE-10", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    events = [json.loads(line) for line in (tmp_path / "out" / "events.jsonl").read_text()
              .splitlines()]
    checks = {e["nodeid"].rsplit("[", 1)[-1]: e for e in events if e["event"] == "test"}
    for tool in ("read_file]", "write_file]"):
        assert checks[tool]["outcome"] == "n/a", checks[tool]
        assert "accepts every object" in checks[tool]["evidence"], checks[tool]


def test_an_in_process_implementation_leaves_no_daemon_and_no_file_in_the_users_folder(
    tmp_path: Path
) -> None:
    shutil.copy(HARNESS / "harness_toys.py", tmp_path / "harness_toys.py")
    # A temporary folder made at import, outside any call, as a module-level editor does.
    (tmp_path / "sprawl_at_import.py").write_text(
        "import tempfile\n"
        "tempfile.mkdtemp(prefix='toy-sprawl-import-')\n"
        "from harness_toys import create_sprawling as create\n", encoding="utf-8")
    user_tmp = tmp_path / "tmp"
    user_tmp.mkdir()
    done = agentconf("run", "--impl", "python:sprawl_at_import:create", "--clauses",
                     "CONFINE-01,RESULT-01", "--report", "out", cwd=tmp_path,
                     env_extra={"TMPDIR": str(user_tmp),
                                "AGENTCONF_CACHE": str(tmp_path / ".cache")})  # its marker
    assert (tmp_path / "out" / "conformance.json").is_file(), done.stdout + done.stderr
    assert not (tmp_path / "cwd-probe.txt").exists(), "a tool wrote into the user's folder"
    # Hypothesis' Unicode tables live in the kit's cache, not in ./.hypothesis of the user's folder.
    assert not (tmp_path / ".hypothesis").exists()
    # In the sandbox's own tmp/ (removed with it, or kept with a failing check's sandbox under
    # the kit's pytest-of-* folder), never loose in the user's TMPDIR.
    assert list(user_tmp.glob("toy-sprawl-*")) == [], "a tool's temporary folder outlived the run"
    assert processes_with("AGENTCONF_CACHE", str(tmp_path / ".cache")) == []


def test_sigterm_stops_the_run_and_its_child_and_writes_what_was_done(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    env["AGENTCONF_CACHE"] = str(tmp_path / ".cache")
    env["HOME"] = str(tmp_path)
    # SHELL's checks wait on timeouts: the run is surely still going when the signal comes.
    run = subprocess.Popen(
        [sys.executable, "-m", "agentconf", "run", "--clauses", "SHELL", "--report", "out"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    events = tmp_path / "out" / "events.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
            not events.exists() or '"event": "test"' not in events.read_text()):
        time.sleep(0.1)
    run.send_signal(signal.SIGTERM)
    output, _ = run.communicate(timeout=120)
    assert run.returncode == 128 + signal.SIGTERM, output
    assert "interrupted by SIGTERM" in output
    assert (tmp_path / "out" / "conformance.json").is_file()
    assert processes_with("AGENTCONF_CACHE", str(tmp_path / ".cache")) == []


def test_a_green_run_leaves_no_temporary_folder_and_a_red_one_keeps_its_failures_sandboxes(
    tmp_path: Path
) -> None:
    temproot = tmp_path / "temproot"  # pytest's temporary root, as the kit's /dev/shm would be
    temproot.mkdir()
    env = {"PYTEST_DEBUG_TEMPROOT": str(temproot)}
    # A kept server runs in the last sandbox until the session ends: it goes first.
    (tmp_path / "kept.toml").write_text(
        '[implementation]\nspec = "cmd:python3 -m agentconf serve --root {root}"\n'
        'reuse = "worker"\n', encoding="utf-8")
    green = agentconf("run", "--impl", "kept.toml", "--clauses", "REGISTRY", "--report", "green",
                      cwd=tmp_path, env_extra=env)
    assert green.returncode == 0, green.stdout + green.stderr
    assert "Traceback" not in green.stdout + green.stderr
    assert [p for p in temproot.rglob("*") if p.name != f"pytest-of-{getpass.getuser()}"] == []
    assert "sandboxes are kept" not in green.stdout

    shutil.copy(HARNESS / "harness_toys.py", tmp_path / "harness_toys.py")
    red = agentconf("run", "--impl", "python:harness_toys:create_leaky", "--clauses", "CONFINE-01",
                    "--report", "red", cwd=tmp_path, env_extra=env)
    assert red.returncode == 1, red.stdout + red.stderr
    kept = list(temproot.glob("pytest-of-*/pytest-*/ws-*/sandbox"))
    assert kept, sorted(map(str, temproot.rglob("*")))
    # and the console says where, so a user does not find them by hand
    said = re.search(r"the failing checks' sandboxes are kept in (\S+)", red.stdout)
    assert said is not None and Path(said.group(1)) == kept[0].parents[1], red.stdout


def test_a_run_whose_pytest_exits_before_run_end_shows_the_end_of_its_log(tmp_path: Path) -> None:
    """An in-process tool that ends the process (os._exit) ends pytest before run_end: the
    report says the run did not finish, and the console shows why (pytest's log may be gone)."""
    (tmp_path / "quitter.py").write_text(
        "import os\n"
        "from agentconf.reference import create as reference\n"
        "class Quitter:\n"
        "    def __init__(self, workspace):\n"
        "        self._inner = reference(workspace)\n"
        "    def list_tools(self):\n"
        "        return self._inner.list_tools()\n"
        "    def call_tool(self, name, arguments):\n"
                "        os._exit(0)\n"
        "def create(workspace):\n"
        "    return Quitter(workspace)\n", "utf-8")
    done = agentconf("run", "--impl", "python:quitter:create", "--clauses", "READ-01", "-n", "0",
                     cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "pytest exited with status 0 before its run_end event" in done.stdout, done.stdout
    assert "the run did not finish (no run_end event)" in done.stdout, done.stdout
