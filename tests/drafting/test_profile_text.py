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


def test_each_mode_whose_clauses_could_be_judged_gets_a_todo_naming_them() -> None:
    """A listing never says how to start a server read-only or with an allow-list: the draft
    names each mode its clauses need, and the clauses that stay n/a without it."""
    from agentconf.contract.modes import MODES
    from agentconf.init_from.match import ToolGuess
    from agentconf.init_from.profile_text import _mode_lines

    reader = {"read_file": ToolGuess("read_file", "read", 1.0, args={"path": "path"})}
    lines = _mode_lines(reader)
    for name in ("read_only", "deny"):
        line = next(line for line in lines if f"[modes.{name}]" in line)
        assert line.startswith("# TODO: ") and all(cid in line for cid in MODES[name].judged_by)
    assert not any("[modes.allowed_programs]" in line for line in lines), "no exec: EXEC-07 n/a"
    runner = ToolGuess("exec", "run", 1.0, args={"argv": "argv"})
    assert any("EXEC-07" in line for line in _mode_lines({**reader, "exec": runner}))
    runner.keys["allowed_programs"] = ["echo"]  # its allow-list judges EXEC-07 already
    assert not any("EXEC-07" in line for line in _mode_lines({**reader, "exec": runner}))
