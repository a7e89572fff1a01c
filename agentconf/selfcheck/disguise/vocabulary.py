"""What disguises are drawn from: the names real agent tool systems give the canonical tools and
arguments (Claude Code, Cline, Cursor, Gemini CLI, Windsurf, OpenHands, the MCP file servers),
their prefixes, failure markers, JSON status shapes, framework prefixes and shell allow-lists.
Chosen from real systems, not from the drafter's own word lists: the test is that the draft
generalises to names it was never told about.
"""

from .dimensions import (
    ExtraArgument,
    JsonStatus,
    NestedEdits,
    ProgramApart,
    Selector,
    TextMarker,
)

TOOL_SYNONYMS: dict[str, tuple[str, ...]] = {
    "read_file": ("view", "cat", "open_file", "read", "read_text_file", "get_file_contents",
                  "view_file", "show_file"),
    "write_file": ("create_file", "save_file", "write", "write_to_file", "put_file"),
    "edit_file": ("str_replace", "replace_in_file", "edit", "modify_file", "search_replace",
                  "apply_edit"),
    "list_files": ("ls", "list_directory", "list_dir", "list", "list_folder"),
    "grep": ("search_content", "search_text", "ripgrep", "find_in_files", "search",
             "search_file_content", "grep_search"),
    "bash": ("shell", "run_command", "execute_command", "terminal",
             "run_shell_command", "sh"),
    # An argv runner's names, none of them a shell's above (one listing may hold both).
    "exec": ("shell_execute", "run_program", "execute_program", "exec_argv"),
    "apply_patch": ("patch", "apply_diff"),
    "tool_search": ("search_tools", "find_tools"),
    "make_directory": ("mkdir", "create_directory"),
    "move_file": ("move", "rename_file", "mv"),
    "copy_file": ("copy", "cp"),
    "delete_file": ("remove_file", "rm", "delete"),
    "read_multiple_files": ("read_files", "read_many_files"),
    "directory_tree": ("tree", "get_directory_tree"),
    "file_info": ("stat", "get_file_info"),
}
TOOL_PREFIXES = ("fs_", "mcp_", "tool_", "workspace_", "mcp__files__")
_FILE = ("file_path", "filepath", "file", "target_file", "filename", "target")
_FOLDER = ("directory", "dir", "folder", "search_path")
# (tool, argument) -> other names it goes by.
ARGUMENT_SYNONYMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("read_file", "path"): _FILE, ("write_file", "path"): _FILE, ("edit_file", "path"): _FILE,
    ("delete_file", "path"): _FILE, ("file_info", "path"): _FILE,
    ("list_files", "path"): _FOLDER, ("grep", "path"): _FOLDER,
    ("make_directory", "path"): _FOLDER, ("directory_tree", "path"): _FOLDER,
    ("write_file", "content"): ("text", "contents", "file_text", "body", "data"),
    ("edit_file", "old_text"): ("old_string", "old_str", "search", "find", "old"),
    ("edit_file", "new_text"): ("new_string", "new_str", "replace", "replacement", "new"),
    ("edit_file", "replace_all"): ("all", "allow_multiple", "replace_every"),
    ("read_file", "start_line"): ("from_line", "line_start", "first_line", "start"),
    ("read_file", "end_line"): ("to_line", "line_end", "last_line", "end"),
    ("bash", "command"): ("cmd", "script", "command_line"),
    ("bash", "timeout_ms"): ("timeout", "timeout_millis"),
    ("exec", "argv"): ("args", "command", "cmd_args"),
    ("exec", "timeout_ms"): ("timeout", "timeout_millis"),
    ("grep", "pattern"): ("regex", "query", "search_pattern", "expression"),
    ("grep", "include"): ("glob", "file_pattern", "files", "include_glob"),
    ("list_files", "pattern"): ("glob", "filter", "match"),
    ("tool_search", "query"): ("q", "keywords"),
    ("move_file", "source"): ("src", "from_path", "source_path"),
    ("copy_file", "source"): ("src", "from_path", "source_path"),
    ("move_file", "destination"): ("dest", "dst", "to_path", "target_path"),
    ("copy_file", "destination"): ("dest", "dst", "to_path", "target_path"),
    ("read_multiple_files", "paths"): ("files", "file_paths"),
}
NESTED_EDITS = (
    NestedEdits(), NestedEdits(old="oldText", new="newText"),
    NestedEdits(field="changes", old="search", new="replace"),
    NestedEdits(field="replacements", old="find", new="replace"),
    NestedEdits(old="old_string", new="new_string"),
)
EXTRA_ARGUMENTS = (
    ExtraArgument(name="reason"), ExtraArgument(name="explanation"),
    ExtraArgument(name="encoding", value="utf-8"),
    ExtraArgument(name="encoding", value="utf-8", declared=True),
    ExtraArgument(name="confirm", value="yes"),
)
# File tools behind one tool and an operation argument (code-editor-mcp's file_ops, dir_ops).
SELECTORS = (
    Selector(),
    Selector(name="files", argument="operation", tools=("read_file", "write_file", "list_files"),
             declared=True),
    Selector(name="fs", argument="op", tools=("write_file", "edit_file")),
)
TEXT_MARKERS = ("Error: ", "ERROR: ", "Failed: ", "error: ", "Error executing tool: ")
JSON_STATUSES = (
    JsonStatus(), JsonStatus(message_key="error"),
    JsonStatus(key="status", ok="ok", failed="error", text_key="output"),
    JsonStatus(key="success", text_key="content", message_key="error"),
    JsonStatus(key="result", ok="success", failed="error", text_key="content",
               message_key="reason"),
)
FAILURE_SIGNALS: tuple[TextMarker | JsonStatus, ...] = (
    *(TextMarker(marker=marker) for marker in TEXT_MARKERS), *JSON_STATUSES)
FAILURE_PREFIXES = ("Tool execution failed: ", "MCP error: ", "[tool error] ",
                    "Execution failed: ")
RESULT_KEYS = ("content", "result", "output", "text")
# The head a tool's every failure opens with (a Python server's f"Error reading file: {e}"):
# the same words for a missing file, a folder and a path outside.
OPERATION_HEADS = {"read_file": "Error reading file: ", "write_file": "Error writing file: ",
                   "edit_file": "Error editing file: ", "list_files": "Error listing directory: ",
                   "grep": "Error searching files: ", "bash": "Error running command: "}
# exec's program apart from its arguments, as runners name the two.
PROGRAM_APARTS = (
    ProgramApart(), ProgramApart(program="command", arguments="arguments"),
    ProgramApart(program="executable", arguments="args", required=False),
    ProgramApart(program="cmd", arguments="argv", required=False),
)
# Programs a shell's allow-list may name; the first three are in every drawn list.
PROGRAMS = ("ls", "cat", "echo", "printf", "pwd", "grep", "head", "tail", "wc", "sort", "true",
            "false", "sleep", "sh", "bash", "python3", "seq", "yes", "find", "touch", "mkdir",
            "rm", "env", "exit", "kill")
