"""A search that marks its matches for the model still shows the file's line (GREP-01)."""

import pytest

from agentconf.harness.session.answers import unmarked


@pytest.mark.parametrize("shown", [
    "notes.txt:3:>>>needle<<< here",
    "notes.txt:3:**needle** here",
    "notes.txt:3:\x1b[1;31mneedle\x1b[0m here",
])
def test_a_marked_match_reads_as_the_line(shown: str) -> None:
    assert unmarked(shown, "needle") == "notes.txt:3:needle here"


def test_a_match_marked_on_one_side_only_is_the_file_s_own_text() -> None:
    assert unmarked("notes.txt:3:needle: here", "needle") == "notes.txt:3:needle: here"
    assert unmarked("notes.txt:3:a needle here", "needle") == "notes.txt:3:a needle here"


def test_another_word_is_never_unmarked() -> None:
    assert unmarked("a.txt:1:>>>other<<<", "needle") == "a.txt:1:>>>other<<<"
