"""What the plugin does before a session is opened, and the order checks run in.

In a child pytest against a toy that counts its sessions in a file, so the tests can see which
checks opened one.
"""

import shutil
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

TOYS = Path(__file__).parents[1] / "harness_toys.py"

COUNTING_TOY = '''
import os
from harness_toys import Toy

def create(workspace):
    with open(os.environ["SESSIONS_FILE"], "a") as sessions:
        sessions.write("session\\n")
    return Toy(workspace)
'''


@pytest.fixture
def child(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    shutil.copy(TOYS, pytester.path / "harness_toys.py")
    pytester.makepyfile(counting_toy=COUNTING_TOY)
    monkeypatch.setenv("PYTHONPATH", str(pytester.path))
    monkeypatch.setenv("SESSIONS_FILE", str(pytester.path / "sessions.txt"))
    return pytester


def sessions(child: pytest.Pytester) -> int:
    path = child.path / "sessions.txt"
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_a_tool_absent_from_the_first_listing_is_n_a_without_a_session(child) -> None:
    child.makepyfile(test_checks='''
        import pytest

        @pytest.mark.clause("RESULT-01")
        @pytest.mark.requires("read_file")
        def test_1_lists_the_tools(client):
            pass

        @pytest.mark.clause("GREP-01")
        def test_2_needs_grep(client):
            raise AssertionError("must not run: the toy has no grep")

        @pytest.mark.clause("GREP-02")
        def test_3_needs_grep_too(client):
            raise AssertionError("must not run: the toy has no grep")
    ''')
    result = child.runpytest_subprocess("--agentconf-impl", "python:counting_toy:create", "-rs",
                                        "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*n/a: the implementation lacks grep*GREP-01*"])
    assert sessions(child) == 1


def test_a_capability_the_profile_switches_off_is_n_a_without_a_session(child) -> None:
    child.makefile(".toml", agentconf='[implementation]\nspec = "python:counting_toy:create"\n'
                   '[capabilities]\nwrite_file = false\n')
    child.makepyfile(test_checks='''
        import pytest

        @pytest.mark.clause("RESULT-01")
        @pytest.mark.requires("write_file")
        def test_needs_write_file(client):
            raise AssertionError("must not run")
    ''')
    result = child.runpytest_subprocess("--agentconf-profile", "agentconf.toml", "-rs",
                                        "-p", "no:cacheprovider")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*n/a: the implementation lacks write_file*"])
    assert sessions(child) == 0


def test_checks_that_wait_are_spread_over_the_first_three_quarters_in_their_order(child) -> None:
    """xdist hands each worker a block of consecutive checks first: bunched at the front, every
    wait fell in the first worker's block (harness/run/order.py)."""
    plain = "".join(f"def test_{n}():\n    pass\n\n" for n in range(8))
    child.makepyfile(test_checks=plain + '''
import pytest

@pytest.mark.waits
@pytest.mark.clause("SHELL-04")
def test_a_timeout():
    pass

@pytest.mark.waits
def test_a_kill_grace():
    pass
''')
    result = child.runpytest_subprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    collected = [line.split("::")[1] for line in result.stdout.lines if "::" in line]
    # 8 others, 2 waiting: one every 8 * 3/4 / 2 = 3 others, from the start.
    assert collected == ["test_a_timeout", "test_0", "test_1", "test_2", "test_a_kill_grace",
                         "test_3", "test_4", "test_5", "test_6", "test_7"]


def test_checks_that_need_a_fresh_session_are_spread_to_the_ends_of_even_intervals(child) -> None:
    """Each such check costs a kept server's worker a new server; a spare started ahead of need
    is ready only when the checks before it take longer than a start (harness/target/spare.py),
    so they are not left bunched (a file's parametrizations, the golden cases of one clause)."""
    plain = "".join(f"def test_{n}():\n    pass\n\n" for n in range(9))
    child.makepyfile(test_checks=plain + '''
import pytest

@pytest.mark.requires("read_before_edit")
def test_guard_a():
    pass

@pytest.mark.clause("EDIT-09")
def test_guard_b():
    pass

@pytest.mark.requires("tool_search")
def test_reveal():
    pass
''')
    result = child.runpytest_subprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    collected = [line.split("::")[1] for line in result.stdout.lines if "::" in line]
    # 9 others, 3 needing a fresh session: one after every 9 / 3 = 3 others, the first not at
    # the start (the run's first server is new anyway).
    assert collected == ["test_0", "test_1", "test_2", "test_guard_a", "test_3", "test_4",
                         "test_5", "test_guard_b", "test_6", "test_7", "test_8", "test_reveal"]


def test_without_checks_that_wait_the_order_is_the_collected_one(child) -> None:
    child.makepyfile(test_checks="".join(f"def test_{n}():\n    pass\n\n" for n in range(5)))
    result = child.runpytest_subprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    collected = [line.split("::")[1] for line in result.stdout.lines if "::" in line]
    assert collected == [f"test_{n}" for n in range(5)]
