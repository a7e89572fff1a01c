"""The mapping half of `init --from` on the shapes issue 25 saw it draft wrong on real tool
systems (each tool below as the issue describes it), beside the drafting corpus that holds it to
whole real listings (test_mapping_corpus.py)."""

from typing import Any

import pytest

from agentconf.init_from.match import match_tools
from agentconf.init_from.path_tools import map_path_tools
from agentconf.init_from.reads import demands_absolute_paths
from agentconf.init_from.shape import map_listing

S, INT, B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}


def _tool(name: str, properties: dict[str, Any], required: list[str],
          description: str = "") -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": properties, "required": required}}


_READ_FILES = _tool("read_files", {"paths": {"type": "array", "items": S}}, ["paths"],
                    "Read the contents of several files at once.")


SHAPES = {
    # gia-file-tools 0.1.2: texts named by what they are for, not by any known name.
    "an edit whose texts say what they are": (
        [_tool("replace_text", {
            "file_path": S,
            "target_snippet": {**S, "description": "The exact text block to find."},
            "replacement_snippet": {**S, "description": "The new text to replace it with."}},
               ["file_path", "target_snippet", "replacement_snippet"],
               "Replace a specific block of text inside a file")],
        "edit_file", {"name": "replace_text",
                      "args": {"path": "file_path", "old_text": "target_snippet",
                               "new_text": "replacement_snippet"}}),
    # A disguised reference (seed 20261208): read_file behind a family prefix, its path renamed
    # to a word no synonym has; the name says what it does, so the one string left is the path.
    "a prefixed read_file whose path is target": (
        [_tool("tool_read_file", {"target": S, "start_line": INT, "end": INT}, ["target"],
               "Read a text file.")],
        "read_file", {"name": "tool_read_file", "args": {
            "path": "target", "start_line": "start_line", "end_line": "end"}}),
    # Seed 20261209, draw 4: a known name of read_file, its path renamed the same way.
    "read_text_file whose path is target": (
        [_tool("read_text_file", {"target": S, "start_line": INT}, ["target"], "Read a file."),
         _READ_FILES],
        "read_file", {"name": "read_text_file", "args": {"path": "target",
                                                          "start_line": "start_line"}}),
    "read_file taking file_name": (
        [_tool("read_file", {"file_name": S}, ["file_name"])],
        "read_file", {"name": "read_file", "args": {"path": "file_name"}}),
    "Serena's relative_path, needle and repl": (
        [_tool("replace_content", {"relative_path": S, "needle": S, "repl": S,
                                   "mode": {"type": "string", "enum": ["literal", "regex"]}},
               ["relative_path", "needle", "repl", "mode"], "Replaces content in a file")],
        "edit_file", {"name": "replace_content",
                      "args": {"path": "relative_path", "old_text": "needle", "new_text": "repl"},
                      "defaults": {"mode": "literal"}}),
    "Serena's substring_pattern": (
        [_tool("search_for_pattern", {"substring_pattern": S, "relative_path": S},
               ["substring_pattern"], "Search for a regular expression in files")],
        "grep", {"name": "search_for_pattern",
                 "args": {"pattern": "substring_pattern", "path": "relative_path"}}),
    "a fast_-prefixed family": (
        [_tool("fast_write_file", {"path": S, "content": S}, ["path", "content"])],
        "write_file", {"name": "fast_write_file", "args": {"path": "path", "content": "content"}}),
    "an edit with edits[]": (
        [_tool("edit", {"path": S, "edits": {"type": "array", "items": {
            "type": "object", "properties": {"oldText": S, "newText": S}}}},
            ["path", "edits"])],
        "edit_file", {"name": "edit", "args": {"path": "path", "old_text": "edits[0].oldText",
                                               "new_text": "edits[0].newText"}}),
    "grep's pattern a file glob, its content searchPattern": (
        [_tool("search_code", {"path": S, "pattern": dict(S, description="file glob, *.ts"),
                               "searchPattern": S}, ["searchPattern"])],
        "grep", {"name": "search_code", "args": {"pattern": "searchPattern", "path": "path",
                                                 "include": "pattern"}}),
    "a search of names unless content_search": (
        [_tool("search", {"path": S, "pattern": S,
                          "content_search": dict(B, description="search file contents")},
               ["path", "pattern"], "Searches file names, or contents with content_search")],
        "grep", {"name": "search", "args": {"pattern": "pattern", "path": "path"},
                 "defaults": {"content_search": True, "path": "."}}),
    "a create that asks unless overwrite": (
        [_tool("create", {"filePath": S, "text": S, "overwrite": B}, ["filePath", "text"],
               "Creates a file; asks for a confirmation unless overwrite is true")],
        "write_file", {"name": "create", "args": {"path": "filePath", "content": "text"},
                       "defaults": {"overwrite": True}}),
    "a create whose overwrite is off by default (it refuses every write over a file)": (
        [_tool("create_file", {"path": S, "content": S, "overwrite": dict(
            B, default=False, description="Whether to overwrite if file already exists")},
               ["path", "content"], "Create a new file with the given content")],
        "write_file", {"name": "create_file", "args": {"path": "path", "content": "content"},
                       "defaults": {"overwrite": True}}),
    # A lister that hides dotfiles unless told: LIST-01 lists every file, the switch is its way.
    "a lister whose dotfiles are shown only when asked": (
        [_tool("list_files", {"path": S, "include_dotfiles": dict(B, default=False)}, [],
               "List the files of a folder")],
        "list_files", {"name": "list_files", "args": {"path": "path"},
                       "defaults": {"include_dotfiles": True}}),
    "a lister that skips hidden entries unless told": (
        [_tool("ls", {"dir": S, "skip_hidden": dict(B, default=True)}, ["dir"],
               "List a directory")],
        "list_files", {"name": "ls", "args": {"path": "dir"},
                       "defaults": {"skip_hidden": False, "dir": "."}}),
    "a lister whose 'all' lists hidden files, as ls -a": (
        [_tool("list_directory", {"path": S, "all": dict(
            B, description="Also show hidden files (names starting with a dot)")}, ["path"],
               "List a directory")],
        "list_files", {"name": "list_directory", "args": {"path": "path"},
                       "defaults": {"all": True, "path": "."}}),
    "fs-mcp's edit_files: files[], each with edits[] of match_text and new_string": (
        [_tool("edit_files", {"files": {"type": "array", "items": {
            "type": "object", "required": ["path", "edits"], "properties": {
                "path": S, "edits": {"type": "array", "items": {
                    "type": "object", "required": ["match_text", "new_string"],
                    "properties": {"match_text": S, "new_string": S}}}}}}}, ["files"],
               "Edit files: ordered find-and-replace operations")],
        "edit_file", {"name": "edit_files", "args": {
            "path": "files[0].path", "old_text": "files[0].edits[0].match_text",
            "new_text": "files[0].edits[0].new_string"}}),
    "a shell that requires workdir": (
        [_tool("shell", {"command": S, "workdir": S}, ["command", "workdir"], "Runs a command")],
        "bash", {"name": "shell", "args": {"command": "command"},
                 "defaults": {"workdir": "{root}"}}),
    # The disguises' names (tests/selfcheck/test_disguise.py): no listing used them before.
    "a name no listing used, every argument the canonical one's": (
        [_tool("show_file", {"path": S, "start_line": INT, "end_line": INT}, ["path"],
               "Show a text file")],
        "read_file", {"name": "show_file",
                      "args": {"path": "path", "start_line": "start_line",
                               "end_line": "end_line"}}),
    "a lister's search_path and a filter its description calls a glob": (
        [_tool("list_files", {"search_path": S, "filter": {
            "type": "string", "description": "Glob that paths must match, e.g. `*.py`"}}, [])],
        "list_files", {"name": "list_files", "args": {"path": "search_path",
                                                      "pattern": "filter"}}),
    # code-editor-mcp's FastMCP tools: the options are in the docstring, not in the schema.
    "an action whose options only the tool's docstring lists": (
        [_tool("file_ops", {"action": S, "file_path": S, "content": S}, ["action"],
               'File operations.\n\n    Args:\n        action: "write" | "append" | "delete"'
               "\n        file_path: Target path.\n")],
        "write_file", {"name": "file_ops", "args": {"path": "file_path", "content": "content"},
                       "defaults": {"action": "write"}}),
    "an operation argument in the listing's own case": (
        [_tool("FsFiles", {"Op": {"type": "string", "enum": ["write", "edit"]}, "Path": S,
                           "Text": S}, ["Op", "Path"])],
        "write_file", {"name": "FsFiles", "args": {"path": "Path", "content": "Text"},
                       "defaults": {"Op": "write"}}),
    "an action whose options are a docstring's list under it": (
        [_tool("ops", {"action": S, "path": S}, ["action", "path"],
               'Args:\n    action:\n        - "read": read a file\n        - "stat": its size'
               "\n    path: the file\n")],
        "read_file", {"name": "ops", "args": {"path": "path"}, "defaults": {"action": "read"}}),
    # A disguised reference (seed 20261211, draw 23): argument names in kebab case. The shell's
    # name says nothing known, its arguments are the canonical ones in another case...
    "a shell named sh whose arguments are the canonical ones in kebab case": (
        [_tool("sh", {"command": S, "timeout-ms": INT}, ["command"],
               "Run a command with /bin/bash -c in the workspace root.")],
        "bash", {"name": "sh", "args": {"command": "command", "timeout_ms": "timeout-ms"}}),
    # ...and an edit mode's texts are told only in the docstring's `Args:` line of a kebab-case
    # list, its items' keys in braces.
    "an edit mode whose kebab-case texts only the docstring names": (
        [_tool("fs", {"op": S, "path": {**S, "description": "(write, edit)"},
                      "body": {**S, "description": "(write only)"},
                      "replace-all": {**B, "description": "(edit only)"},
                      "edits": {"type": "array", "items": {
                          "type": "object", "additionalProperties": S},
                          "description": "(edit only)"}}, ["op", "path"],
               'File operations: write, edit.\n\nArgs:\n    op: "write" | "edit"\n\n'
               "edit: Replace an exact piece of text in a file.\n\nArgs:\n"
               "    path: File to edit.\n    replace-all: Replace every occurrence.\n"
               "    edits: List of {old-text, new-text} dictionaries.\n")],
        "edit_file", {"name": "fs", "args": {"path": "path", "old_text": "edits[0].old-text",
                                             "new_text": "edits[0].new-text",
                                             "replace_all": "replace-all"},
                      "defaults": {"op": "edit"}}),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_shape_seen_drafted_wrong_is_mapped_by_what_it_does(shape: str) -> None:
    listing, canonical, expected = SHAPES[shape]
    mapped = map_listing(listing)
    assert canonical in mapped, {c: g.name for c, g in mapped.items()}
    guess = mapped[canonical]
    got = {"name": guess.name, "args": guess.args}
    if guess.keys.get("defaults"):
        got["defaults"] = guess.keys["defaults"]
    assert got == expected, guess.evidence


@pytest.mark.parametrize("listed_required", [True, False], ids=["list-required", "list-optional"])
def test_a_runner_taking_a_program_apart_sends_argv_s_first_item_to_it(
        listed_required: bool) -> None:
    """A required program beside a list of its arguments, required or left out for none (a
    disguised reference, `program_apart`): exec, never a shell's command line nor an extra text
    argument filled with words."""
    arguments = {"type": "array", "items": S}
    required = ["executable", "args"] if listed_required else ["executable"]
    listing = [_tool("run_program", {"executable": S, "args": arguments}, required,
                     "Run a program with its arguments, no shell.")]
    mapped = map_listing(listing)
    assert "bash" not in mapped, mapped["bash"].evidence
    runner = mapped["exec"]
    assert (runner.args.get("argv"), runner.keys.get("program")) == ("args", "executable"), (
        runner.evidence)


def test_a_shell_command_beside_optional_arguments_is_a_shell_s_command_line() -> None:
    """mcp-cli 1.0.5's executeCommand: `command`, "Shell command to execute", and optional
    `args` joined to it for a shell: bash, not a program apart from its arguments."""
    listing = [_tool("executeCommand", {
        "command": {**S, "description": "Shell command to execute"},
        "args": {"type": "array", "items": S, "description": "Command arguments"}},
        ["command"], "Execute a shell command with environment variables support.")]
    mapped = map_listing(listing)
    assert "exec" not in mapped and mapped["bash"].args == {"command": "command"}, mapped


def test_a_delete_on_a_file_is_the_tool_whose_path_is_a_file_s() -> None:
    """Two tools delete by an action; the one whose path is named a folder's deletes folders."""
    docstring = 'Args:\n    action: "create" | "delete"\n'
    listing = [_tool("dir_ops", {"action": S, "dir_path": S}, ["action", "dir_path"], docstring),
               _tool("file_ops", {"action": S, "file_path": S}, ["action"], docstring)]
    optional, _ = map_path_tools(listing, map_listing(listing))
    assert optional["delete_file"].name == "file_ops", optional["delete_file"].evidence


def test_a_window_counting_from_zero_is_offset_base_zero() -> None:
    read = _tool("read_file", {"path": S, "offset": dict(INT, description="line to start at, "
                                                            "counting from 0"), "length": INT},
                 ["path"])
    keys = map_listing([read])["read_file"].keys
    assert (keys["window"], keys["offset_base"]) == ("offset_limit", 0)


@pytest.mark.parametrize(("argument", "default", "limits"), [
    ("max_output_bytes", 65536, {"max_output_bytes": 65536}),
    ("maxOutputChars", 30000, {"max_output_chars": 30000}),
    ("max_output_tokens", 0, None),  # no bound a call could fill
    ("max_lines", 2000, None),  # lines: no unit the contract bounds output in
], ids=["bytes", "camel-chars", "zero", "lines"])
def test_an_output_bound_the_schema_states_is_the_tools_own(
        argument: str, default: int, limits: dict[str, int] | None) -> None:
    """coding-tools-mcp's exec_command caps its output at max_output_bytes (default 65536): the
    draft read its timeout's default from the same schema, not this, and TRUNCATE judged it
    by the contract's 50,000 characters, a bound it was never told."""
    shell = _tool("exec_command", {"cmd": S, argument: dict(INT, default=default)}, ["cmd"],
                  "Run a shell command")
    guess = map_listing([shell])["bash"]
    assert guess.keys.get("limits") == limits, guess.evidence


@pytest.mark.parametrize("nested", [False, True], ids=["top-level", "in-a-request-object"])
def test_a_count_of_replacements_is_sent_as_a_count_wherever_it_sits(nested: bool) -> None:
    """`expected_replacements` takes a count where the contract has a flag: sent `true` it is 1
    and `false` is refused, so the draft says replace_all is that count, nested too (every
    argument inside one `request` object, as some FastMCP servers take them)."""
    fields = {"path": S, "old_string": S, "new_string": S, "expected_replacements": INT}
    properties = ({"request": {"type": "object", "properties": fields, "required": ["path"]}}
                  if nested else fields)
    edit = _tool("edit_file", properties, ["request"] if nested else ["path"],
                 "Replace text in a file")
    guess = map_listing([edit])["edit_file"]
    assert guess.args["replace_all"].endswith("expected_replacements"), guess.args
    assert guess.keys.get("replace_all") == "expected_replacements", guess.keys


# What a failing call's JSON answer (an MCP success) says that a working one's does not, as real
# servers answer: the `result` keys that make it a failure, and where its message is.
STATUS_SHAPES = {
    "fs-mcp 1.47.3 edit_files: a status and a message per file": (
        {"success": False, "files": [{"status": "error", "error": "File not found: x.txt",
                                      "path": "x.txt"}]},
        {"success": True, "files": [{"status": "ok", "path": "y.txt"}]},
        {"failure": {"path": "success", "equals": False}, "error": "files[0]"}),
    "mcp-code-editor 0.1.24: a status and a code of its own": (
        {"success": False, "error": "FileNotFoundError", "message": "no such file: x.txt"},
        {"success": True, "result": "alpha"},
        {"failure": {"path": "success", "equals": False}}),
    "@shtse8/filesystem-mcp 0.5.8 read_content: a list with an item per file": (
        [{"path": "x.txt", "error": "File not found at resolved path ''"}],
        [{"path": "y.txt", "content": "alpha\n"}],
        {"failure": {"path": "/0/error", "present": True}, "error": "/0"}),
    "@shtse8/filesystem-mcp 0.5.8 replace_content: results per file": (
        {"message": "Replace content operations completed.",
         "results": [{"file": "x.txt", "replacements": 0, "error": "Path is not a file"}]},
        {"message": "Replace content operations completed.",
         "results": [{"file": "y.txt", "replacements": 1, "modified": True}]},
        {"failure": {"path": "results[0].error", "present": True}, "error": "results[0]"}),
    "nothing tells them apart": (
        {"path": "x.txt", "note": "done"}, {"path": "y.txt", "note": "done"}, None),
}


@pytest.mark.parametrize(("failed", "worked", "keys"), STATUS_SHAPES.values(),
                         ids=STATUS_SHAPES.keys())
def test_a_json_answer_that_says_it_failed_is_drafted_a_failure(
        failed: Any, worked: Any, keys: dict[str, Any] | None) -> None:
    from agentconf.init_from.reads import status_keys

    found = status_keys(failed, worked, "a failing call", "a working call", "its", "/root")
    assert (found[0] if found else None) == keys, found


def test_an_argument_described_by_another_arguments_path_is_not_a_path() -> None:
    """coding-tools-mcp's apply_changes: `revision`, "The revision read_file reported for this
    path", was drafted a path argument and sent paths."""
    from agentconf.init_from.path_tools import path_targets

    # 0.5.0 says more of it ("Required for write when the path exists"): its name says what it
    # is, a revision, whatever its description says of paths.
    change = {"type": "object", "properties": {
        "path": S, "revision": dict(S, description=(
            "The revision read_file reported for this path. Required for write when the path "
            "exists, and always for edit, delete, move, and copy.")),
        "destination": dict(S, description="Target path for move and copy")}}
    tool = {"name": "apply_changes", "inputSchema": {"type": "object", "properties": {
        "changes": {"type": "array", "items": change}}}}
    assert path_targets(tool) == ["changes[0].path", "changes[0].destination"]


def test_arguments_a_description_calls_paths_are_path_arguments() -> None:
    """A two-file compare tool (`file1`, `file2`), and an argument only its description calls a
    path (`left`: "path of the first file"): judged for confinement like any path argument;
    a text it searches is not a path however it is described."""
    from agentconf.init_from.path_tools import path_targets

    compare = {"name": "compare_files", "inputSchema": {"type": "object", "properties": {
        "file1": {"type": "string"}, "file2": {"type": "string"}}}}
    described = {"name": "diff", "inputSchema": {"type": "object", "properties": {
        "left": {"type": "string", "description": "Path of the first file"},
        "query": {"type": "string", "description": "text to find in the file at path"}}}}
    assert path_targets(compare) == ["file1", "file2"]
    assert path_targets(described) == ["left"]


def test_a_tool_with_its_exact_name_is_mapped_whatever_its_arguments_are_called() -> None:
    """A `read_file` whose path is `file_paths` (a string or a list), an `edit_file` whose
    `edits` items are named only in its description ({oldText, newText}): both were left
    unmapped, and READ and EDIT reported n/a on tools they had."""
    from agentconf.init_from.shape import map_listing

    listing = [
        {"name": "read_file", "inputSchema": {"type": "object", "required": ["file_paths"],
         "properties": {"file_paths": {"anyOf": [
             {"type": "string"}, {"type": "array", "items": {"type": "string"}}]}}}},
        {"name": "edit_file", "inputSchema": {"type": "object", "required": ["path", "edits"],
         "properties": {"path": {"type": "string"}, "edits": {
             "type": "array", "items": {"type": "object"},
             "description": "a list of {oldText, newText} pairs, applied in order"}}}},
    ]
    mapped = map_listing(listing)
    assert mapped["read_file"].args == {"path": "file_paths"}
    assert mapped["edit_file"].args == {"path": "path", "old_text": "edits[0].oldText",
                                        "new_text": "edits[0].newText"}


def test_a_required_argument_with_no_counterpart_gets_a_value_that_works() -> None:
    """A framework that wants a `reason` for every call, or an `encoding` its description
    fixes: left as a TODO, every call failed for want of it, and so did the probes after."""
    from agentconf.init_from.shape import map_listing

    listing = [{"name": "write_file", "inputSchema": {
        "type": "object", "required": ["path", "content", "reason", "encoding"],
        "properties": {"path": {"type": "string"}, "content": {"type": "string"},
                       "reason": {"type": "string", "description": "Why, in a few words."},
                       "encoding": {"type": "string", "description": 'Must be "utf-8".'}}}}]
    defaults = map_listing(listing)["write_file"].keys["defaults"]
    assert defaults["encoding"] == "utf-8"
    assert isinstance(defaults["reason"], str) and defaults["reason"].strip()


def test_a_search_showing_lines_around_each_match_is_sent_none() -> None:
    """Lines around a match are labelled context, not matches, but a check of which lines a
    search reports reads them as reported (GREP-01 failed on a right answer): the draft sends
    the counts of context lines as 0, and leaves a date filter alone."""
    fields = {"pattern": S, "path": S, "context_lines": INT, "before": INT,
              "modified_before": INT}
    search = _tool("search_files", {"request": {"type": "object", "properties": fields,
                                                "required": ["pattern"]}}, ["request"],
                   "Search file contents for a regular expression")
    defaults = map_listing([search])["grep"].keys.get("defaults", {})
    assert defaults.get("request.context_lines") == 0 and defaults.get("request.before") == 0
    assert "request.modified_before" not in defaults, defaults


def test_a_reads_own_size_cap_is_sent_as_the_contracts_limit() -> None:
    """A read that caps the file size per call (`max_size`, in bytes) read a 640 KB file whole
    at its own 10 MB default, and READ-05 failed on a limit it was never given: the draft sends
    the contract's max_read_bytes there. A cap in lines is not a size in bytes."""
    from agentconf.contract import DEFAULT_LIMITS

    fields = {"path": S, "max_size": dict(INT, description="Lower the size limit for this "
                                            "read. Cannot raise it above the configured maximum."),
              "max_lines": dict(INT, description="Maximum number of lines"),
              "max_size_kb": dict(INT, description="Maximum size in KB")}
    read = _tool("read_file", {"request": {"type": "object", "properties": fields,
                                           "required": ["path"]}}, ["request"], "Read a file")
    guess = map_listing([read])["read_file"]
    defaults = guess.keys.get("defaults", {})
    assert defaults.get("request.max_size") == DEFAULT_LIMITS.max_read_bytes, defaults
    assert "request.max_lines" not in defaults and "request.max_size_kb" not in defaults
    # The comment says what is sent; what the read does with it is READ-05's to judge.
    said = next(line for line in guess.evidence if "request.max_size" in line)
    assert "refused" not in said and "READ-05 judges" in said, said


def test_a_tree_is_the_tool_its_description_calls_a_recursive_tree() -> None:
    """gia-file-tools 0.1.2's get_file_structure ("a recursive tree view of a directory") was
    drafted as file_info by a partial name match."""
    tree = _tool("get_file_structure", {"directory_path": S}, [],
                 "Get a recursive tree view of a directory structure")
    assert map_path_tools([tree], {})[0]["directory_tree"].name == "get_file_structure"


def test_a_tool_named_to_change_things_is_never_taken_for_one_that_looks() -> None:
    """mcp-workspace 0.1.13's `delete_directory(dir_path, recursive)` was drafted directory_tree
    by its noun and its `recursive` (and sent every hostile path a listing is), its
    `github_search(query)` tool_search by its verb; a destructive annotation says the same as a
    name."""
    listing = [
        _tool("read_file", {"file_path": S}, ["file_path"]),
        _tool("delete_directory", {"dir_path": S, "recursive": B}, ["dir_path"],
              "Delete a directory, recursive to delete what is in it."),
        _tool("github_search", {"query": S}, ["query"],
              "Search GitHub issues and pull requests. Other tools read the files."),
        {**_tool("tree", {"path": S}, ["path"], "Show a directory tree, recursive."),
         "annotations": {"destructiveHint": True}},
    ]
    mapped = map_listing(listing)
    optional, _ = map_path_tools(listing, mapped)
    names = {canonical: guess.name for canonical, guess in {**mapped, **optional}.items()}
    assert names.get("directory_tree") is None and names.get("tool_search") is None, names
    assert names.get("read_file") == "read_file", names
    alone = listing[:2]  # the delete beside nothing else that looks like a tree
    optional, _ = map_path_tools(alone, map_listing(alone))
    assert "directory_tree" not in optional, optional["directory_tree"].evidence
    kept = [{**_tool("get_directory_tree", {"path": S}, ["path"], "A recursive tree.")},
            _tool("search_tools", {"query": S}, ["query"], "Find the tools that match.")]
    mapped = map_listing(kept)
    optional, _ = map_path_tools(kept, mapped)
    names = {canonical: guess.name for canonical, guess in {**mapped, **optional}.items()}
    assert names.get("directory_tree") == "get_directory_tree", names
    assert names.get("tool_search") == "search_tools", names


@pytest.mark.parametrize(("said", "literal"), [
    ("Python regex to match file contents. Invalid regex patterns are automatically treated as "
     "literal text.", False),
    ("Text pattern to search for (literal string, not regex)", True),
    ("The text to search for, a literal string.", True),
])
def test_a_pattern_its_own_description_calls_a_regex_is_one(said: str, literal: bool) -> None:
    """mcp-workspace 0.1.13's search_files pattern is a Python regex whose invalid ones fall back
    to literal text: the word "literal" drafted `literal = true`."""
    listing = [_tool("search_files", {"pattern": {**S, "description": said}}, ["pattern"],
                     "Search file contents (like grep).")]
    guess = map_listing(listing)["grep"]
    assert guess.keys.get("literal", False) is literal, guess.evidence




def test_a_read_of_many_files_is_read_multiple_files_beside_a_read_of_one() -> None:
    """A disguised reference (seed 20261207) named its read `show_file` and its read of many
    `read_files(paths)`: read_file, matched first as one of the six, took the read of many,
    whose reads its read guard does not count, and no edit could be proven."""
    listing = [_READ_FILES, _tool("show_file", {"path": S, "start_line": INT, "end_line": INT},
                                      ["path"], "Read a text file and return its lines.")]
    mapped = match_tools(listing)
    assert (mapped["read_file"].name, mapped["read_multiple_files"].name) == (
        "show_file", "read_files"), {c: g.name for c, g in mapped.items()}


def test_a_read_of_many_files_is_read_file_where_nothing_else_reads() -> None:
    """One of the six left without a tool takes the one an optional path tool held."""
    mapped = match_tools([_READ_FILES, _tool("write", {"path": S, "content": S},
                                             ["path", "content"])])
    assert mapped["read_file"].name == "read_files", {c: g.name for c, g in mapped.items()}
    assert "read_multiple_files" not in mapped


def test_a_timeout_unit_and_default_the_tool_s_own_description_says_are_drafted() -> None:
    """mcp-switchboard-server-harness 0.4.0.dev6's bash: "timeout is in seconds (default 120,
    max 3600 ...)" in the tool's description, its `timeout` property a bare number: drafted as
    milliseconds, a 5 s timeout was sent as 5000 s and SHELL-04 hung."""
    bash = _tool("bash", {"command": S, "timeout": {"anyOf": [{"type": "number"},
                                                             {"type": "null"}]}}, ["command"],
                 "Execute a shell command. cwd defaults to the root; timeout is in seconds "
                 "(default 120, max 3600), and a timeout kills the command.")
    guess = map_listing([bash])["bash"]
    assert guess.keys.get("units") == {"timeout_ms": "s"}, guess.evidence
    assert guess.limits.get("shell_timeout_ms") == 120_000, guess.evidence


@pytest.mark.parametrize(("said", "demanded"), [
    ("Read a file. Accepts absolute paths or paths relative to the configured root.", False),
    ("List a folder. Returns a sorted list of absolute paths.", False),
    ("Read a file. The file_path parameter must be an absolute path, not a relative path.", True),
    ("The absolute path to the file to read.", True),
])
def test_only_a_description_that_demands_absolute_paths_drafts_them(said: str,
                                                                    demanded: bool) -> None:
    """bridgemcp-server-filesystem 0.1.1 takes both ("Accepts absolute paths or paths relative
    to the configured root") and returns absolute paths: drafted `absolute_paths = true`, and
    the probe of a relative read, which settles it, was never made."""
    tool = _tool("read_file", {"path": S}, ["path"], said)
    assert demands_absolute_paths([tool], map_listing([tool])) is demanded
