"""Small tool systems of the shapes real ones have and a profile must fit, written into a test's
temp dir and run there: a `cmd:` program (SHAPES, one flag per shape) and a raw MCP server over
stdio (MCP_SHAPES) for what only MCP carries (structured content, the SDK's wrapping).

SHAPES flags:
  --state-in-root   logs every call in root/.shapes-state/calls.log
  --unconfined-write  write goes wherever its path points, inside the root or not
  --noisy           prints a debug line on stdout before every answer
  --cancel-error    declares cancel_request; every call is answered JSON-RPC error -32800
  --only=a,b        advertise only these tools
  --argv            the shell takes `argv` (an array), not a command string
  --allow=a,b       the shell runs only these programs (first word), refusing others
  --timeout-any     the shell takes `timeout` in seconds typed anyOf [integer, null]
  --workdir         the shell requires `workdir`, which must be the root
  --rc              the shell answers {"return_code", "output"} and always says success
  --status          edit answers {"status": "ok" | "not_found" | "count_mismatch"}, success
  --too-long=N      read of a file over N lines is a plain-text "success": "The answer is too long"
  --max-bytes=N     a whole read refuses a file over N bytes: "FILE_TOO_LARGE: ..."
  --max-lines=N     a whole read refuses a file over N lines: "FILE_TOO_LARGE: ..."
  --match-only      grep shows the match, not its line, in JSON {"ripgrep_enhanced": true, ...}
  --grep0           grep numbers lines from 0
  --mkdir-anywhere  advertises mkdir{path}, which makes the folder wherever its path leads
                    (@agent-infra/mcp-server-filesystem's create_directory: a prefix check)
  --needs-sandbox   every call fails "sandbox was required but not provided" until a
                    `sandbox/configure` request names the root
Failures are text prefixed with their code, as some servers spell them: `NOT_FOUND: ...`; an
unexpected one is an envelope without a code (`internal error: ...`).
"""

import sys
import textwrap
from pathlib import Path

