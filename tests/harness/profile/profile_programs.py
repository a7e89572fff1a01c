"""A `cmd:` tool system shaped like the real ones a profile must fit, written into a test's temp
dir and run there: answers are JSON text (Claude Code's Bash `{"stdout", "stderr"}`, Read
`{"file": {"content"}}`), an edit failure is `{"result": "error", "reason"}` with success = true
(mcp-text-editor), timeouts are seconds, windows are offset/limit, replace_all is a count
(Desktop Commander). Every answer also says what arguments arrived (`received`).

Flags: --virtual (maps `/x` to root/x), --read-only, --no-window (Read has no offset/limit),
--needs-config (refuses every call until $HOME/.toy/config.json names the root),
--int-timeout (Bash's timeout is an integer).
"""

import sys
import textwrap
from pathlib import Path

PROGRAM = textwrap.dedent('''
    import json, os, subprocess, sys
    flags = set(sys.argv[1:])
    root = os.path.realpath(os.environ["AGENTCONF_ROOT"])

    def schema(properties, required):
        return {"type": "object", "properties": properties, "required": required}

    S, N, I = {"type": "string"}, {"type": "number"}, {"type": "integer"}
    read_props = {"file_path": S} if "--no-window" in flags else {
        "file_path": S, "offset": I, "limit": I}
    TOOLS = [
        {"name": "Read", "kind": "read", "description": "read a file",
         "input_schema": schema(read_props, ["file_path"])},
        {"name": "Write", "kind": "edit", "description": "write a file",
         "input_schema": schema({"file_path": S, "content": S}, ["file_path", "content"])},
        {"name": "Edit", "kind": "edit", "description": "replace text",
         "input_schema": schema({"file_path": S, "old_string": S, "new_string": S,
                                 "expected_replacements": I},
                                ["file_path", "old_string", "new_string"])},
        {"name": "Glob", "kind": "read", "description": "list files matching a pattern",
         "input_schema": schema({"pattern": S}, ["pattern"])},
        {"name": "Bash", "kind": "other", "description": "run a command",
         "input_schema": schema({"command": S,
                                 "timeout": I if "--int-timeout" in flags else N},
                                ["command"])},
        {"name": "kill_everything", "kind": "other", "description": "never to be called",
         "input_schema": schema({}, [])},
    ]

    def configured():
        if "--needs-config" not in flags:
            return True
        try:
            with open(os.path.join(os.environ["HOME"], ".toy", "config.json")) as handle:
                return os.path.realpath(json.load(handle)["root"]) == root
        except (OSError, ValueError, KeyError):
            return False

    def resolve(path):
        if "--virtual" in flags and path.startswith("/"):
            path = path.lstrip("/")
        full = os.path.realpath(os.path.join(root, path))
        if full != root and not full.startswith(root + os.sep):
            raise PermissionError("outside the root: " + path)
        return full

    def answer(payload, success=True):
        return {"success": success, "data": json.dumps(payload)}

    def call(name, args):
        received = dict(args)
        if not configured():
            return {"success": False, "data": "not configured: no ~/.toy/config.json"}
        if name == "kill_everything":
            with open(os.path.join(os.environ["TOY_MARKERS"], "killed"), "a") as handle:
                handle.write("called\\n")
            return answer({"received": received})
        if name == "Bash":
            done = subprocess.run(["/bin/sh", "-c", args["command"]], cwd=root,
                                  capture_output=True, text=True, timeout=30)
            return answer({"stdout": done.stdout, "stderr": done.stderr,
                           "exit_code": done.returncode, "received": received},
                          success=done.returncode == 0)
        try:
            path = resolve(args.get("file_path", "."))
        except PermissionError as error:
            return {"success": False, "data": str(error)}
        if name == "Read":
            try:
                with open(path, encoding="utf-8", newline="") as handle:
                    lines = handle.read().splitlines(keepends=True)
            except OSError as error:
                return {"success": False, "data": json.dumps({"error": str(error)})}
            first = args.get("offset", 1) - 1
            count = args.get("limit", len(lines))
            return answer({"file": {"content": "".join(lines[first:first + count])},
                           "received": received})
        if name == "Glob":
            return answer({"files": sorted(os.listdir(root)), "received": received})
        if "--read-only" in flags:
            return {"success": False, "data": "read-only mode"}
        if name == "Write":
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(args["content"])
            return answer({"result": "ok", "received": received})
        if name == "Edit":
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            found, expected = text.count(args["old_string"]), args.get("expected_replacements", 1)
            if found != expected:
                return answer({"result": "error", "received": received,
                               "reason": f"expected {expected} occurrences, found {found}"})
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text.replace(args["old_string"], args["new_string"]))
            return answer({"result": "ok", "received": received})
        return {"success": False, "data": "unknown tool " + name, "error": "TOOL_NOT_FOUND"}

    for line in sys.stdin:
        request = json.loads(line)
        rid, method = request.get("id"), request.get("method")
        if method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            params = request.get("params") or {}
            result = call(params.get("name"), params.get("arguments") or {})
        else:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {
                "code": -32601, "message": "method not found"}}) + "\\n")
            sys.stdout.flush()
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\\n")
        sys.stdout.flush()
''')

