"""Error patterns induced from probe answers (init_from/patterns.py), on the answers the
real implementations of issue 25 gave: each kept pattern checked against every other answer."""

import json
import re

from agentconf.init_from.patterns import HEADED_CODE, SPELLED_CODE, Answer, induce, spelled_codes

PROBE_ONLY = ("/sandbox", "/sandbox/root", "agentconf-probe", "Read", "Edit", "Write")


def test_claude_codes_tool_prefix_is_never_a_pattern_of_one_kind() -> None:
    answers = [
        Answer("TEXT_MULTIPLE_MATCHES", "edit twice",
               "Tool Edit input is invalid: Found 2 matches of the string to replace"),
        Answer("INVALID_ARGS", "bad write", "Tool Write arguments failed schema validation"),
    ]
    kept, _ = induce(answers, PROBE_ONLY)
    for code, regex, _why in kept:
        others = [a for a in answers if a.code != code and re.search(regex, a.text)]
        assert not others, (code, regex)
        assert regex not in (r"\ATool", r"\AError")
    assert {code for code, _, _ in kept} == {"TEXT_MULTIPLE_MATCHES", "INVALID_ARGS"}


def test_a_message_that_says_only_error_gives_no_pattern() -> None:
    kept, notes = induce([Answer("OUTSIDE_ROOT", "outside", "Error: /sandbox/outside/x")],
                         PROBE_ONLY)
    assert kept == [] and "TODO" in notes[0]


def test_a_code_spelled_for_another_kind_is_still_the_servers_word() -> None:
    answers = [Answer("NOT_FOUND", "missing", "NOT_FOUND: x"),
               Answer("IS_DIRECTORY", "write of a folder", "NOT_FOUND: dir"),
               Answer("OUTSIDE_ROOT", "outside", "ACCESS_DENIED: ../x")]
    assert spelled_codes(answers) == ({"ACCESS_DENIED": "OUTSIDE_ROOT"},
                                      "its failures start with a code: ACCESS_DENIED, NOT_FOUND",
                                      SPELLED_CODE)
    # A prefix of theirs that stands for several kinds is no code.
    answers.append(Answer("IS_DIRECTORY", "folder", "ACCESS_DENIED: dir"))
    assert spelled_codes(answers) is None


def test_a_code_named_after_each_tools_own_head_is_read_from_the_text() -> None:
    """Failures that open with their tool's head, then the code ("Error editing file: NOT_READ:
    ..."): a pattern per tool was kept (an edit's NOT_READ), and a write refused for the same
    cause had no code RESULT-02 could read."""
    answers = [Answer("NOT_READ", "edit unread", "[x] Error editing file: NOT_READ: `a` first"),
               Answer("NOT_FOUND", "read missing", "[x] Error reading file: NOT_FOUND: `b`"),
               Answer("OUTSIDE_ROOT", "outside", "[x] Error writing file: DENIED: `../c`")]
    found = spelled_codes(answers)
    assert found is not None and found[0] == {"DENIED": "OUTSIDE_ROOT"}, found
    assert found[2] == HEADED_CODE
    said = re.search(HEADED_CODE, "[x] Error writing file: NOT_READ: `d` first")
    assert said is not None and said.group("code") == "NOT_READ"


def test_a_number_in_a_message_is_a_number_in_its_pattern() -> None:
    # bash-command-mcp: `exit 3` answers "EXIT_CODE: 3", null arguments 'EXIT_CODE: unknown\n
    # Either "command" or "cmd" must be provided.': the number as a wildcard clashed, so no
    # NONZERO_EXIT pattern was kept and every failed command had no code (RESULT-02, SHELL-02).
    answers = [Answer("INVALID_ARGS", "null arguments",
                      'EXIT_CODE: unknown\nEither "command" or "cmd" must be provided.'),
               Answer("NONZERO_EXIT", "a command that exits 3", "EXIT_CODE: 3")]
    kept, notes = induce(answers, PROBE_ONLY)
    nonzero = [regex for code, regex, _ in kept if code == "NONZERO_EXIT"]
    assert nonzero, notes
    assert re.search(nonzero[0], "EXIT_CODE: 42\nSTDOUT:\nout")
    assert not re.search(nonzero[0], "EXIT_CODE: unknown\nSTDOUT:\nbefore-signal")
    # Learnt from exit 3, it reads a command killed by a signal too (rigout: "exit code -9").
    assert re.search(nonzero[0], "EXIT_CODE: -9\nSTDOUT:\nbefore-signal")