SHAPES = textwrap.dedent('''
    import json, os, re, subprocess, sys
    flags = dict((arg.split("=", 1) + [""])[:2] for arg in sys.argv[1:])
    root = os.path.realpath(os.environ["AGENTCONF_ROOT"])
    S, I = {"type": "string"}, {"type": "integer"}
    sandbox = {"given": "--needs-sandbox" not in flags}

    def schema(properties, required):
        return {"type": "object", "properties": properties, "required": required}

    shell_props = {"argv": {"type": "array", "items": S}} if "--argv" in flags else {
        "command": S}
    shell_required = list(shell_props)
    if "--timeout-any" in flags:  # pydantic's `timeout: int | None`
        shell_props["timeout"] = {"anyOf": [I, {"type": "null"}]}
    if "--workdir" in flags:
        shell_props["workdir"] = S
        shell_required.append("workdir")
    TOOLS = [
        {"name": "read", "description": "read a file",
         "input_schema": schema({"path": S, "offset": I, "limit": I}, ["path"])},
        {"name": "write", "description": "write a file",
         "input_schema": schema({"path": S, "content": S}, ["path", "content"])},
        {"name": "edit", "description": "replace text",
         "input_schema": schema({"path": S, "old": S, "new": S}, ["path", "old", "new"])},
        {"name": "list", "description": "list a folder, as a JSON array (ASCII escapes)",
         "input_schema": schema({"path": S}, ["path"])},
        {"name": "search", "description": "search file contents",
         "input_schema": schema({"pattern": S, "path": S}, ["pattern"])},
        {"name": "shell", "description": "run a command",
         "input_schema": schema(shell_props, shell_required)},
    ]

    if "--mkdir-anywhere" in flags:
        TOOLS.append({"name": "mkdir", "description": "make a folder",
                      "input_schema": schema({"path": S}, ["path"])})

    if "--only" in flags:
        TOOLS = [tool for tool in TOOLS if tool["name"] in flags["--only"].split(",")]

    def fail(code, text):
        return {"success": False, "data": f"{code}: {text}"}

    def ok(text):
        return {"success": True, "data": text}

    def resolve(path):
        full = os.path.realpath(os.path.join(root, path))
        if full != root and not full.startswith(root + os.sep):
            raise PermissionError(path)
        return full

    def shell(args):
        if "--workdir" in flags and os.path.realpath(str(args.get("workdir"))) != root:
            return fail("INVALID_INPUT", "workdir must be the root: " + repr(args.get("workdir")))
        timeout = args.get("timeout")
        if timeout is not None and (not isinstance(timeout, int) or isinstance(timeout, bool)):
            return fail("INVALID_INPUT", "timeout: Input should be a valid integer")
        if "--argv" in flags:
            argv = args.get("argv")
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                return fail("INVALID_INPUT", "argv must be an array of strings")
        else:
            if not isinstance(args.get("command"), str):
                return fail("INVALID_INPUT", "command must be a string")
            argv = ["/bin/sh", "-c", args["command"]]
            allowed = flags.get("--allow")
            first = args["command"].split()[0] if args["command"].split() else ""
            if allowed is not None and first not in allowed.split(","):
                return fail("ACCESS_DENIED", f"program {first!r} is not allowed")
        done = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=30)
        if "--rc" in flags:
            return ok(json.dumps({"return_code": done.returncode,
                                  "output": done.stdout + done.stderr}))
        return {"success": done.returncode == 0, "data": done.stdout + done.stderr,
                "exit_code": done.returncode}

    def read(args):
        path = resolve(args["path"])
        if not os.path.isfile(path):
            return fail("NOT_FOUND", "no such file " + args["path"])
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines(keepends=True)
        whole = "offset" not in args and "limit" not in args
        if "--max-bytes" in flags and whole and os.path.getsize(path) > int(flags["--max-bytes"]):
            return fail("FILE_TOO_LARGE", f"more than {flags['--max-bytes']} bytes")
        if "--max-lines" in flags and whole and len(lines) > int(flags["--max-lines"]):
            return fail("FILE_TOO_LARGE", f"{len(lines)} lines, more than {flags['--max-lines']}")
        if "--too-long" in flags and len(lines) > int(flags["--too-long"]):
            return ok(f"The answer is too long ({len(lines)} lines); read a window instead")
        window = [args.get("offset", 1), args.get("limit", len(lines))]
        if not all(isinstance(v, (int, float)) and float(v).is_integer() for v in window):
            return fail("INVALID_INPUT", "offset and limit must be whole numbers")
        first, count = int(window[0]) - 1, int(window[1])
        return ok("".join(f"{first + i + 1}\\t{line}"
                          for i, line in enumerate(lines[first:first + count])))

    def search(args):
        base = 0 if "--grep0" in flags else 1
        hits = []
        start = resolve(args.get("path", "."))
        for folder, _dirs, files in os.walk(start):
            for name in sorted(files):
                full = os.path.join(folder, name)
                if os.path.islink(full):
                    continue
                with open(full, "rb") as handle:
                    raw = handle.read()
                if b"\\0" in raw:
                    continue
                for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(),
                                              start=base):
                    found = re.search(args["pattern"], line)
                    if found:
                        shown = found.group(0) if "--match-only" in flags else line
                        hits.append(f"{os.path.relpath(full, root)}:{number}:{shown}")
        if "--match-only" in flags:
            return ok(json.dumps({"ripgrep_enhanced": True, "matches": hits}))
        return ok("\\n".join(hits) or "no matches")

    def edit(args):
        path = resolve(args["path"])
        if not os.path.isfile(path):
            return fail("NOT_FOUND", "no such file " + args["path"])
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        found = text.count(args["old"])
        status = "ok" if found == 1 else ("not_found" if found == 0 else "count_mismatch")
        if status == "ok":
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text.replace(args["old"], args["new"]))
        if "--status" in flags:
            return ok(json.dumps({"status": status, "found": found}))
        if status == "ok":
            return ok("edited")
        return fail("TEXT_NOT_FOUND" if found == 0 else "TEXT_MULTIPLE_MATCHES", f"found {found}")

    def listing(args):
        folder = resolve(args.get("path", "."))
        names = []
        for here, dirs, files in os.walk(folder):
            rel = os.path.relpath(here, root)
            names += [os.path.normpath(os.path.join(rel, n)) for n in sorted(dirs + files)]
        return ok(json.dumps(sorted(names)))

    def write(args):
        path = os.path.join(root, args["path"]) if "--unconfined-write" in flags \
            else resolve(args["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(args["content"])
        return ok("written")

    def mkdir(args):
        os.makedirs(os.path.join(root, os.path.expanduser(args["path"])), exist_ok=True)
        return ok("made")

    def call(name, args):
        if "--state-in-root" in flags:  # its own log, as some servers keep one in the workspace
            os.makedirs(os.path.join(root, ".shapes-state"), exist_ok=True)
            with open(os.path.join(root, ".shapes-state", "calls.log"), "a") as handle:
                handle.write(name + "\\n")
        if not sandbox["given"]:
            return {"success": False, "data": "Error: sandbox was required but not provided"}
        handler = {"read": read, "write": write, "edit": edit, "search": search,
                   "shell": shell, "list": listing, "mkdir": mkdir}.get(name)
        if handler is None:
            return fail("UNKNOWN_TOOL", str(name))
        try:
            return handler(args)
        except PermissionError as error:
            return fail("ACCESS_DENIED", "outside the workspace: " + str(error))
        except Exception as error:  # every input gets an envelope, without a code
            return {"success": False, "data": "internal error: " + repr(error)}

    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        request = json.loads(line)
        rid, method = request.get("id"), request.get("method")
        params = request.get("params") or {}
        if "--noisy" in flags:
            print("DEBUG handling " + str(method), flush=True)
        if method == "initialize" and "--cancel-error" in flags:
            send({"jsonrpc": "2.0", "id": rid, "result": {"cancel_request": True}})
        elif method == "tools/call" and "--cancel-error" in flags:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32800,
                                                          "message": "Request cancelled"}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            send({"jsonrpc": "2.0", "id": rid,
                  "result": call(params.get("name"), params.get("arguments") or {})})
        elif method == "sandbox/configure" and os.path.realpath(
                str(params.get("root"))) == root:
            sandbox["given"] = True
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": method}})
''')

