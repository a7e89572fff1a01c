"""One example per profile key, each from a real implementation, for docs/profiles.md.

Keyed by the key's place (`implementation.spec`, `tools.result.text`); docs_gen/profile_doc.py
refuses to render a key without one, so a new key cannot reach the page undocumented.
"""

# (where the example comes from, the TOML)
EXAMPLES: dict[str, tuple[str, str]] = {
    "implementation.spec": (
        "the official MCP filesystem server",
        'spec = "mcp:node {profile_dir}/node_modules/@modelcontextprotocol/server-filesystem'
        '/dist/index.js {root}"'),
    "implementation.name": ("the official MCP filesystem server", 'name = "server-filesystem"'),
    "implementation.version": ("the official MCP filesystem server", 'version = "2026.8.31"'),
    "implementation.absolute_paths": (
        "Claude Code (Read, Write and Edit demand an absolute file_path)",
        "absolute_paths = true"),
    "implementation.virtual_absolute_paths": (
        "deepagents' FilesystemBackend(virtual_mode=True): `/notes.txt` is root/notes.txt",
        "absolute_paths = true\nvirtual_absolute_paths = true"),
    "implementation.failure": (
        "an agent framework that answers every refusal, an unknown tool's too, as a success "
        "whose text starts \"Error: \"",
        "failure = { matches = '\\AError: ' }"),
    "implementation.call_timeout_ms": (
        "Desktop Commander (a Node start plus its first call)", "call_timeout_ms = 20000"),
    "implementation.reuse": (
        "the official MCP filesystem server (no session state between calls)",
        'reuse = "worker"'),
    "implementation.exclude_tools": (
        "Desktop Commander (tools that kill processes or rewrite its own config)",
        'exclude_tools = ["force_terminate", "kill_process", "list_processes", '
        '"set_config_value"]'),
    "implementation.call_other_tools": (
        "a server whose own tools all validate their arguments, checked with REGISTRY-03 on "
        "every tool it lists (off by default: such tools are judged from tools/list alone)",
        "call_other_tools = true"),
    "tools.extra": (
        "the official MCP filesystem server (search_files and list_directory_with_sizes take a "
        "path and change nothing)",
        '[tools.extra.search_files]\npaths = ["path"]\ndestructive = false\n\n'
        '[tools.extra.list_directory_with_sizes]\npaths = ["path"]\ndestructive = false'),
    "implementation.python": (
        "strands-agents-tools installed in its own virtual environment",
        'spec = "python:my_strands_adapter:create"\n'
        'python = "{profile_dir}/.venv/bin/python"'),
    "limits": (
        "Claude Code (tool output is cut at 30,000 characters)",
        "[limits]\nmax_output_chars = 30000"),
    "capabilities": (
        "the official MCP filesystem server (no content search, no shell, no read-before-edit)",
        "[capabilities]\ngrep = false\nbash = false\nread_before_edit = false"),
    "tools.name": ("Claude Code", '[tools.read_file]\nname = "Read"'),
    "tools.args": (
        "the official MCP filesystem server (its edit_file takes a list of edits)",
        '[tools.edit_file]\nname = "edit_file"\n'
        'args = { path = "path", old_text = "edits[0].oldText", new_text = "edits[0].newText" }'),
    "tools.defaults": (
        "the official MCP filesystem server (edit for real, not a dry run)",
        '[tools.edit_file]\ndefaults = { dryRun = false }'),
    "tools.nulls": (
        "local-shell-mcp (every tool requires logical_session_id: null while no session is "
        "open)",
        '[tools.read_file]\nnulls = ["logical_session_id"]'),
    "tools.result": (
        "Claude Code's Bash (JSON text: stdout, stderr, interrupted)",
        '[tools.bash.result]\ntext = ["stdout", "stderr"]\n'
        'failure = { path = "interrupted", equals = true }'),
    "tools.result.text": (
        "Claude Code (Bash answers {\"stdout\": ..., \"stderr\": ...}, Read "
        "{\"file\": {\"content\": ...}})",
        '[tools.bash.result]\ntext = ["stdout", "stderr"]\n\n'
        '[tools.read_file.result]\ntext = "file.content"'),
    "tools.result.error": (
        "mcp-text-editor (a failure is {\"result\": \"error\", \"reason\": ...}); a server "
        "with its codes in MCP structured content",
        '[tools.edit_file.result]\nerror = "reason"\n\n'
        '[tools.read_file.result]\nerror = "structuredContent.failures[0].error.code"'),
    "tools.result.exit_code": (
        "OpenHands' execute_bash (the exit status is in the answer's metadata)",
        '[tools.bash.result]\nexit_code = "metadata.exit_code"'),
    "tools.result.failure": (
        "mcp-text-editor (answers {\"result\": \"error\"} with isError = false)",
        '[tools.edit_file.result]\nfailure = { path = "result", equals = "error" }'),
    "tools.result.flags": (
        "mcp-switchboard-server-harness 0.4.0.dev6 (a timed-out command answers a partial "
        "result: exit code 124 and \"timed_out\": true)",
        '[tools.bash.result]\nflags = { timed_out = "TIMEOUT" }'),
    "tools.result.failure.path": (
        "mcp-text-editor", 'failure = { path = "result", equals = "error" }'),
    "tools.result.failure.equals": (
        "an edit tool answering {\"status\": ...}: any value of a list (mcp-text-editor's is "
        "one value, `equals = \"error\"`)",
        'failure = { path = "status", equals = ["not_found", "count_mismatch"] }'),
    "tools.result.failure.not_equals": (
        "a shell tool answering {\"return_code\": N, \"output\": ...} with success for every "
        "command", '[tools.bash.result]\ntext = "output"\nexit_code = "return_code"\n'
        'failure = { path = "return_code", not_equals = 0 }'),
    "tools.result.failure.matches": (
        "a read tool whose refusal of a long file is a plain-text success",
        '[tools.read_file.result]\nfailure = { matches = \'\\AThe answer is too long\' }\n\n'
        '[[error_patterns]]\ncode = "FILE_TOO_LARGE"\npattern = \'\\AThe answer is too long\''),
    "tools.result.failure.present": (
        "an answer that carries an `error` field only when it failed",
        'failure = { path = "error", present = true }'),
    "tools.limits": (
        "Claude Code (Bash cuts at 30,000 characters, Read at 25,000 tokens)",
        '[tools.bash]\nlimits = { max_output_chars = 30000 }\n\n'
        '[tools.read_file]\nlimits = { max_output_tokens = 25000 }'),
    "tools.limits.max_output_chars": (
        "Claude Code's Bash", "limits = { max_output_chars = 30000 }"),
    "tools.limits.max_output_bytes": (
        "a framework that caps output in bytes", "limits = { max_output_bytes = 65536 }"),
    "tools.limits.max_output_tokens": (
        "Claude Code's Read", "limits = { max_output_tokens = 25000 }"),
    "tools.units": (
        "strands-agents-tools' shell and deepagents' execute (timeouts in seconds)",
        '[tools.bash]\nargs = { timeout_ms = "timeout" }\nunits = { timeout_ms = "s" }'),
    "tools.window": (
        "Claude Code's Read (offset = first line, limit = how many lines)",
        '[tools.read_file]\nname = "Read"\nargs = { path = "file_path" }\n'
        'window = "offset_limit"'),
    "tools.offset_base": (
        "Desktop Commander's read_file (offset 0 is the first line; `length` lines)",
        '[tools.read_file]\nargs = { path = "path", start_line = "offset", end_line = "length" }\n'
        'window = "offset_limit"\noffset_base = 0'),
    "tools.program": (
        "emcp's shell_run (`command`, a program, beside a list of `arguments`)",
        '[tools.exec]\nname = "shell_run"\nargs = { argv = "arguments" }\nprogram = "command"'),
    "tools.replace_all": (
        "Desktop Commander's edit_block (expected_replacements instead of replace_all)",
        '[tools.edit_file]\nname = "edit_block"\n'
        'args = { path = "file_path", old_text = "old_string", new_text = "new_string" }\n'
        'replace_all = "expected_replacements"'),
    "tools.line_base": (
        "a search tool whose output numbers lines from 0 (`a.txt:0:first line`)",
        '[tools.grep]\nname = "search"\nline_base = 0'),
    "tools.argv": (
        "a shell tool taking an argv array (`{\"argv\": [\"bash\", \"-c\", \"ls\"]}`)",
        '[tools.bash]\nname = "shell"\nargv = ["bash", "-c", "{command}"]\n'
        'defaults = { workdir = "{root}" }'),
    "tools.allowed_programs": (
        "a shell that runs only an allow-list of programs",
        '[tools.bash]\nallowed_programs = ["ls", "cat", "echo"]'),
    "tools.limits.max_read_bytes": (
        "a read tool that refuses files over 100 kB", "limits = { max_read_bytes = 100000 }"),
    "tools.limits.max_read_lines": (
        "a read tool that refuses files over 2,000 lines as well as over 256 KiB",
        '[tools.read_file.limits]\nmax_read_bytes = 262144\nmax_read_lines = 2000'),
    "tools.literal": (
        "Desktop Commander's start_search with literalSearch on",
        '[tools.grep]\nname = "start_search"\ndefaults = { searchType = "content", '
        'literalSearch = true }\nliteral = true'),
    "error_codes": (
        "@clarvis/agent-tools (its own spelling of the codes)",
        '[error_codes]\npath_escape = "OUTSIDE_ROOT"\nno_match = "TEXT_NOT_FOUND"'),
    "error_patterns": (
        "the official MCP filesystem server (errors are thrown messages without a code)",
        "[[error_patterns]]\ncode = \"OUTSIDE_ROOT\"\npattern = '\\AAccess denied - '"),
    "error_patterns.code": ("the official MCP filesystem server", 'code = "NOT_FOUND"'),
    "error_patterns.pattern": (
        "the official MCP filesystem server; a server that spells its codes as a prefix "
        "(`NOT_FOUND: ...`, `ACCESS_DENIED: ...`) takes them from the text with a group `code`",
        "pattern = '\\A(ENOENT:|Parent directory does not exist:)'\n\n"
        "[[error_patterns]]\npattern = '\\A(?P<code>[A-Z][A-Z_]+):'\n\n"
        '[error_codes]\nACCESS_DENIED = "OUTSIDE_ROOT"\nINVALID_INPUT = "INVALID_ARGS"'),
    "expected_failures": (
        "the official MCP filesystem server (a known departure, tracked)",
        '[expected_failures]\n"EOL-02" = "applyFileEdits writes every file back with LF"'),
    "env": (
        "Claude Code (keep its config inside the sandbox's HOME)",
        '[env]\nCLAUDE_CONFIG_DIR = "{home}/.claude"\nNO_COLOR = "1"'),
    "setup.files": (
        "Desktop Commander (reads its allowed folders only from its config file)",
        '[setup.files]\n"{home}/.claude-server-commander/config.json" = '
        "'{\"allowedDirectories\": [\"{root}\"], \"telemetryEnabled\": false}'"),
    "setup.requests": (
        "an OpenAI-published shell server that refuses every call until it is given a sandbox",
        '[[setup.requests]]\nmethod = "sandbox/configure"\n'
        'params = { root = "{root}", writable = ["{root}"] }'),
    "setup.state": (
        "Desktop Commander (logs every call and rewrites its config in its config folder)",
        '[setup]\nstate = ["{home}/.claude-server-commander"]'),
    "setup.commands": (
        "codemcp (its write and edit tools work only inside a git repository)",
        '[setup]\ncommands = [["git", "init", "-q"], ["git", "config", "user.email", '
        '"kit@example.invalid"]]'),
    "modes": (
        "the reference served over stdio, started read-only",
        '[modes.read_only]\nargs = ["--read-only"]'),
    "modes.spec": (
        "the reference served over stdio, read-only",
        '[modes.read_only]\nspec = "cmd:agentconf serve --root {root} --read-only"'),
    "modes.args": ("the reference served over stdio", '[modes.read_only]\nargs = ["--read-only"]'),
    "modes.env": (
        "a server that takes its mode from the environment",
        '[modes.read_only]\nenv = { READ_ONLY = "1" }'),
    "unproven": (
        "an MCP file server whose tools work in a virtual filesystem of their own, not the root",
        '[unproven.write_file]\ncalls = "a write of agentconf-premise.txt answered success and '
        'did not land in the root"'),
    "unproven.calls": (
        "an MCP file server whose tools work in a virtual filesystem of their own, not the root",
        '[unproven.read_file]\ncalls = "a read of a file the kit put in the root did not '
        'answer its text: \'Error: file not found\'"'),
    "unproven.refusals": (
        "an agent framework whose tools answer every failure as text in a success",
        '[unproven.edit_file]\nrefusals = "an edit of text that is not there answered success '
        '(\'Could not apply the edit\') and no failure marker tells it from a real edit"'),
    "unproven.arguments": (
        "a shell server whose timeout in seconds must not be below its foreground timeout",
        '[unproven.bash]\narguments = { timeout_ms = "`echo` with timeout_ms 5000, as the '
        'profile sends it, was refused: \'foreground_timeout_seconds must be less than or '
        'equal to timeout_seconds\'" }'),
}
