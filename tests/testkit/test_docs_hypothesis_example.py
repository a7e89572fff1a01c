"""docs/testkit.md's hypothesis example holds on a busy machine: run as an author's test file
against a write_file whose first call is slow (as a loaded machine makes one), it passes with the
kit's `agentconf` settings profile, and the same test without it fails on hypothesis's timing
checks."""

import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

DOC = Path(__file__).resolve().parents[2] / "docs" / "testkit.md"
SETTINGS_LINE = '@settings(settings.get_profile("agentconf"))'

# A confined write_file whose first call takes longer than hypothesis's default deadline (200 ms):
# what a sandbox per example costs on a machine that other jobs keep busy.
SLOW_FIRST_CALL = '''
import os
import time

_calls = []


def write_file(root, path, text):
    if not _calls:
        time.sleep(0.5)
    _calls.append(path)
    root = os.path.realpath(root)
    full = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, full]) != root:
        raise PermissionError(f"{path} is outside the workspace")
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as file:
        file.write(text)
'''


def doc_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- example: hostile paths[^>]*-->\s*```python\n(.*?)```", text, re.S)
    assert found, "docs/testkit.md lost its hypothesis example"
    return found.group(1)


@pytest.fixture(autouse=True)
def an_authors_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis loads its relaxed built-in "ci" profile (no deadline, no too_slow check) when
    CI is set, as a CI job's environment sets it: the example is judged as on a desk."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)


def run(pytester: pytest.Pytester, example: str) -> pytest.RunResult:
    pytester.makepyfile(mytools=SLOW_FIRST_CALL, test_paths=example)
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly",
                                         timeout=300)


def test_the_example_uses_the_kits_settings_and_passes_on_a_busy_machine(
    pytester: pytest.Pytester,
) -> None:
    assert SETTINGS_LINE in doc_example()
    run(pytester, doc_example()).assert_outcomes(passed=1)


def test_without_the_kits_settings_the_same_test_fails_on_hypothesis_timing_checks(
    pytester: pytest.Pytester,
) -> None:
    """FailedHealthCheck(too_slow), as the issue saw it, or a DeadlineExceeded."""
    result = run(pytester, doc_example().replace(SETTINGS_LINE, ""))
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "FailedHealthCheck" in output or "DeadlineExceeded" in output, output[-2000:]