def test_a_timeout_learnt_from_one_signal_reads_another() -> None:
    # coding-tools-mcp 0.5.0: a timeout answered "exit code -15 | signal SIGTERM" was learnt as
    # those, and its "-9 | SIGKILL" read as no timeout (SHELL-07 not judged).
    answers = [Answer("TIMEOUT", "a command past its timeout",
                      "Status: timeout | exit code -15 | signal SIGTERM | timed out | 2017 ms")]
    kept, notes = induce(answers, PROBE_ONLY)
    timeout = [regex for code, regex, _ in kept if code == "TIMEOUT"]
    assert timeout, notes
    assert re.search(timeout[0],
                     "Status: timeout | exit code -9 | signal SIGKILL | timed out | 2304 ms")
    assert not re.search(timeout[0], "Status: exited | exit code 3 | 73 ms")


def test_a_message_in_another_script_keeps_its_words() -> None:
    """mcp-filesystem-server 1.0.3 words its failures in Korean and quotes an edit's old text on
    the next line: its words were taken for none (only ASCII counted). The old text is the
    probe's own, variable here (test_draft_probes.py drafts the toy that answers so)."""
    old = "agentconf-probe absent"
    answers = [
        Answer("TEXT_NOT_FOUND", "edit of text that is not there",
               f"Error: 수정할 텍스트를 찾을 수 없습니다:\n{old}"),
        Answer("NOT_FOUND", "read of a missing file",
               "Error: ENOENT: no such file or directory, open '/sandbox/root/x'"),
    ]
    kept, notes = induce(answers, ("/sandbox", "/sandbox/root", old, *PROBE_ONLY[2:]))
    patterns = {code: regex for code, regex, _ in kept}
    assert set(patterns) == {"TEXT_NOT_FOUND", "NOT_FOUND"}, notes
    miss = "Error: 수정할 텍스트를 찾을 수 없습니다:\ngoodbye"
    assert re.search(patterns["TEXT_NOT_FOUND"], miss)
    assert not re.search(patterns["TEXT_NOT_FOUND"], answers[1].text)
    assert "absent" not in patterns["TEXT_NOT_FOUND"]


def test_a_number_that_ends_a_sentence_is_a_number_in_its_pattern() -> None:
    """fs-mcp 1.47.3: "Edit 0: Expected 1 occurrence but found 2. Provide more context ...":
    the 2 before the full stop stayed literal, and a text there three times had no code."""
    answers = [Answer("TEXT_MULTIPLE_MATCHES", "edit of text that is there twice",
                      "Edit 0: Expected 1 occurrence but found 2. Provide more context in "
                      "match_text to ensure uniqueness."),
               Answer("TEXT_NOT_FOUND", "edit of text that is not there",
                      "Edit 0: No match found for 'match_text'.")]
    kept, notes = induce(answers, PROBE_ONLY)
    twice = [regex for code, regex, _ in kept if code == "TEXT_MULTIPLE_MATCHES"]
    assert twice, notes
    assert re.search(twice[0], "Edit 0: Expected 1 occurrence but found 3. Provide more context "
                               "in match_text to ensure uniqueness."), twice
    assert not re.search(twice[0], answers[1].text)


def _patterns(answers: list[Answer]) -> dict[str, str]:
    kept, _notes = induce(answers, PROBE_ONLY)
    return {code: regex for code, regex, _ in kept}


