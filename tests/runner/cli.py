"""Runs the real `agentconf` command in a subprocess, as a user would."""

import os
import subprocess
import sys
from pathlib import Path

TIMEOUT_S = 600  # only to turn a hang into a failure; never a performance assertion


def agentconf(*args: str, cwd: Path, timeout: float = TIMEOUT_S,
              env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    # Nothing of a run may leave the temp dir: the session's cache (tests/conftest.py, in the
    # temp dir) shared by every run, so none builds bytecode and Unicode tables again.
    env["AGENTCONF_CACHE"] = os.environ.get("AGENTCONF_CACHE") or str(cwd / ".cache")
    env["HOME"] = str(cwd)
    env.update(env_extra or {})
    # As in an activated virtual environment: `python3` is the one agentconf is installed in.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return subprocess.run([sys.executable, "-m", "agentconf", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def assert_usage_error(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
