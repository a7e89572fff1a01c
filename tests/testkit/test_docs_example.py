"""docs/testkit.md's edit_file example is real: run as an author's test file, it passes a correct
toy edit_file and fails the two classic broken ones (LF-only write, startswith confinement)."""

import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

DOC = Path(__file__).resolve().parents[2] / "docs" / "testkit.md"
TIMEOUT_S = 300

_PREAMBLE = '''
import os


def _confined(root, path):
    root = os.path.realpath(root)
    full = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, full]) != root or os.path.islink(os.path.join(root, path)):
        raise PermissionError(f"{path} is outside the workspace")
    return full
'''

# dskcode's edit: match and write in the file's own line endings, every other byte kept.
CORRECT = _PREAMBLE + '''
def edit_file(root, path, old_text, new_text):
    full = _confined(root, path)
    with open(full, "rb") as file:
        text = file.read().decode("utf-8")
    if "\\r\\n" in text:
        old_text, new_text = (t.replace("\\r\\n", "\\n").replace("\\n", "\\r\\n")
                              for t in (old_text, new_text))
    if text.count(old_text) != 1:
        raise ValueError("old_text must occur exactly once")
    with open(full, "wb") as file:
        file.write(text.replace(old_text, new_text).encode("utf-8"))
'''

# Text mode reads every line ending as \\n and writes \\n back: CRLF files lose their CRs.
LF_ONLY = _PREAMBLE + '''
def edit_file(root, path, old_text, new_text):
    full = _confined(root, path)
    with open(full, encoding="utf-8") as file:
        text = file.read()
    if text.count(old_text) != 1:
        raise ValueError("old_text must occur exactly once")
    with open(full, "w", encoding="utf-8") as file:
        file.write(text.replace(old_text, new_text))
'''

STARTSWITH = CORRECT.replace(
    "full = _confined(root, path)",
    "full = os.path.normpath(os.path.join(root, path))\n"
    "    assert full.startswith(str(root)), 'outside'",
)


def doc_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- example: edit_file[^>]*-->\s*```python\n(.*?)```", text, re.S)
    assert found, "docs/testkit.md lost its edit_file example"
    return found.group(1)


def run_example(pytester: pytest.Pytester, tool: str) -> pytest.RunResult:
    pytester.makeconftest('pytest_plugins = ["agentconf.testkit"]\n')
    pytester.makepyfile(mytools=tool, test_my_edit_file=doc_example())
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=TIMEOUT_S)


def test_the_example_is_a_dozen_lines_of_real_code() -> None:
    code = [line for line in doc_example().splitlines() if line.strip()]
    assert len(code) <= 16
    compile(doc_example(), "docs/testkit.md", "exec")


def test_the_example_passes_a_correct_edit_file(pytester: pytest.Pytester) -> None:
    run_example(pytester, CORRECT).assert_outcomes(passed=2)


def test_the_example_catches_an_edit_file_that_writes_lf_only(pytester: pytest.Pytester) -> None:
    result = run_example(pytester, LF_ONLY)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_edit_changes_only_the_replaced_span*", "*crlf*"])


def test_the_example_catches_an_edit_file_that_follows_links_out(
    pytester: pytest.Pytester,
) -> None:
    result = run_example(pytester, STARTSWITH)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*EscapeDetected*rewrote outside/secret.txt*"])