def test_a_message_that_starts_with_its_subject_is_learnt_by_what_follows() -> None:
    """Messages that open with the path they refuse (`'a.txt' is a directory`) have no stable
    start: only a pattern anywhere in the text can learn them."""
    answers = [Answer("IS_DIRECTORY", "read of a folder", "'sub' is a directory; list it.",
                      "read_file", ("sub",)),
               Answer("IS_DIRECTORY", "read of the root", "'.' is a directory; list it.",
                      "read_file", (".",)),
               Answer("NOT_FOUND", "read of a missing file", "'gone.txt' does not exist.",
                      "read_file", ("gone.txt",))]
    found = _patterns(answers)
    assert re.search(found["IS_DIRECTORY"], "'lib/x' is a directory; list it.")
    assert re.search(found["NOT_FOUND"], "'other.txt' does not exist.")
    assert not re.search(found["IS_DIRECTORY"], answers[2].text)


def test_a_json_quoted_message_and_a_shared_framework_prefix_are_seen_through() -> None:
    answers = [Answer("NOT_FOUND", "read of a missing file",
                      '"Tool execution failed: cannot open x.txt: no such file"', "read_file",
                      ("x.txt",)),
               Answer("NOT_FOUND", "read in a missing folder",
                      '"Tool execution failed: cannot open d/y.txt: no such file"', "read_file",
                      ("d/y.txt",)),
               Answer("IS_DIRECTORY", "read of a folder",
                      '"Tool execution failed: cannot open sub: it is a folder"', "read_file",
                      ("sub",))]
    found = _patterns(answers)
    assert set(found) == {"NOT_FOUND", "IS_DIRECTORY"}
    assert re.search(found["NOT_FOUND"], '"Tool execution failed: cannot open q: no such file"')
    assert not re.search(found["NOT_FOUND"], answers[2].text)


def test_a_pattern_never_fits_the_probes_own_command() -> None:
    """A shell that echoes the command: "exit 3" is what the probe sent, not what tells a
    non-zero exit (a pattern holding it matched only commands that begin with `exit`)."""
    answers = [Answer("NONZERO_EXIT", "a command that exits 3",
                      "Command exit 3 failed with status 3", "bash", ("exit 3",)),
               Answer("NONZERO_EXIT", "a command that exits 7",
                      "Command false failed with status 1", "bash", ("false",))]
    found = _patterns(answers)
    assert re.search(found["NONZERO_EXIT"], "Command make test failed with status 2")
    assert "exit 3" not in found["NONZERO_EXIT"]


def test_one_answer_of_another_kind_teaches_no_code() -> None:
    """A read guard answering the probe of a folder edit: "read the file first" is no
    IS_DIRECTORY, however well it fits that one answer."""
    answers = [Answer("IS_DIRECTORY", "edit of a folder",
                      "You must read the file before you edit it", "edit_file", ("sub",)),
               Answer("NOT_FOUND", "read of a missing file", "No such file: x", "read_file")]
    kept, notes = induce(answers, PROBE_ONLY)
    assert "IS_DIRECTORY" not in {code for code, _, _ in kept}, kept
    assert any("says nothing of IS_DIRECTORY" in note for note in notes), notes


def test_a_message_that_says_its_kind_is_learnt_though_another_kind_gets_it_too() -> None:
    """"File not found" to a missing file, and the same words to a path under a file (where the
    contract expects NOT_A_DIRECTORY): the words say NOT_FOUND and not the other kind, so the
    pattern is NOT_FOUND's (the conflation is the other clause's departure to judge); a
    message that says neither kind teaches neither."""
    answers = [Answer("NOT_FOUND", "read of a missing file", "File not found: gone.txt",
                      "read_file", ("gone.txt",)),
               Answer("NOT_FOUND", "read of a missing file", "File not found: lost/deep.txt",
                      "read_file", ("lost/deep.txt",)),
               Answer("NOT_A_DIRECTORY", "read of a path under a file",
                      "File not found: a.txt/inner.txt", "read_file", ("a.txt/inner.txt",))]
    found = _patterns(answers)
    assert re.search(found["NOT_FOUND"], "File not found: other.md"), found
    assert "NOT_A_DIRECTORY" not in found, found
    vague = [Answer(a.code, a.label, a.text.replace("File not found", "Cannot open"), a.tool,
                    a.said) for a in answers]
    assert _patterns(vague) == {}, "words that say neither kind teach neither"


