"""The cmd: adapter's stream building blocks hold bounded memory and disk whatever comes in."""

import os
import subprocess
import sys
import time
from pathlib import Path

from agentconf.harness.target.adapters import pipes
from agentconf.harness.target.adapters.base import SESSION_VARIABLE, kill_marked
from agentconf.harness.target.adapters.pipes import _Lines, _StderrLog


def test_lines_split_across_chunks_are_joined() -> None:
    lines = _Lines()
    assert lines.feed(b'{"id": 1') == []
    assert lines.feed(b'}\n{"id": 2}\n{"id"') == [b'{"id": 1}', b'{"id": 2}']
    assert lines.unfinished == len(b'{"id"')


def test_a_line_longer_than_the_limit_is_skipped_and_the_next_one_kept(monkeypatch) -> None:
    monkeypatch.setattr(pipes, "MAX_LINE_BYTES", 1000)
    lines = _Lines()
    for _ in range(50):  # 50 KB without a newline: never held whole
        assert lines.feed(b"x" * 1000) == []
        assert sum(map(len, lines._parts)) <= 2000
    assert lines.feed(b"tail\n{\"ok\": true}\n") == [b'{"ok": true}']
    assert lines.skipped == 1
    assert lines.unfinished == 0


def test_stderr_keeps_the_first_bytes_on_disk_and_the_tail_in_memory(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(pipes, "STDERR_KEEP_BYTES", 10_000)
    log = _StderrLog(tmp_path / "stderr.log")
    for index in range(100):
        log.take(f"line {index:04d} ".encode() * 100)
    log.take(b"the last words\n")
    log.close()
    assert (tmp_path / "stderr.log").stat().st_size == 10_000
    assert log.tail().splitlines()[0].endswith("line 0099 the last words")
    assert "more bytes of stderr were not kept" in log.tail()


def test_a_marked_process_that_left_its_group_is_found_and_killed(tmp_path: Path) -> None:
    marker = f"test-{os.getpid()}-{time.monotonic_ns()}"
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"],
        env={**os.environ, SESSION_VARIABLE: marker}, start_new_session=True,
        cwd=tmp_path,
    )
    unmarked = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                cwd=tmp_path)
    try:
        killed = kill_marked(SESSION_VARIABLE, marker)
        assert killed == [sleeper.pid]
        assert sleeper.wait(timeout=30) == -9
        assert unmarked.poll() is None
    finally:
        for process in (sleeper, unmarked):
            process.kill()
            process.wait()
