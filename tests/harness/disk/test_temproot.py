"""Where `agentconf run` puts its sandboxes: a roomy tmpfs unless the user chose a place."""

from pathlib import Path

import _pytest.pathlib

from agentconf.harness.disk.temproot import (
    TEMPROOT_VARIABLE,
    memory_temproot,
    tolerate_shared_temproot,
)
from agentconf.harness.run.child import pytest_env


def mounts_file(tmp_path: Path, folder: Path, kind: str) -> str:
    table = tmp_path / "mounts"
    table.write_text(f"proc /proc proc rw 0 0\n{kind} {folder} {kind} rw,nosuid 0 0\n")
    return str(table)


def test_a_roomy_tmpfs_is_chosen_when_the_user_chose_nothing(tmp_path: Path) -> None:
    table = mounts_file(tmp_path, tmp_path, "tmpfs")
    assert memory_temproot({}, str(tmp_path), min_free=1, mounts=table) == str(tmp_path)


def test_a_folder_on_a_disk_is_not_taken_for_memory(tmp_path: Path) -> None:
    table = mounts_file(tmp_path, tmp_path, "ext4")
    assert memory_temproot({}, str(tmp_path), min_free=1, mounts=table) is None


def test_a_tmpfs_without_room_for_a_run_is_not_used(tmp_path: Path) -> None:
    table = mounts_file(tmp_path, tmp_path, "tmpfs")
    assert memory_temproot({}, str(tmp_path), min_free=2**62, mounts=table) is None


def test_tmpdir_set_by_the_user_wins(tmp_path: Path) -> None:
    table = mounts_file(tmp_path, tmp_path, "tmpfs")
    chosen = {"TMPDIR": str(tmp_path / "mine")}
    assert memory_temproot(chosen, str(tmp_path), min_free=1, mounts=table) is None


def test_pytests_own_temproot_variable_is_kept_as_given(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(TEMPROOT_VARIABLE, str(tmp_path))
    monkeypatch.delenv("TMPDIR", raising=False)
    assert pytest_env()[TEMPROOT_VARIABLE] == str(tmp_path)


def test_without_a_mount_table_nothing_is_chosen(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-mounts")
    assert memory_temproot({}, str(tmp_path), min_free=1, mounts=missing) is None


def test_a_dead_link_another_run_removed_first_is_no_error(tmp_path: Path, monkeypatch) -> None:
    """Two runs sharing pytest's temporary root both remove its dead `pytest-current` link as
    they end: the one that comes second must not fail (it turned a finished run red)."""
    monkeypatch.setattr(_pytest.pathlib, "cleanup_dead_symlinks",  # restored after the test
                        _pytest.pathlib.cleanup_dead_symlinks)
    (tmp_path / "pytest-current").symlink_to(tmp_path / "gone")
    unlink = Path.unlink

    def raced(self: Path, missing_ok: bool = False) -> None:
        unlink(self)  # the other run got there first
        unlink(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", raced)
    tolerate_shared_temproot()
    _pytest.pathlib.cleanup_dead_symlinks(tmp_path)
    assert not (tmp_path / "pytest-current").is_symlink()