def test_a_part_of_a_path_the_call_sent_is_incidental_wherever_the_answer_quotes_it() -> None:
    """The same words to a missing file and to a path under a file, each quoting a part of the
    path it was sent (a search hint `find(pattern='*inner.txt*')`): the answers are one message
    all the same, and its words say NOT_FOUND."""
    def missing(code: str, label: str, path: str) -> Answer:
        name = path.rsplit("/", 1)[-1]
        return Answer(code, label, f"Error: File '{path}' does not exist. Try "
                      f"find(pattern='*{name}*') to locate it.", "read_file", (path,))
    answers = [missing("NOT_FOUND", "read of a missing file", "gone.txt"),
               missing("NOT_FOUND", "read of a missing file", "notes-gone.md"),
               missing("NOT_A_DIRECTORY", "read of a path under a file", "a.txt/inner.txt")]
    found = _patterns(answers)
    assert re.search(found["NOT_FOUND"], missing("", "", "x/other.md").text), found
    assert "NOT_A_DIRECTORY" not in found, found


def test_an_exception_named_for_its_kind_is_learnt_whatever_tool_answered_it() -> None:
    """mcp-switchboard-server-harness 0.4.0.dev6: "Error executing tool <its name>:
    FileNotFoundError: <path>" to a missing file, to a path under a file and to an edit of a
    folder. The exception's name says NOT_FOUND (and nothing of a folder); the messages differ
    by the tool's name alone: the pattern is NOT_FOUND's, no other kind's."""
    answers = [Answer("NOT_FOUND", "read of a missing file",
                      "Error executing tool read: FileNotFoundError: gone.txt", "read_file",
                      ("gone.txt",)),
               Answer("NOT_FOUND", "read of a missing file",
                      "Error executing tool read: FileNotFoundError: lost/deep.txt", "read_file",
                      ("lost/deep.txt",)),
               Answer("NOT_A_DIRECTORY", "read of a path under a file",
                      "Error executing tool read: FileNotFoundError: a.txt/inner.txt",
                      "read_file", ("a.txt/inner.txt",)),
               Answer("IS_DIRECTORY", "edit of a folder",
                      "Error executing tool edit: FileNotFoundError: notes", "edit_file",
                      ("notes",)),
               Answer("OUTSIDE_ROOT", "write outside",
                      "Error executing tool write: PermissionError: ../x.txt is outside",
                      "write_file", ("../x.txt",))]
    found = _patterns(answers)
    assert re.search(found["NOT_FOUND"], "Error executing tool read: FileNotFoundError: b.md"), \
        found
    assert not re.search(found["NOT_FOUND"], answers[-1].text), found
    assert {"NOT_A_DIRECTORY", "IS_DIRECTORY"}.isdisjoint(found), found


def test_a_pattern_in_a_note_keeps_its_character_classes() -> None:
    """The draft's notes show a refused pattern as a reader reads it: `\\.` as `.`, but `\\W+`
    and `\\w` kept (they read `W+` and `w`, another pattern, before)."""
    from agentconf.init_from.patterns import literal

    assert literal(r"\A(?<!\w)Error\W+calling\W+tool\.") == r"(?<!\w)Error\W+calling\W+tool."


