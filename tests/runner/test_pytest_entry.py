"""`pytest --agentconf-impl X` runs the packaged suites from any folder, as `agentconf run` does."""

import os
import subprocess
import sys
from pathlib import Path


def test_pytest_with_an_implementation_and_no_paths_runs_the_packaged_suites(
    tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--agentconf-impl",
         "reference", "--agentconf-clauses", "READ-01", "-n", "0"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "deselected" in done.stdout
    # hypothesis's own folder is the project's, as in any pytest run with hypothesis; nothing else.
    written = [path.name for path in tmp_path.iterdir() if path.name != ".hypothesis"]
    assert not written, f"the run wrote {written} into the user's folder"
