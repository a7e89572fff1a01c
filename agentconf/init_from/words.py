"""The drafting vocabulary: what real tool systems call the canonical tools and arguments, the
words in a description that say what an argument does, and the words a refusal says its kind
in. Every entry is from a real listing
(the drafting corpus under fixtures/drafting/, the peers under peers/).
"""

import re

from agentconf.contract.tools import CANONICAL_TOOLS, CanonicalTool
from agentconf.contract.tools import PATH_TOOLS as CONTRACT_PATH_TOOLS

TOOL_SYNONYMS: dict[str, tuple[str, ...]] = {
    "read_file": ("read_file", "read", "read_text_file", "view", "cat", "get_file_contents",
                  "open_file", "read_text", "view_file", "file_read", "get_file",
                  "read_file_content", "read_file_contents"),
    "write_file": ("write_file", "write", "create_file", "write_text_file", "save_file",
                   "create_text_file", "file_write", "put_file", "create"),
    "edit_file": ("edit_file", "edit", "edit_block", "str_replace", "replace_in_file",
                  "edit_text_file_contents", "apply_edit", "modify_file", "replace_content",
                  "search_replace", "file_edit", "replace_string", "multi_edit"),
    "list_files": ("list_files", "glob", "list_directory", "ls", "list_dir", "search_files",
                   "find_files", "list", "find_file", "list_folder", "file_glob", "find",
                   "file_search"),
    "grep": ("grep", "search_content", "ripgrep", "rg", "find_in_files", "search_code",
             "start_search", "search_text", "search_for_pattern", "search_in_files",
             "search_file_content", "grep_search", "search_files_content", "search"),
    "bash": ("bash", "shell", "execute", "execute_command", "run_command", "exec", "terminal",
             "start_process", "run_shell", "execute_bash", "run_terminal_cmd", "shell_exec",
             "exec_command", "run_bash", "execute_shell_command", "run_shell_command", "run"),
    # An argv runner goes by a shell's names: its argument's type tells them apart (match.py).
    "exec": ("exec", "run_program", "execute_program", "spawn", "run_process", "shell_execute",
             "execute", "execute_command", "run_command", "exec_command", "shell", "run"),
    "tool_search": ("tool_search", "search_tools", "find_tools"),
}
# The optional canonical path tools, as the contract defines them (contract/tools.py): the
# draft maps them like the six.
PATH_TOOLS: dict[str, CanonicalTool] = {name: CANONICAL_TOOLS[name] for name in CONTRACT_PATH_TOOLS}
TOOL_SYNONYMS.update({
    "move_file": ("move_file", "move", "rename_file", "rename", "mv"),
    "copy_file": ("copy_file", "copy", "cp"),
    "delete_file": ("delete_file", "file_delete", "remove_file", "delete", "remove", "rm"),
    "make_directory": ("make_directory", "create_directory", "mkdir", "make_dir", "create_dir",
                       "create_folder", "create_directories"),
    "read_multiple_files": ("read_multiple_files", "read_files"),
    "directory_tree": ("directory_tree", "get_directory_tree", "tree"),
    "file_info": ("file_info", "get_file_info", "stat", "file_stat", "get_file_stats"),
})
# Words in a tool's name that say it is something else (`read_multiple_files`, `read_media_file`,
# `read_process_output`, `create_directory`, `list_allowed_directories`).
NOT_THIS_TOOL: dict[str, tuple[str, ...]] = {
    "read_file": ("multiple", "media", "image", "images", "process", "output", "directory",
                  "dir", "allowed", "notebook", "url", "pdf", "memory", "resource", "info"),
    "write_file": ("directory", "dir", "multiple", "notebook", "memory", "config"),
    "edit_file": ("notebook", "memory", "config", "image"),
    "list_files": ("allowed", "process", "processes", "sessions", "tools", "memories", "symbols",
                   "resources", "prompts"),
    "grep": ("tools", "web", "memory", "memories", "symbol", "symbols", "processes"),
    "bash": ("process", "sessions", "output"),
    "exec": ("sessions", "output"),
    "delete_file": ("directory", "dir", "text", "contents", "content", "lines", "block",
                    "symbol"),
    "move_file": ("directory", "dir"), "copy_file": ("directory", "dir"),
}
# The canonical tools that change nothing, and the verbs that say a tool changes something: a
# tool named by one of them is never taken for one of those (`delete_directory` scored as a
# directory_tree by its noun would be sent every hostile path a listing is).
LOOKING_TOOLS = frozenset({"read_file", "list_files", "grep", "directory_tree", "file_info",
                           "read_multiple_files", "tool_search"})