def test_a_probes_own_path_does_not_make_a_message_say_its_kind() -> None:
    """"missing: <path>" to a missing file and to a write out of the root by `../escape.txt`:
    "escape" is the probe's own name, not the message's word for OUTSIDE_ROOT, so the words say
    NOT_FOUND alone and the pattern is NOT_FOUND's (the write's code is its own clause's)."""
    answers = [Answer("NOT_FOUND", "read of a missing file", "missing: gone.txt", "read_file",
                      ("gone.txt",)),
               Answer("NOT_FOUND", "read of a missing file", "missing: lost/deep.txt",
                      "read_file", ("lost/deep.txt",)),
               Answer("OUTSIDE_ROOT", "write out by ../", "missing: ../escape.txt",
                      "write_file", ("../escape.txt",))]
    found = _patterns(answers)
    assert re.search(found.get("NOT_FOUND", "(?!)"), "missing: other.md"), found


def test_no_pattern_fits_an_answer_of_another_kind_whose_code_was_read_elsewhere() -> None:
    """Every failure answered "The request could not be completed.", its kind in structured
    content alone: an unknown tool's answer (no table reads its structure) teaches no pattern
    that the reads' answers, of other kinds, fit too."""
    unknown = [Answer("TOOL_NOT_FOUND", "an unknown tool", "The request could not be completed.",
                      "no_such_tool", ()),
               Answer("TOOL_NOT_FOUND", "an unknown tool", "The request could not be completed.",
                      "summon_dragon", ())]
    located = (Answer("NOT_FOUND", "read of a missing file",
                      "The request could not be completed.", "read_file", ("gone.txt",)),)
    assert induce(unknown, PROBE_ONLY)[0], "alone, the text is the unknown tool's"
    kept, notes = induce(unknown, PROBE_ONLY, others=located)
    assert kept == [], notes


def test_an_absolute_path_looked_up_inside_the_root_does_not_veto_its_missing_files_words(
) -> None:
    """gia-file-tools 0.1.2 strips an absolute path's leading "/" and looks it up inside its
    root: the probe meant OUTSIDE_ROOT, the answer says "does not exist", quoting the path as
    it resolved it. Its words say NOT_FOUND, so it is no clash for the missing file's pattern
    (RESULT-02 failed for want of it)."""
    outside = "/tmp/x1/sandbox/outside/secret.txt"
    answers = [Answer("NOT_FOUND", "read of a missing file",
                      "Error: File 'missing.txt' does not exist.", "read_file", ("missing.txt",)),
               Answer("NOT_FOUND", "read of a missing file",
                      "Error: File 'gone-notes.md' does not exist.", "read_file",
                      ("gone-notes.md",)),
               Answer("OUTSIDE_ROOT", "read by an absolute path",
                      f"Error: File '{outside[1:]}' does not exist.", "read_file", (outside,))]
    found = _patterns(answers)
    assert re.search(found.get("NOT_FOUND", "(?!)"), "Error: File 'b.md' does not exist."), found
    assert "OUTSIDE_ROOT" not in found, found



def test_a_pattern_no_answer_of_another_kind_reaches_is_chosen_first() -> None:
    """just-bash-mcp words every write failure "Write error: <errno>: ...". The folder's
    `\\AWrite error` was kept, excused for also reaching the link loop's answer (a code the
    draft guesses), and it came first: every write refused through a link out read as
    IS_DIRECTORY (SYMLINK-01/02/03 failed on the kit's reading)."""
    answers = [
        Answer("IS_DIRECTORY", "write of a folder",
               "Write error: EISDIR: illegal operation on a directory, open '/agentconf-dir'"),
        Answer("IS_DIRECTORY", "write of a folder",
               "Write error: EISDIR: illegal operation on a directory, open '/notes'"),
        Answer("IO_ERROR", "write of a symbolic link loop",
               "Write error: EACCES: permission denied, '/loop_b' resolves outside sandbox"),
        Answer("IO_ERROR", "write of a symbolic link loop",
               "Write error: EACCES: permission denied, '/loop_a' resolves outside sandbox"),
    ]
    kept, _notes = induce(answers, ("agentconf-dir", "notes", "loop_a", "loop_b"))
    folder = [regex for code, regex, _ in kept if code == "IS_DIRECTORY"]
    assert folder, kept
    link_out = ("Write error: EACCES: permission denied, '/link_out/new.txt' resolves outside "
                "sandbox")
    assert not any(re.search(regex, link_out) for regex in folder), kept


