"""Canaries in the system's temporary folders (harness/disk/outer.py): one set per workspace, judged
by the oracle, refilled for the next workspace only when no check changed them, and gone at exit
(Ctrl-C included) and after a run's sweep."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from agentconf.harness.disk import outer
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.target.adapters.base import RUN_VARIABLE
from agentconf.harness.verdicts.errors import EscapeDetected

pytestmark = pytest.mark.skipif(not outer.places(), reason="no writable /tmp or /var/tmp here")


def test_each_workspace_gets_its_own_canaries_in_the_system_tmp_and_the_oracle_judges_them(
    tmp_path: Path,
) -> None:
    with SandboxWorkspace(base=tmp_path / "ws") as ws:
        assert ws.outer and all(not str(f).startswith(str(ws.sandbox)) for f in ws.outer)
        assert ws.secret in (ws.outer[0] / "secret.txt").read_text()
        ws.oracle.check("", "nothing yet")
        (ws.outer[0] / "secret.txt").write_text("changed")
        with pytest.raises(EscapeDetected, match=str(ws.outer[0] / "secret.txt")):
            ws.oracle.check("", "a write to /tmp")
    with SandboxWorkspace(base=tmp_path / "next") as following:
        assert following.secret != ws.secret
        for folder in following.outer:
            assert ws.secret not in (folder / "secret.txt").read_text()
            assert following.secret in (folder / "secret.txt").read_text()


def _state(folder: Path) -> dict[str, tuple[int, int, int, bytes]]:
    """Each entry's kind bits, mode, links and bytes, and the folder's own."""
    found = {}
    for path in (folder, *sorted(folder.iterdir())):
        info = path.lstat()
        data = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
        found[path.name if path != folder else "."] = (
            stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), info.st_nlink, data)
    return found


def _replace_with_link(folder: Path, elsewhere: Path) -> None:
    """A link to a file of the very size of the canary: only the link itself can give it away."""
    elsewhere.write_bytes(b"n" * (folder / "secret.txt").stat().st_size)
    (folder / "secret.txt").unlink()
    (folder / "secret.txt").symlink_to(elsewhere)


def _hard_link(folder: Path, elsewhere: Path) -> None:
    elsewhere.write_bytes(b"n" * (folder / "notes.md").stat().st_size)
    elsewhere.chmod((folder / "notes.md").stat().st_mode)
    (folder / "notes.md").unlink()
    os.link(elsewhere, folder / "notes.md")


def _same_size_other_bytes(folder: Path, _elsewhere: Path) -> None:
    data = (folder / "secret.txt").read_bytes()
    (folder / "secret.txt").write_bytes(data.upper())


TAMPERINGS = {
    "a file replaced by a link out": _replace_with_link,
    "a file replaced by a hard link to another": _hard_link,
    "a FIFO in place of a file": lambda f, _e: ((f / "notes.md").unlink(),
                                                os.mkfifo(f / "notes.md")),
    "a file added": lambda f, _e: (f / "extra.txt").write_text("x"),
    "a file removed": lambda f, _e: (f / "notes.md").unlink(),
    "a file grown": lambda f, _e: (f / "secret.txt").write_text("much longer " * 20),
    "a file's mode": lambda f, _e: (f / "secret.txt").chmod(0o777),
    "the folder's mode": lambda f, _e: f.chmod(0o755),
    "the same size, other bytes": _same_size_other_bytes,
}


@pytest.mark.parametrize("tamper", TAMPERINGS.values(), ids=TAMPERINGS.keys())
def test_a_canary_folder_a_check_changed_is_never_handed_to_the_next_workspace(
    tmp_path: Path, tamper
) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_bytes(b"not a canary\n")
    with SandboxWorkspace(base=tmp_path / "first") as first:
        made = {folder: _state(folder) for folder in first.outer}
        tamper(first.outer[0], elsewhere)
        untouched = elsewhere.read_bytes()
    with SandboxWorkspace(base=tmp_path / "next") as following:
        assert elsewhere.read_bytes() == untouched  # nothing written through a link
        for folder in following.outer:
            old = next(state for made_folder, state in made.items()
                       if made_folder.parent == folder.parent)
            expected = {name: (kind, mode, links, data.replace(
                first.secret.encode(), following.secret.encode()))
                for name, (kind, mode, links, data) in old.items()}
            assert _state(folder) == expected, folder


def test_a_secret_of_the_system_tmp_canary_in_an_answer_is_an_escape(tmp_path: Path) -> None:
    with SandboxWorkspace(base=tmp_path / "ws") as ws:
        text = (ws.outer[0] / "secret.txt").read_text()
        with pytest.raises(EscapeDetected):
            ws.oracle.check(text, "a read of /tmp")


def test_the_canaries_are_gone_when_the_process_is_interrupted(tmp_path: Path) -> None:
    script = ("from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace\n"
              "import sys, pathlib\n"
              f"ws = SandboxWorkspace(base=pathlib.Path({str(tmp_path / 'ws')!r}))\n"
              "print(*ws.outer, flush=True)\n"
              "raise KeyboardInterrupt\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    made = done.stdout.split()
    assert made, done.stderr
    assert not any(os.path.exists(folder) for folder in made), made


def test_a_runs_sweep_removes_what_its_killed_workers_left(monkeypatch) -> None:
    monkeypatch.setenv(RUN_VARIABLE, "sweeptest0123")
    left = outer.make("secret")
    outer._LIVE.difference_update(left)  # as if the worker had been killed before its atexit
    assert all(folder.exists() for folder in left)
    outer.sweep("sweeptest0123")
    assert not any(folder.exists() for folder in left)


def test_what_a_killed_process_outside_a_run_left_goes_with_the_next_one(tmp_path: Path) -> None:
    """A process outside a run (`init --from`, a test's own workspace) killed before its atexit
    left its canaries with no marker for a run's sweep: the next process's workspace removes
    them (their pid is no longer running); a live process's are left alone."""
    env = {key: value for key, value in os.environ.items() if key != RUN_VARIABLE}
    script = ("from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace\n"
              "import os, pathlib, signal, sys\n"
              "ws = SandboxWorkspace(base=pathlib.Path(sys.argv[1]))\n"
              "print(*ws.outer, flush=True)\n"
              "if sys.argv[2] == 'killed':\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n")
    killed = subprocess.run([sys.executable, "-c", script, str(tmp_path / "a"), "killed"],
                            capture_output=True, text=True, timeout=60, check=False, env=env)
    left = [Path(folder) for folder in killed.stdout.split()]
    assert left and all(folder.is_dir() for folder in left), killed.stderr
    alive = SandboxWorkspace(base=tmp_path / "live")  # this process's: running, kept
    try:
        after = subprocess.run([sys.executable, "-c", script, str(tmp_path / "b"), "ends"],
                               capture_output=True, text=True, timeout=60, check=False, env=env)
        assert after.returncode == 0, after.stderr
        assert not any(folder.exists() for folder in left), left
        assert all(folder.is_dir() for folder in alive.outer)
    finally:
        alive.close_outer()
