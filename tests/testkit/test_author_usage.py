"""A tool author's own test file, using only the public API, catches a planted confinement bug.

Each test writes a small project into pytester's folder (a toy tool module and a test file that
imports nothing of agentconf but `agentconf.testkit` and `agentconf.strategies`) and runs pytest
on it in a subprocess, as the author's CI would. The toy that checks `startswith(root)` must fail,
the one that compares real paths must pass.
"""

import os
import textwrap

import pytest

pytest_plugins = ["pytester"]

TIMEOUT_S = 300  # only to turn a hang into a failure

CONFTEST = 'pytest_plugins = ["agentconf.testkit"]\n'

# The bug @clarvis/agent-tools warns of: a prefix test on a normalised, unresolved path lets
# `../root_evil/x` (same prefix) and every symbolic link out through.
STARTSWITH_TOY = '''
import os

def write_file(root, path, content):
    full = os.path.normpath(os.path.join(root, os.path.expanduser(path)))
    if not full.startswith(str(root)):
        raise PermissionError(f"{path} is outside the workspace")
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as file:
        file.write(content)
'''

REALPATH_TOY = '''
import os

def write_file(root, path, content):
    root = os.path.realpath(root)
    full = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, full]) != root or os.path.islink(os.path.join(root, path)):
        raise PermissionError(f"{path} is outside the workspace")
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as file:
        file.write(content)
'''

AUTHOR_TESTS = '''
import pytest
from hypothesis import given, settings, strategies as st

from agentconf.testkit import escape_paths, sandbox
from agentconf.strategies import hostile_paths
from toy_tools import write_file


def attempt(root, path):
    try:
        write_file(root, path, "pwned")
    except (OSError, ValueError):
        pass  # refusing is the right answer; the oracle judges the disk either way


def test_writes_through_the_link_farm_stay_inside(agentconf_sandbox, agentconf_link_farm):
    for path in agentconf_link_farm.escaping:
        attempt(agentconf_sandbox.root, path)
        agentconf_sandbox.oracle.check(what=f"write_file({path!r})")


def test_the_classic_escapes_are_refused(agentconf_sandbox, agentconf_fake_home):
    for path in escape_paths(agentconf_sandbox):
        attempt(agentconf_sandbox.root, path)
        agentconf_sandbox.oracle.check(what=f"write_file({path!r})")


def test_writes_inside_the_root_still_work(agentconf_sandbox):
    write_file(agentconf_sandbox.root, "docs/notes.txt", "hello")
    assert (agentconf_sandbox.root / "docs" / "notes.txt").read_text() == "hello"


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_no_hostile_path_changes_anything_outside(data):
    with sandbox() as ws:
        ws.link_farm()
        ws.rebaseline()
        paths = hostile_paths(ws.root, outside=ws.outside, sibling=ws.sibling)
        attempt(ws.root, data.draw(paths, label="path"))
'''


def run_author_project(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, toy: str
) -> pytest.RunResult:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(toy_tools=toy, test_my_tools=AUTHOR_TESTS)
    scratch = pytester.mkdir("scratch")  # the author's `with sandbox()` lands here, not in /tmp
    monkeypatch.setenv("TMPDIR", str(scratch))
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=TIMEOUT_S)


def test_an_authors_tests_catch_a_startswith_confinement_check(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run_author_project(pytester, monkeypatch, STARTSWITH_TOY)
    result.assert_outcomes(passed=1, failed=3)
    output = result.stdout.str()
    assert "EscapeDetected" in output
    assert "root_evil" in output  # the sibling-prefix folder the prefix check lets through
    assert "link_out" in output  # and a symbolic link out of the root
    assert "test_no_hostile_path_changes_anything_outside" in output


def test_an_authors_tests_pass_a_tool_that_compares_real_paths(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run_author_project(pytester, monkeypatch, REALPATH_TOY)
    result.assert_outcomes(passed=4)
    assert not os.listdir(pytester.path / "scratch")  # every `with sandbox()` cleaned up


def test_an_escape_the_author_did_not_check_for_still_fails_the_test(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_forgetful=textwrap.dedent('''
        def test_forgets_to_ask_the_oracle(agentconf_sandbox):
            (agentconf_sandbox.sibling / "planted.txt").write_text("escaped")
    '''))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=TIMEOUT_S)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*EscapeDetected*created root_evil/planted.txt*"])