# The mapping SHAPES needs whatever its flags: names and arguments only, no shape keys.
MAPPING = textwrap.dedent('''
    [implementation]
    spec = "cmd:{python} {program} {flags}"
    name = "shapes"

    [tools.read_file]
    name = "read"
    window = "offset_limit"
    {read}

    [tools.write_file]
    name = "write"

    [tools.edit_file]
    name = "edit"
    args = {{ old_text = "old", new_text = "new" }}

    [tools.list_files]
    name = "list"

    [tools.grep]
    name = "search"
    {grep}

    [tools.bash]
    name = "shell"
''')


def write_shapes(folder: Path, *flags: str, extra: str = "", grep: str = "",
                 read: str = "") -> Path:
    """SHAPES and a profile (MAPPING plus `extra` TOML; `grep` and `read` in [tools.grep] and
    [tools.read_file]) in `folder`; the profile's path."""
    program = folder / "shapes.py"
    program.write_text(SHAPES)
    profile = folder / "agentconf.toml"
    profile.write_text(MAPPING.format(python=sys.executable, program=program,
                                      flags=" ".join(flags), grep=grep, read=read) + extra)
    return profile


# A hand-written MCP server (newline-delimited JSON-RPC over stdio, what the SDK speaks): its
# `read` answers the way the profile's tests need, chosen by its first argument.
#   sdk-wrapped   as a Python MCP SDK (FastMCP) returns a tool's text blocks: content plus
#                 structuredContent {"result": [<the blocks>]}; a refusal is {"result": "error"}
#   structured    failures in structuredContent.failures[0].error.code, text a plain sentence
#   error-message a failure is {"error": "<a message>"} in the text
#   sandbox       every call fails until a `sandbox/configure` request names the root
#   rpc-error     every call is answered with a JSON-RPC error (-32800, "Request cancelled")
#   noisy         prints debug lines on stdout before answering
MCP_SHAPES = textwrap.dedent('''
    import json, os, sys
    mode = sys.argv[1]
    root = os.path.realpath(os.environ["AGENTCONF_ROOT"])
    state = {"sandbox": mode != "sandbox"}
    S = {"type": "string"}
    TOOLS = [{"name": "read", "description": "read a file",
              "inputSchema": {"type": "object", "properties": {"path": S},
                              "required": ["path"]}}]

    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n")
        sys.stdout.flush()

    def text(value):
        return [{"type": "text", "text": value}]

    def read(args):
        path = os.path.realpath(os.path.join(root, args.get("path", "")))
        exists = path.startswith(root + os.sep) and os.path.isfile(path)
        body = open(path, encoding="utf-8").read() if exists else None
        if not state["sandbox"]:
            return {"content": text("sandbox was required but not provided"), "isError": True}
        if mode == "sdk-wrapped":
            answer = json.dumps({"result": "ok", "content": body} if exists else
                                {"result": "error", "reason": "File not found"})
            blocks = text(answer)
            return {"content": blocks, "structuredContent": {"result": blocks},
                    "isError": False}
        if mode == "structured":
            if exists:
                return {"content": text(body), "structuredContent": {"failures": []},
                        "isError": False}
            return {"content": text("The request could not be completed."),
                    "structuredContent": {"failures": [{"error": {"code": "no_such_file"}}]},
                    "isError": True}
        if mode == "error-message" and not exists:
            return {"content": text(json.dumps({"error": "File not found: " + args["path"]})),
                    "isError": True}
        return {"content": text(body if exists else "missing"), "isError": not exists}

    if mode == "noisy":
        print("DEBUG starting the server, loading plugins")
    for line in sys.stdin:
        message = json.loads(line)
        rid, method = message.get("id"), message.get("method")
        params = message.get("params") or {}
        if rid is None:
            continue  # notifications
        if mode == "noisy":
            print("DEBUG got " + str(method))
        if method == "initialize":
            result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "mcp-shapes", "version": "1.0"}}
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call" and mode == "rpc-error":
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32800,
                                                          "message": "Request cancelled"}})
            continue
        elif method == "tools/call":
            result = read(params.get("arguments") or {})
        elif method == "sandbox/configure" and os.path.realpath(
                str(params.get("root"))) == root:
            state["sandbox"] = True
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": method}})
            continue
        send({"jsonrpc": "2.0", "id": rid, "result": result})
''')


def write_mcp_shapes(folder: Path, mode: str, extra: str = "") -> Path:
    """MCP_SHAPES in `mode` and a profile mapping its `read` (plus `extra`); the profile."""
    program = folder / "mcp_shapes.py"
    program.write_text(MCP_SHAPES)
    profile = folder / "agentconf.toml"
    profile.write_text(
        f'[implementation]\nspec = "mcp:{sys.executable} {program} {mode}"\n\n'
        f'[tools.read_file]\nname = "read"\n' + extra)
    return profile