def test_a_guessed_code_is_learnt_only_from_words_that_say_it() -> None:
    """just-bash-mcp refuses a write into a link loop as it refuses one through a link out
    ("EACCES ... resolves outside sandbox"): IO_ERROR, only guessed for a loop, was learnt from
    those words, and every write refused through a link out read IO_ERROR (SYMLINK-01/02/03)."""
    answers = [Answer("IO_ERROR", "write of a symbolic link loop",
                      f"Write error: EACCES: permission denied, '/{name}' resolves outside sandbox")
               for name in ("loop_a", "loop_b")]
    kept, notes = induce(answers, ("loop_a", "loop_b"))
    assert not [regex for code, regex, _ in kept if code == "IO_ERROR"], kept
    assert any("only guesses" in note for note in notes), notes
    said = [Answer("IO_ERROR", "read of a symbolic link loop",
                   f"ELOOP: too many symbolic links encountered, stat '/{name}'")
            for name in ("loop_a", "loop_b")]
    assert [code for code, _regex, _ in induce(said, ("loop_a", "loop_b"))[0]] == ["IO_ERROR"]


def test_a_pattern_keeps_the_words_of_its_kind_over_a_head_every_failure_shares() -> None:
    """just-bash-mcp starts every failed write "Write error: E…": a folder's "EISDIR" and a
    link's "EACCES … resolves outside sandbox" alike. Where no probe of another kind was
    answered so, `^Write error` fits both twins of the folder probe and reaches no other
    answer, and was kept as IS_DIRECTORY: every write refused through a link out read so."""
    answers = [
        Answer("IS_DIRECTORY", "write of a folder", "Write error: EISDIR: write '/dir-one'"),
        Answer("IS_DIRECTORY", "write of a folder", "Write error: EISDIR: write '/dir-two'"),
        Answer("NOT_FOUND", "read of a missing file", "Read error: ENOENT: no such file"),
    ]
    kept, notes = induce(answers, ("/sandbox", "/sandbox/root", "agentconf-probe"))
    folder = [regex for code, regex, _ in kept if code == "IS_DIRECTORY"]
    assert folder, notes
    assert re.search(folder[0], "Write error: EISDIR: write '/x'")
    assert not re.search(folder[0], "Write error: EACCES: permission denied, '/link_out/new.txt' "
                                    "resolves outside sandbox")


def test_no_pattern_is_kept_for_answers_another_kind_reads_first() -> None:
    """mcp-filesystem-encoding answers a missing folder "Error listing directory: Not a
    directory: nope", as it answers a file: once NOT_A_DIRECTORY reads those words, a NOT_FOUND
    pattern kept after it (`^Error listing directory`) could reach only what no probe showed,
    and read "Path outside allowed directories" as NOT_FOUND."""
    def listed(code: str, name: str) -> Answer:
        return Answer(code, f"list {code}", f"Error listing directory: Not a directory: {name}",
                      "list_directory", (name,))
    answers = [listed("NOT_A_DIRECTORY", "a.txt"), listed("NOT_A_DIRECTORY", "b.txt"),
               listed("NOT_FOUND", "nope"), listed("NOT_FOUND", "nada")]
    kept, notes = induce(answers, ("/sandbox", "/sandbox/root", "agentconf-probe"))
    outside = "Error listing directory: Path outside allowed directories: link_out"
    assert [code for code, regex, _ in kept if re.search(regex, outside)] == [], kept
    assert [code for code, _, _ in kept] == ["NOT_A_DIRECTORY"], kept
    assert any("a pattern of NOT_A_DIRECTORY reads it first" in note for note in notes), notes