# The profile that fits PROGRAM: every key the tests exercise, in one place.
PROFILE = textwrap.dedent('''
    [implementation]
    spec = "cmd:{python} {program} {flags}"
    name = "json-toy"
    exclude_tools = ["kill_everything"]

    [limits]
    max_output_chars = 2000

    [env]
    TOY_MARKERS = "{{profile_dir}}/markers"
    TOY_HOME_SEEN = "{{home}}"

    [tools.read_file]
    name = "Read"
    args = {{ path = "file_path" }}
    window = "offset_limit"
    result = {{ text = "file.content", error = "error" }}

    [tools.write_file]
    name = "Write"
    args = {{ path = "file_path" }}
    result = {{ text = "result" }}

    [tools.edit_file]
    name = "Edit"
    args = {{ path = "file_path", old_text = "old_string", new_text = "new_string" }}
    replace_all = "expected_replacements"

    [tools.edit_file.result]
    text = "result"
    error = "reason"
    failure = {{ path = "result", equals = "error" }}

    [tools.list_files]
    name = "Glob"

    [tools.bash]
    name = "Bash"
    args = {{ timeout_ms = "timeout" }}
    units = {{ timeout_ms = "s" }}
    result = {{ text = ["stdout", "stderr"], exit_code = "exit_code" }}

    [[error_patterns]]
    code = "TEXT_NOT_FOUND"
    pattern = "found 0\\\\Z"

    [[error_patterns]]
    code = "TEXT_MULTIPLE_MATCHES"
    pattern = "expected 1 occurrences, found [2-9]"

    [[error_patterns]]
    code = "NOT_FOUND"
    pattern = "No such file"
''')


def write_toy(folder: Path, *flags: str, extra: str = "", drop: tuple[str, ...] = ()) -> Path:
    """Writes the program and its profile (plus `extra` TOML) into `folder`; the profile's path.

    `drop`: top-level tables of PROFILE left out (e.g. to see the false failures return).
    """
    program = folder / "json_toy.py"
    program.write_text(PROGRAM)
    (folder / "markers").mkdir(exist_ok=True)
    text = PROFILE.format(python=sys.executable, program=program, flags=" ".join(flags))
    for table in drop:
        text = _without_table(text, table)
    profile = folder / "agentconf.toml"
    profile.write_text(text + extra)
    return profile


def _without_table(text: str, header: str) -> str:
    kept, skipping = [], False
    for line in text.splitlines():
        if line.startswith("["):
            skipping = line.strip() == header
        if not skipping:
            kept.append(line)
    return "\n".join(kept) + "\n"