CHANGING_VERBS = frozenset({
    "delete", "remove", "rm", "del", "unlink", "erase", "drop", "destroy", "purge", "wipe",
    "trash", "kill", "move", "mv", "rename", "write", "save", "create", "mkdir", "edit",
    "modify", "append", "replace", "patch", "insert", "overwrite", "truncate"})
# Words in a description that speak for a canonical tool.
DESCRIPTION_WORDS: dict[str, tuple[str, ...]] = {
    "grep": ("content", "regex", "regular expression", "ripgrep", "within files", "lines"),
    "list_files": ("glob", "list", "directory", "directories"),
    "bash": ("command", "shell", "terminal"),
    "exec": ("argv", "arguments", "program", "executable"),
    "edit_file": ("replace", "edit"),
    "directory_tree": ("tree", "recursive"),
}
ARGUMENT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "path": ("path", "file_path", "filepath", "file", "filename", "file_name", "relative_path",
             "target_file", "absolute_path", "target_path", "dir_path", "directory", "dir",
             "directory_path", "folder", "relative_dir"),
    "start_line": ("start_line", "offset", "line_start", "from_line", "start", "first_line"),
    "end_line": ("end_line", "limit", "line_end", "to_line", "end", "length", "last_line",
                 "line_count", "num_lines", "lines_count"),
    "content": ("content", "contents", "text", "file_text", "data", "file_content", "body"),
    "old_text": ("old_text", "old_string", "old_str", "search", "old", "needle", "find",
                 "search_text", "old_content", "original_text", "match_text"),
    "new_text": ("new_text", "new_string", "new_str", "replacement", "new", "repl", "replace",
                 "replace_with", "new_content", "replacement_text"),
    "replace_all": ("replace_all", "replaceall", "expected_replacements", "all", "allow_multiple",
                    "allow_multiple_occurrences"),
    "pattern": ("pattern", "search_pattern", "substring_pattern", "regex", "query", "glob",
                "search_term", "search", "expression", "term", "file_mask", "mask",
                "glob_pattern"),
    "include": ("include", "file_pattern", "include_pattern", "glob", "filepattern", "pattern",
                "paths_include_glob", "include_glob", "file_glob", "files", "glob_pattern"),
    "command": ("command", "cmd", "script", "command_line", "shell_command", "args", "argv"),
    "argv": ("argv", "args", "command", "cmd", "arguments", "command_line", "cmd_args"),
    "timeout_ms": ("timeout_ms", "timeout", "timeout_seconds", "timeout_s", "timeout_sec",
                   "timeout_secs"),
    "query": ("query", "q", "search"),
    "source": ("source", "source_path", "src", "from_path", "old_path"),
    "destination": ("destination", "destination_path", "dest", "dst", "target_path", "new_path"),
    "paths": ("paths", "file_paths"),
}
ARGUMENT_TYPES: dict[str, tuple[str, ...]] = {
    "start_line": ("integer", "number"), "end_line": ("integer", "number"),
    "replace_all": ("boolean", "integer", "number"), "timeout_ms": ("integer", "number"),
    # A command line is a string; a list of strings is an argv, exec's (a tool that takes
    # either, a string or an array, is a shell).
    "command": ("string",), "argv": ("array",),
    "paths": ("array",),
}
# "Allowed commands: grep, touch, wc" in a shell's description (mcp-shell-server).
ALLOWED_PROGRAMS = re.compile(r"(?im)^\s*allowed (?:commands|programs|executables)\s*:\s*(.+)$")

_GLOB = re.compile(r"(?i)\bglob|\*\*/|\*\.\w+|wildcard|shell regex|\* matches|file mask")
# A search whose pattern is plain text ([tools.grep] literal): deepagents' "LITERAL text pattern
# (NOT regex)", agno's "query string".
LITERAL = re.compile(r"(?i)\bliteral\b|not regex|verbatim|plain text|query string")
# A write that asks or fails unless told to overwrite: `overwrite = true` is then needed.
ASKS = re.compile(r"(?i)confirm|\basks?\b|unless|fails?\b|error|refus")
_NAMES = re.compile(r"(?i)file ?names?|names? of files|file pattern|\bpartial names|"
                    r"matches (partial )?names|search for files|finding files")
_REGEX = re.compile(r"(?i)regex|regular expression|file contents?|inside files|within files|"
                    r"content search|search for in|text to search|contents of files")
# Argument names that are an include filter by themselves, whatever their description.
INCLUDE_NAMES = ("include", "file_pattern", "include_pattern", "paths_include_glob",
                 "include_glob", "file_glob", "glob", "filepattern")


def describes_glob(text: str) -> bool:
    return _GLOB.search(text) is not None


def describes_names(text: str) -> bool:
    """It matches names of files (a glob, a substring of names), not their contents."""
    return describes_glob(text) or _NAMES.search(text) is not None


