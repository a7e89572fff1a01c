"""The draft's text (init_from/profile_text.py): what a user reads in the drafted agentconf.toml."""

from agentconf.init_from.findings import Findings
from agentconf.init_from.profile_text import _error_lines


def test_a_note_the_provocation_and_its_twin_both_made_is_written_once() -> None:
    notes = ["read of a missing file: succeeded, so no NOT_FOUND was learned"] * 2 + [
        "edit of a folder: answered NOT_FOUND, the contract expects IS_DIRECTORY"] * 2
    lines = _error_lines(Findings(notes=notes))
    assert [line for line in lines if line.startswith("# - ")] == [
        f"# - {notes[0]}", f"# - {notes[2]}"]


def test_a_folder_left_out_is_sent_as_the_root_itself_where_paths_must_be_absolute() -> None:
    from agentconf.init_from.draft import _tables
    from agentconf.init_from.match import ToolGuess

    def lister() -> ToolGuess:
        guess = ToolGuess("list_files", "dir_ops", 1.0, args={"path": "dir_path"},
                          evidence=['it requires dir_path: sent as dir_path = "."'])
        guess.keys["defaults"] = {"action": "list", "dir_path": ".", "format": "."}
        return guess

    relative, absolute = lister(), lister()
    assert _tables({"list_files": relative}, False)["tools"]["list_files"]["defaults"][
        "dir_path"] == "."
    table = _tables({"list_files": absolute}, True)["tools"]["list_files"]
    # Only a path argument's "." is the root; another argument's "." is its own value.
    assert table["defaults"] == {"action": "list", "dir_path": "{root}", "format": "."}
    assert '"{root}"' in absolute.evidence[0]
