"""The programs a shell command runs, read for `[tools.bash] allowed_programs`: a word taken for
a program that is not one makes a check n/a on a gated shell."""

from agentconf.harness.session.shell_words import programs_in, refused_programs


def test_arithmetic_expansion_runs_no_program() -> None:
    """`echo started-$((40+2))` was read as running the program `40+2`, and SHELL-10 was not
    judged on a shell whose gate allows echo."""
    assert programs_in("echo started-$((40+2))") == ["echo"]
    assert programs_in("n=$((1 + (2 * 3))); echo $n") == ["echo"]
    assert refused_programs("echo started-$((40+2))", ["echo"]) == []


def test_a_command_substitution_still_runs_its_program() -> None:
    assert programs_in("echo $(pwd) | wc -l") == ["echo", "pwd", "wc"]


def test_an_empty_quoted_word_is_an_argument_not_a_separator() -> None:
    """`trap '' TERM` was read as running the program `TERM` (coding-tools-mcp's allow-list
    then made SHELL-07 n/a, a clause it passes)."""
    command = "trap '' TERM; echo $$ > shell.pid; while true; do sleep 0.2; done"
    assert programs_in(command) == ["trap", "echo", "true", "sleep"]
