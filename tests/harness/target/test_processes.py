"""A process a check's scenario made the implementation start is stopped when the check ends,
whatever the check found: a shell ignoring SIGTERM, left by an implementation whose timeout
sends only SIGTERM, outlived two matrix runs (harness/target/processes.py `stop_left`)."""

import subprocess
import time
from pathlib import Path

from agentconf.harness.target.processes import alive, stop_left

STUBBORN = "trap '' TERM; while true; do sleep 0.2; done"


def test_a_process_left_in_the_sandbox_is_killed_and_one_elsewhere_is_not(tmp_path: Path) -> None:
    sandbox, elsewhere = tmp_path / "sandbox", tmp_path / "elsewhere"
    sandbox.mkdir()
    elsewhere.mkdir()
    # Its own session: no process group or terminal of the kit's reaches it.
    inside = subprocess.Popen(["sh", "-c", STUBBORN], cwd=sandbox, start_new_session=True)
    outside = subprocess.Popen(["sh", "-c", STUBBORN], cwd=elsewhere, start_new_session=True)
    try:
        time.sleep(0.5)  # its trap set
        inside.terminate()  # SIGTERM: ignored
        time.sleep(0.2)
        assert inside.poll() is None and alive(inside.pid)
        assert stop_left([inside.pid, outside.pid], sandbox) == [inside.pid]
        assert inside.wait(timeout=5) == -9
        assert alive(outside.pid), "a process outside the sandbox was killed"
    finally:
        for process in (inside, outside):
            process.kill()
            process.wait(timeout=5)


def test_a_process_already_gone_is_left_alone(tmp_path: Path) -> None:
    done = subprocess.Popen(["true"], cwd=tmp_path)
    done.wait(timeout=5)
    assert stop_left([done.pid], tmp_path) == []