def test_a_pattern_fits_the_messages_of_its_kind_not_the_paths_its_probes_sent() -> None:
    """emcp 0.3.0: `such` was kept for NOT_FOUND because it also "fitted" a read of
    `no/such/dir/f.txt` — a word of the probe's own path, not of any message."""
    root = "/dev/shm/x/sandbox/root"
    missing = "Error: Error reading file: [Errno 2] No such file or directory: '{}'"
    nowhere = "Error: Error: path '{}' does not exist"
    folder = "Error: Error reading file: [Errno 21] Is a directory: '{}'"
    answers = [Answer("NOT_FOUND", "edit of a missing file", missing.format(name), "edit_file",
                      (name,)) for name in ("nope.txt", "gone.txt")]
    answers += [Answer("NOT_FOUND", "read in a missing folder", nowhere.format(name),
                       "read_file", (name,)) for name in ("no/such/dir/f.txt", "lost/g.py")]
    answers += [Answer("IS_DIRECTORY", "edit of a folder", folder.format(name), "edit_file",
                       (name,)) for name in ("notes", "dir2")]
    kept, _ = induce(answers, ("/dev/shm/x/sandbox", root))
    found = [regex for code, regex, _ in kept if code == "NOT_FOUND"]
    assert any("No such file or directory" in regex for regex in found), found
    assert not any(re.search(regex, "Error: no such option: --frobnicate") for regex in found)


def _json_refusal(message: str, **data: object) -> str:
    return json.dumps({"ok": False, "message": message, "data": {"status": "error", **data}},
                      indent=2)


def test_a_json_answer_s_message_and_snake_case_keys_are_read_by_what_is_kept() -> None:
    """local-shell-mcp 5.1.4 answers each refusal as pretty JSON whose `message` says the cause:
    a quoted value, so no phrase of it was a candidate, and a phrase of its snake_case keys was
    kept that its own answer did not match (`nearest\\W+existing\\W+parent`): a pattern
    reads its own answer, and the message's words are candidates."""
    missing = {"error_type": "FileNotFoundError", "nearest_existing_parent": "/sandbox/root"}
    answers = [
        Answer("NOT_FOUND", "read missing", _json_refusal("Path not found: /sandbox/root/a",
                                                          **missing)),
        Answer("NOT_FOUND", "read missing twin", _json_refusal("Path not found: /sandbox/root/b",
                                                               **missing)),
        Answer("OUTSIDE_ROOT", "read outside", _json_refusal(
            "Path escapes workspace: ../x", error_type="ValueError")),
        Answer("OUTSIDE_ROOT", "write outside", _json_refusal(
            "Path escapes workspace: ../y", error_type="ValueError")),
        Answer("IS_DIRECTORY", "read folder", _json_refusal(
            "Is a directory: /sandbox/root/sub", error_type="IsADirectoryError")),
    ]
    kept, _ = induce(answers, PROBE_ONLY)
    assert {code for code, _, _ in kept} == {"NOT_FOUND", "OUTSIDE_ROOT", "IS_DIRECTORY"}, kept
    for code, regex, _why in kept:
        assert all(re.search(regex, a.text) for a in answers if a.code == code), (code, regex)
        assert not any(re.search(regex, a.text) for a in answers if a.code != code), regex


def test_the_kits_own_file_names_an_answer_lists_are_never_a_pattern() -> None:
    """local-shell-mcp lists the folder nearest a missing path, and the root then held the
    premises' files: `agentconf\\W+premise\\W+plain\\W+txt` was kept for NOT_FOUND, matched no
    run's answer, and a catch-all read them NOT_A_DIRECTORY (READ-02, LIST-03)."""
    from agentconf.init_from.probe import _KIT_NAMES

    def missing(path: str) -> str:
        return _json_refusal(f"Path not found: /sandbox/root/{path}",
                             nearest_parent_entries=["agentconf-premise-plain.txt"])
    answers = [Answer("NOT_FOUND", "read missing", missing("x")),
               Answer("NOT_FOUND", "read missing twin", missing("y")),
               Answer("NOT_A_DIRECTORY", "read under a file", _json_refusal(
                   "Path not found: /sandbox/root/a.txt/inner.txt", nearest_parent_entries=[]))]
    kept, _ = induce(answers, ("/sandbox", "/sandbox/root", _KIT_NAMES))
    assert not any("premise" in regex for _, regex, _ in kept), kept


