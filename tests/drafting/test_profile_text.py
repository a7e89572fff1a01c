"""The draft's text (init_from/profile_text.py): what a user reads in the drafted agentconf.toml."""

from agentconf.init_from.findings import Findings
from agentconf.init_from.profile_text import _error_lines


def test_a_note_the_provocation_and_its_twin_both_made_is_written_once() -> None:
    notes = ["read of a missing file: succeeded, so no NOT_FOUND was learned"] * 2 + [
        "edit of a folder: answered NOT_FOUND, the contract expects IS_DIRECTORY"] * 2
    lines = _error_lines(Findings(notes=notes))
    assert [line for line in lines if line.startswith("# - ")] == [
        f"# - {notes[0]}", f"# - {notes[2]}"]