def describes_regex(text: str) -> bool:
    return _REGEX.search(text) is not None


# An edit tool, by its description; its old and new texts, by theirs (the old first: "the text
# to replace" is the old one, "the text to replace it with" the new).
EDIT_TOOL = re.compile(r"\b(?:replace|edit)", re.IGNORECASE)
EDIT_TEXTS = {
    ("edit_file", "old_text"): re.compile(
        r"\bto find\b|\bsearch(?:es)? for\b|\bold\b|"
        r"\bto (?:be )?replaced?\b(?! (?:it|them) with)", re.IGNORECASE),
    ("edit_file", "new_text"): re.compile(
        r"\bnew\b|\breplacement\b|\breplace (?:it |them )?with\b|\binsert", re.IGNORECASE),
}


# What a message says of its kind, in the languages real tool systems answer in: a pattern that
# fits one probe of its kind alone is kept only when it says so (never a read guard's "read the
# file first" kept for a folder).
_KIND_WORDS: dict[str, str] = {
    "NOT_FOUND": r"not found|no such|does ?n[o']t exist|not exist|missing|absent|enoent|"
                 r"cannot find|"
                 r"could ?n[o']t find|nicht gefunden|existiert nicht|introuvable|찾을 수 없|"
                 r"없습니다|不存在|找不到|見つかりません",
    "IS_DIRECTORY": r"director|folder|\bdir\b|eisdir|ordner|dossier|폴더|目录|ディレクトリ",
    "NOT_A_DIRECTORY": r"not a (?:dir|folder)|is a file|enotdir|keine? (?:ordner|verzeichnis)|"
                       r"datei|파일입니다|폴더가 아니",
    "OUTSIDE_ROOT": r"outside|denied|not allowed|forbidden|escape|access|allowed dir|sandbox|"
                    r"permitted|restricted|verweigert|außerhalb|밖|거부|허용",
    "TEXT_NOT_FOUND": r"not found|no match|absent|does ?n[o']t (?:occur|match|appear|exist)|"
                      r"not present|could ?n[o']t find|kommt .* nicht vor|nicht gefunden|"
                      r"찾지 못|찾을 수 없",
    "TEXT_MULTIPLE_MATCHES": r"multiple|times|twice|occurr|matches|ambiguous|more than one|"
                             r"unique|"
                             r"mehrfach|-mal|번",
    "NOT_READ": r"\bread\b|gelesen|읽",
    "STALE_READ": r"modified|changed|stale|since|geändert|바뀌|outdated",
    "BINARY_FILE": r"binary|binär|이진|not text|decode|utf|non-text",
    "FILE_TOO_LARGE": r"too large|too big|size|groß|큽니다|exceed|limit|bytes",
    "TOOL_NOT_FOUND": r"unknown|not found|no such tool|unbekannt|not available|tool",
    "INVALID_ARGS": r"invalid|argument|\bargs?\b|param|required|expected|validat|ungültig|"
                    r"인수|잘못|schema|type",
    "NONZERO_EXIT": r"exit|status|code|failed|종료|beendet",
    "TIMEOUT": r"timed? ?out|time-?out|zeitüberschreitung|시간 초과|deadline",
    "PERMISSION_DENIED": r"permission|denied|not allowed|berechtigung|권한|forbidden",
    "IO_ERROR": r"loop|levels|symbolic|eloop|i/o|io error",
    "ALREADY_EXISTS": r"exists|already|existiert|이미",
}


def says_kind(code: str, text: str) -> bool:
    """Whether `text` says something of the kind `code` is, in words: an exception's name
    counts as its words (`FileNotFoundError` says "not found", `NotADirectoryError` "not a
    directory")."""
    words = _KIND_WORDS.get(code)
    spaced = _CAMEL.sub(" ", text)
    return words is not None and re.search(words, spaced, re.IGNORECASE) is not None


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# A line count's base, as a schema or description says it (a read window's, a search's numbers).
ZERO_BASED = re.compile(r"(?i)0-based|zero-based|0-indexed|zero-indexed|counting from (0|zero)|"
                        r"(starts?|starting|begins?) (at|from) (0|zero)|0 is the first|"
                        r"first line is (line )?0")
ONE_BASED = re.compile(r"(?i)1-based|one-based|1-indexed|counting from (1|one)|"
                       r"(starts?|starting|begins?) (at|from) (1|one)\b|1 is the first|"
                       r"first line is (line )?1")

# A runner that takes the program apart from its arguments: the program's names, the list's.
PROGRAM_NAMES = frozenset({"command", "program", "executable", "cmd", "binary", "exe"})
ARGUMENT_LISTS = frozenset({"args", "arguments", "argv", "argument_list", "cmd_args",
                            "command_args", "program_args"})