def test_a_word_glued_to_a_path_by_a_colon_is_still_read() -> None:
    """`Path not exists:<path>` to every missing thing, a path under a file too (a case the
    contract leaves to NOT_FOUND or NOT_A_DIRECTORY): the words say NOT_FOUND, and cutting the
    path took `exists` with it, so no pattern was kept and no NOT_FOUND was read."""
    prefix = "Error executing tool read_file: Path not exists:"
    answers = [Answer("NOT_FOUND", "read missing", f"{prefix}/sandbox/root/agentconf-probe-x"),
               Answer("NOT_FOUND", "read missing twin", f"{prefix}/sandbox/root/other.txt"),
               Answer("NOT_A_DIRECTORY", "read under a file",
                      f"{prefix}/sandbox/root/a.txt/inner.txt"),
               Answer("OUTSIDE_ROOT", "outside", "Error executing tool read_file: Access "
                                                 "denied - path outside allowed directories")]
    kept, notes = induce(answers, PROBE_ONLY)
    found = [regex for code, regex, _ in kept if code == "NOT_FOUND"]
    assert found, notes
    assert re.search(found[0], f"{prefix}/sandbox/root/missing/deeper.txt")
    assert not re.search(found[0], answers[3].text)


def test_a_number_of_any_length_is_a_number_in_its_pattern() -> None:
    """A size in the words of a read over the bound (`524313 > 262144`) was kept literal: the
    pattern read that one file's refusal, and no other read over the bound had its code read."""
    said = "Error: file exceeds max_bytes ({} > 262144). Increase max_bytes or read a window."
    answers = [Answer("FILE_TOO_LARGE", "a read over the bound", said.format(524313)),
               Answer("FILE_TOO_LARGE", "its twin", said.format(524313)),
               Answer("NOT_FOUND", "missing", "Error: Not a file or does not exist: /sandbox/x")]
    kept, notes = induce(answers, ("/sandbox", "/sandbox/root"))
    found = [regex for code, regex, _ in kept if code == "FILE_TOO_LARGE"]
    assert found, notes
    assert re.search(found[0], said.format(262145)), found[0]


def test_a_bare_status_says_no_code() -> None:
    """Every refused write answering `false` (praisonaiagents' write_file): a status says that a
    call failed, never why; kept as OUTSIDE_ROOT, it read a folder's refusal as an escape's."""
    answers = [Answer("OUTSIDE_ROOT", "write out", "false"),
               Answer("OUTSIDE_ROOT", "write out", "false"),
               Answer("OUTSIDE_ROOT", "write beside", '{"success": false}')]
    kept, notes = induce(answers, PROBE_ONLY)
    assert kept == [] and notes, notes


def test_words_of_no_kind_are_learnt_only_where_every_probe_of_the_kind_says_them() -> None:
    """wcgw answers an unknown tool called with no arguments "Missing arguments", and one called
    with arguments "Unknown tool name: X": the first says the probe's empty call, not the kind,
    and a pattern of it read REGISTRY-04's own case back to it."""
    answers = [Answer("TOOL_NOT_FOUND", "plain", "Missing arguments"),
               Answer("TOOL_NOT_FOUND", "plain", "Missing arguments"),
               Answer("TOOL_NOT_FOUND", "misspelt", "Unknown tool name: Read_File"),
               Answer("TOOL_NOT_FOUND", "misspelt", "Unknown tool name: List_Files"),
               Answer("NOT_FOUND", "missing", "File not found: nope.txt")]
    patterns = [regex for code, regex, _ in induce(answers, PROBE_ONLY)[0]
                if code == "TOOL_NOT_FOUND"]
    assert patterns and not any(re.search(regex, "Missing arguments") for regex in patterns)
    assert all(re.search(regex, "Unknown tool name: Glob") for regex in patterns), patterns
