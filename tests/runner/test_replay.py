"""`agentconf replay NODEID`: one check, alone; node ids outside the suites are refused."""

from pathlib import Path

import pytest
from cli import agentconf, assert_usage_error

from agentconf.cli import UsageError
from agentconf.commands.replay import resolve_nodeid


def test_a_node_id_is_resolved_inside_the_suites_with_or_without_its_folder(tmp_path: Path) -> None:
    suites = tmp_path / "suites"
    suites.mkdir()
    (suites / "test_x.py").write_text("")
    expected = f"{(suites / 'test_x.py').resolve()}::test_y[case]"
    assert resolve_nodeid("suites/test_x.py::test_y[case]", suites) == expected
    assert resolve_nodeid("test_x.py::test_y[case]", suites) == expected


def test_a_node_id_from_before_the_category_folders_still_resolves(tmp_path: Path) -> None:
    suites = tmp_path / "suites"
    (suites / "edit").mkdir(parents=True)
    (suites / "edit" / "test_edit.py").write_text("")
    expected = f"{(suites / 'edit' / 'test_edit.py').resolve()}::test_y"
    assert resolve_nodeid("suites/edit/test_edit.py::test_y", suites) == expected
    assert resolve_nodeid("suites/test_edit.py::test_y", suites) == expected
    with pytest.raises(UsageError, match="no suite file"):
        resolve_nodeid("suites/test_nope.py::test_y", suites)


def test_a_file_outside_the_suites_is_refused(tmp_path: Path) -> None:
    suites = tmp_path / "suites"
    suites.mkdir()
    (tmp_path / "test_evil.py").write_text("")
    with pytest.raises(UsageError, match="no suite file"):
        resolve_nodeid("suites/../test_evil.py::test", suites)


def test_replay_of_an_unknown_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert_usage_error(agentconf("replay", "suites/test_nope.py::test_x", cwd=tmp_path),
                       "no suite file")
    assert_usage_error(agentconf("replay", "--impl", "bogus", "suites/test_registry.py::x",
                                 cwd=tmp_path), "bogus")
