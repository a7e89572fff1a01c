"""A `cmd:` tool system with the shapes `init --from` once drafted wrong (issue 25), written into
a test's temp dir and run there. Its failures are plain text without a code, as the real ones:

--error-prefix   every failure is "Error: <path> ..." (the draft once kept '\\AError' as
                 OUTSIDE_ROOT, right under its note that no pattern was kept for it)
--claude         Claude Code's wording: "Tool Edit input is invalid: Found 2 matches ...",
                 "Tool Read arguments failed schema validation ..."
--spelled        failures start with a code of its own spelling: "NOT_FOUND: ...",
                 "ACCESS_DENIED: ...", "INVALID_INPUT: ..."
--zod            bad arguments answer zod's issues as JSON over several lines after "Error: ",
                 null arguments "Error: No arguments provided for <tool> command"
--read-guard     an edit of a file never read fails, and so does one changed on disk since
--edits-fail     every edit fails, read or not (so no read guard can be told)
--zero-based     Read's offset counts from 0 (--say-base: its schema says so)
--no-read        no Read tool at all
--quiet-misses   an edit whose text is absent or there twice answers success and changes
                 nothing ("Search content not found in <path>", Desktop Commander's way)
--lists-folders  a read of a folder lists it (success): IS_DIRECTORY only from edits and writes
--state          writes $HOME/.toystate/sessions/<pid>.key at start and removes it at exit
--json-read      Read answers {"path", "content", "size"} as JSON text (filesystem-mcp 1.0.2;
                 fast-filesystem-mcp's {"content", "mode", ...})
--list           also list_directory{path}: "Path is not a directory" for a file, Node's
                 "ENOENT: ..., scandir '<path>'" for a missing folder (fast-filesystem-mcp)
--unknown-text   an unknown tool is "Unknown tool: <name>" without a code (the MCP Python
                 SDK's answer: filesystem-mcp 1.0.2)
--fixed-allow    its allowed folder is $TOY_ALLOWED whatever its root (fast-filesystem-mcp
                 3.5.2 allows HOME and /tmp and ignores the folder it is started with)
--shell          also Bash{command, timeout}, worded as Claude Code's: JSON {"stdout", "stderr",
                 "interrupted"} for a success, "Exit code N\\n<output>" for a non-zero exit and
                 "Exit code 143\\nCommand timed out after 0s" for a timeout
--claude-files   Claude Code's other wordings: a binary file, a file over 256 KB, a missing
                 file ("File does not exist. Note: ..."; an edit's wrapped in "Tool Edit input
                 is invalid: "), a write into a link loop (Node's "ELOOP: ..." where a read says
                 "Where ... leads on disk could not be determined ...")
--run-command    also run_command{command}: a non-zero exit is a failure "Command failed:
                 <command>" and its stderr, without a code (mcp-server-commands 0.5.0, Node's
                 exec error message)
--json-shell     with --run-command: every command answers success with JSON {"exit_code",
                 "output", "timed_out"} (@openai/codex-shell-tool-mcp 0.97.0)
--text-shell     with --run-command: every command answers success with a header stating its
                 exit in words, "Chunk ID: <random>\nWall time: <t> seconds\nProcess exited
                 with code N\nOutput:\n<output>" (openai-agents 0.24.0's exec_command)
--patch          also apply_patch{patch} in Codex's format, its failures worded as openai-agents
                 0.24.0's sandbox words them: "Invalid Context 0:\n<line>", "apply_patch missing
                 file: <path>", "apply_patch cannot create <path> because it already exists.
                 ...", "apply_patch path must not escape root: <path>", "apply_patch input must
                 start with '*** Begin Patch'"
--exit-trailer   with --run-command: every command answers success with its output and then
                 "[exit status N]" as its last line
--no-sandbox     with --run-command: every command fails "sandbox was required but not provided"
                 until it is configured (@openai/codex-shell-tool-mcp without its setup request)
--quote-text     an edit's miss quotes its old text: "Error: 'a = 1\n' twice" (deepagents:
                 "Error: String '<old>' appears 2 times in file")
--korean         an edit whose old text is not there answers, as mcp-filesystem-server 1.0.3
                 does, "Error: 수정할 텍스트를 찾을 수 없습니다:\n<old text>" (Korean for "the text
                 to edit was not found", the old text bare on the next line)
--outside-guard  reaches outside its root (no confinement), and an edit there fails "File has
                 not been read yet" until the file is read (Claude Code 2.1.331's Edit); none
                 inside the root
--slow-start     sleeps 0.3 s before it reads its first request (a server that starts slowly:
                 a Node or MCP SDK server, where sharing one across checks pays)
--session-shell  with --run-command: one bash kept for the whole session, so a `cd` or an
                 `export` stays for the next command (OpenHands' terminal, a tmux session)
--say-absolute   its file_path is described as "Absolute path to the file"
--absolute-only  its file tools refuse a relative file_path, though no description says so,
                 as mcp-code-editor 0.1.24 does: a success whose JSON says {"success": false,
                 "error": "ValidationError", "message": "Path must be absolute, got relative
                 path: <path>"}
--json-status    every answer is a success whose JSON says whether it worked, as mcp-code-editor
                 0.1.24 answers: {"success": true, "result": <text>}, or {"success": false,
                 "error": "<its code>", "message": <text>} ("FileNotFoundError", ...)
--json-items     every Read, Write and Edit answers success: a read or a write a JSON list with
                 one item per file, [{"path", "content"}] (a write's "result"), or
                 [{"path", "error"}] when it failed; an edit {"message", "results": [{"file",
                 "modified"}]}, the item with an "error" when it failed (@shtse8/filesystem-mcp
                 0.5.8's read_content, write_content and replace_content)
--start-end      Read's window is start_line/end_line (1-based, inclusive); a window that ends
                 before it starts fails "reversed: <path>" (READ-12's refusal)
--virtual-root   ... and "/" is its root: `/a.txt` is root/a.txt (deepagents'
                 FilesystemBackend(virtual_mode=True)), so a host path is root/<host path>
"""

import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

from agentconf.harness.target.spec import parse_spec
from agentconf.init_from.draft import draft_profile

PROGRAM = textwrap.dedent('''
    import atexit, json, os, subprocess, sys
    flags = set(sys.argv[1:])
    root = os.path.realpath(os.environ["AGENTCONF_ROOT"])
    S, I = {"type": "string"}, {"type": "integer"}
    offset = dict(I, description="the line to start at, counting from 0") \\
        if "--say-base" in flags else I

    def schema(properties, required):
        return {"type": "object", "properties": properties, "required": required}

    TOOLS = [
        {"name": "Read", "description": "Reads a file",
         "input_schema": schema({"file_path": S, "offset": offset, "limit": I}, ["file_path"])},
        {"name": "Write", "description": "Writes a file",
         "input_schema": schema({"file_path": S, "content": S}, ["file_path", "content"])},
        {"name": "Edit", "description": "Replaces text in a file",
         "input_schema": schema({"file_path": S, "old_string": S, "new_string": S},
                                ["file_path", "old_string", "new_string"])},
    ]
    if "--say-absolute" in flags or "--virtual-root" in flags:
        for tool in TOOLS:
            tool["input_schema"]["properties"]["file_path"] = dict(
                S, description="Absolute path to the file")
    if "--start-end" in flags:
        TOOLS[0]["input_schema"] = schema(
            {"file_path": S, "start_line": I, "end_line": I}, ["file_path"])
    if "--no-read" in flags:
        TOOLS = TOOLS[1:]
    if "--shell" in flags:
        TOOLS.append({"name": "Bash", "description": "Executes a given bash command",
                      "input_schema": schema({"command": S, "timeout": dict(
                          I, description="Optional timeout in milliseconds")}, ["command"])})
    if "--list" in flags:
        TOOLS.append({"name": "list_directory", "description": "Lists the entries of a folder",
                      "input_schema": schema({"path": S}, ["path"])})
    if "--run-command" in flags:
        TOOLS.append({"name": "run_command", "description": "Run a command on this machine",
                      "input_schema": schema({"command": S}, ["command"])})
    if "--patch" in flags:
        TOOLS.append({"name": "apply_patch", "description": "Edit files with a patch: *** Begin "
                      "Patch, *** Add File: / *** Update File: / *** Delete File:, *** End Patch",
                      "input_schema": schema({"patch": S}, ["patch"])})
    if "--state" in flags:
        sessions = os.path.join(os.environ["HOME"], ".toystate", "sessions")
        os.makedirs(sessions, exist_ok=True)
        key = os.path.join(sessions, f"{os.getpid()}.key")
        open(key, "w").close()
        atexit.register(os.remove, key)
    seen = {}  # path -> mtime when read
    if "--slow-start" in flags:
        import time
        time.sleep(0.3)
    session = None  # --session-shell: the bash every command runs in

    def fail(kind, tool, path=""):
        if "--zod" in flags and kind in ("args", "null"):
            issue = [{"code": "invalid_type", "expected": "string", "received": "number",
                      "path": ["file_path"], "message": "Expected string, received number"}]
            text = ("Error: " + json.dumps(issue, indent=2) if kind == "args"
                    else f"Error: No arguments provided for {tool} command")
            return {"success": False, "data": text}
        if "--claude" in flags:
            text = {"args": f"Tool {tool} arguments failed schema validation: file_path",
                    "twice": f"Tool {tool} input is invalid: Found 2 matches of the string",
                    "absent": f"Tool {tool} input is invalid: String to replace not found",
                    "unread": "File has not been read yet. Read it first before writing to it.",
                    "stale": "File has been modified since read, either by the user or by a "
                             "linter."}.get(kind)
            if text is None:
                text = f"<tool_use_error>{kind}: {path}</tool_use_error>"
        elif "--spelled" in flags:
            code = {"missing": "NOT_FOUND", "outside": "ACCESS_DENIED", "args": "INVALID_INPUT",
                    "folder": "IS_DIRECTORY", "under": "NOT_A_DIRECTORY", "loop": "IO_ERROR",
                    "absent": "TEXT_NOT_FOUND", "twice": "TEXT_MULTIPLE_MATCHES"}.get(kind, kind)
            text = f"{code}: {path}"
        elif "--error-prefix" in flags:
            text = "Error: " + path + {"missing": " was not found", "outside": " is outside",
                                       "folder": " is a folder", "args": " bad arguments",
                                       "absent": " has no such text", "twice": " twice",
                                       "unread": " was never read", "stale": " changed",
                                       "under": " is under a file", "loop": " loops",
                                       "disabled": " edits are disabled"}.get(kind, kind)
        else:
            text = f"{kind}: {path}"
        return {"success": False, "data": text, "kind": kind}

    # --json-status: the code its JSON gives each kind of failure
    STATUS = {"missing": "FileNotFoundError", "outside": "PermissionError",
              "folder": "IsADirectoryError", "args": "ValidationError",
              "absent": "TextNotFound", "twice": "AmbiguousMatch", "under": "NotADirectory",
              "loop": "OSError", "binary": "UnicodeDecodeError"}

    def resolve(path):
        if "--virtual-root" in flags:
            path = path.lstrip("/")
        full = os.path.realpath(os.path.join(root, path))
        if full != root and not full.startswith(root + os.sep) and "--outside-guard" not in flags:
            raise PermissionError(full)  # the resolved path, as Node's messages say it
        allowed = os.path.realpath(os.environ.get("TOY_ALLOWED", "/"))
        if "--fixed-allow" in flags and not full.startswith(allowed + os.sep):
            raise PermissionError(full)
        return full

    def claude_file(tool, args, error):
        path = os.path.join(root, args["file_path"])
        if isinstance(error, FileNotFoundError):
            text = f"File does not exist. Note: your current working directory is {root}."
            return text if tool == "Read" else f"Tool {tool} input is invalid: {text}"
        if tool == "Write" and error.errno == 40:
            return f"ELOOP: too many symbolic links encountered, stat '{path}'"
        if tool == "Read" and error.errno == 40:
            return (f"Where {path} leads on disk could not be determined (a link or directory "
                    "on the way could not be read)")
        return None

    def shell(args):
        import subprocess
        try:
            done = subprocess.run(["bash", "-c", args["command"]], cwd=root, text=True,
                                  capture_output=True, timeout=args.get("timeout", 60000) / 1000)
        except subprocess.TimeoutExpired:
            return {"success": False, "data": "Exit code 143\\nCommand timed out after 0s"}
        if done.returncode:
            return {"success": False, "data": f"Exit code {done.returncode}\\n"
                                              f"{done.stdout}{done.stderr}".rstrip()}
        return {"success": True, "data": json.dumps({
            "stdout": done.stdout.rstrip(), "stderr": done.stderr.rstrip(),
            "interrupted": False})}

    def read(args):
        if "--claude-files" in flags:
            full = os.path.join(root, args["file_path"])
            try:
                with open(full, "rb") as handle:
                    data = handle.read()
            except OSError as error:
                text = claude_file("Read", args, error)
                if text is not None:
                    return {"success": False, "data": text}
            else:
                if b"\\0" in data:
                    return {"success": False, "data": "Tool Read input is invalid: This tool "
                            "cannot read binary files. The file appears to be a binary file."}
                if len(data) > 262144:
                    size = f"{len(data) / 1024:.1f}".removesuffix(".0")  # 256.1KB, 512KB
                    return {"success": False, "data": f"File content ({size}KB) "
                            "exceeds maximum allowed size (256KB). Use offset and limit."}
        try:
            path = resolve(args["file_path"])
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines(keepends=True)
        except PermissionError as error:
            return fail("outside", "Read", str(error))
        except IsADirectoryError:
            if "--lists-folders" in flags:
                return {"success": True, "data": "\\n".join(sorted(os.listdir(path)))}
            return fail("folder", "Read", args["file_path"])
        except NotADirectoryError:
            return fail("under", "Read", args["file_path"])
        except FileNotFoundError:
            return fail("missing", "Read", args["file_path"])
        except OSError:
            return fail("loop", "Read", args["file_path"])
        except UnicodeDecodeError:
            return fail("binary", "Read", args["file_path"])
        seen[path] = os.stat(path).st_mtime_ns
        if "--start-end" in flags:
            start, end = args.get("start_line", 1), args.get("end_line", len(lines))
            if end < start:
                return fail("reversed", "Read", args["file_path"])
            args = {"offset": start, "limit": end - start + 1}
        first = args.get("offset", 0 if "--zero-based" in flags else 1)
        first -= 0 if "--zero-based" in flags else 1
        count = args.get("limit", len(lines))
        text = "".join(lines[first:first + count])
        if "--json-read" in flags:
            return {"success": True, "data": json.dumps(
                {"path": path, "content": text, "size": len(text)}, indent=2)}
        return {"success": True, "data": text}

    def edit(args):
        if "--claude-files" in flags and not os.path.exists(os.path.join(root, args["file_path"])):
            return {"success": False, "data": claude_file("Edit", args, FileNotFoundError())}
        try:
            path = resolve(args["file_path"])
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except IsADirectoryError:
            return fail("folder", "Edit", args["file_path"])
        except (OSError, PermissionError):
            return fail("missing", "Edit", args["file_path"])
        if "--edits-fail" in flags:
            return fail("disabled", "Edit", args["file_path"])
        if "--outside-guard" in flags and not path.startswith(root + os.sep) and path not in seen:
            return fail("unread", "Edit", args["file_path"])
        if "--read-guard" in flags:
            if path not in seen:
                return fail("unread", "Edit", args["file_path"])
            if seen[path] != os.stat(path).st_mtime_ns:
                return fail("stale", "Edit", args["file_path"])
        found = text.count(args["old_string"])
        if found != 1 and "--quiet-misses" in flags:
            return {"success": True, "data": f"Search content not found in {path}." if not found
                    else f"Expected 1 occurrences but found {found} in {path}."}
        if found == 0 and "--korean" in flags:  # the old text bare, on the next line
            return {"success": False,
                    "data": "Error: 수정할 텍스트를 찾을 수 없습니다:\\n" + args["old_string"]}
        if found != 1:
            quoted = "'" + args["old_string"] + "'" if "--quote-text" in flags else None
            return fail("absent" if found == 0 else "twice", "Edit", quoted or args["file_path"])
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text.replace(args["old_string"], args["new_string"]))
        seen[path] = os.stat(path).st_mtime_ns
        return {"success": True, "data": "edited"}

    def write(args):
        if "--claude-files" in flags:
            try:
                os.stat(os.path.join(root, args["file_path"]))
            except OSError as error:
                if error.errno == 40:
                    return {"success": False, "data": claude_file("Write", args, error)}
        try:
            path = resolve(args["file_path"])
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(args["content"])
        except IsADirectoryError:
            return fail("folder", "Write", args["file_path"])
        except (OSError, PermissionError):
            return fail("missing", "Write", args["file_path"])
        return {"success": True, "data": "written"}

    def listing(args):
        path = resolve(args["path"])
        if os.path.isfile(path):
            return {"success": False, "data": "Path is not a directory"}
        if not os.path.isdir(path):
            return {"success": False,
                    "data": f"ENOENT: no such file or directory, scandir '{path}'"}
        return {"success": True, "data": "\\n".join(sorted(os.listdir(path)))}

    def run(args):
        global session
        if "--no-sandbox" in flags:
            return {"success": False, "data": "sandbox was required but not provided"}
        if "--session-shell" in flags:
            if session is None:
                session = subprocess.Popen(
                    ["bash"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True)
            bash = session
            bash.stdin.write(args["command"] + "\\necho __done__$?\\n")
            bash.stdin.flush()
            lines, status = [], None
            for line in bash.stdout:
                if line.startswith("__done__"):
                    status = int(line[8:])
                    break
                lines.append(line)
            if status is None:  # the command ended the shell (`exit 3`): a new one next time
                status, session = bash.wait(), None
            text = "".join(lines)
            return {"success": status == 0, "data": text if status == 0
                    else f"Command failed: {args['command']}\\n{text}"}
        done = subprocess.run(["sh", "-c", args["command"]], cwd=root, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL)
        if "--json-shell" in flags:
            return {"success": True, "data": json.dumps({
                "exit_code": done.returncode, "output": done.stdout + done.stderr,
                "timed_out": False})}
        if "--exit-trailer" in flags:
            return {"success": True, "data": done.stdout + done.stderr
                    + f"[exit status {done.returncode}]"}
        if "--text-shell" in flags:
            return {"success": True, "data": (
                f"Chunk ID: {os.urandom(3).hex()}\\nWall time: {len(args['command']) / 1e4:.4f}"
                f" seconds\\nProcess exited with code {done.returncode}\\nOutput:\\n"
                + done.stdout + done.stderr)}
        if done.returncode:
            return {"success": False,
                    "data": f"Command failed: {args['command']}\\n{done.stderr}"}
        return {"success": True, "data": done.stdout + done.stderr}

    def patch(args):
        lines = args["patch"].split("\\n")
        if not lines or lines[0] != "*** Begin Patch":
            return {"success": False,
                    "data": "apply_patch input must start with '*** Begin Patch'"}
        for line in lines:
            head, _, name = line.partition(" File: ")
            if not name:
                continue
            if name.startswith("../") or name.startswith("/"):
                return {"success": False,
                        "data": f"apply_patch path must not escape root: {name}"}
            path = os.path.join(root, name)
            if head == "*** Add" and os.path.exists(path):
                return {"success": False, "data": f"apply_patch cannot create {name} because it "
                        "already exists. Use an update_file operation to change an existing file."}
            if head in ("*** Update", "*** Delete") and not os.path.isfile(path):
                return {"success": False, "data": f"apply_patch missing file: {name}"}
            if head == "*** Update":
                text = open(path).read().split("\\n")
                for old in lines:
                    if old.startswith("-") and old[1:] not in text:
                        return {"success": False, "data": f"Invalid Context 0:\\n{old[1:]}"}
        return {"success": True, "data": "Done"}

    def call(name, args):
        tool = {"apply_patch": patch, "Read": read, "Write": write, "Edit": edit, "Bash": shell,
                "list_directory": listing, "run_command": run}.get(name)
        if tool is None or not any(t["name"] == name for t in TOOLS):
            if "--unknown-text" in flags:
                return {"success": False, "data": f"Unknown tool: {name}"}
            return {"success": False, "data": "no such tool " + name, "error": "TOOL_NOT_FOUND"}
        spec = next(t for t in TOOLS if t["name"] == name)["input_schema"]
        if any(not isinstance(args.get(key), str) for key in spec["required"]):
            return fail("args", name)
        if "--json-items" in flags and name in ("Read", "Write", "Edit"):
            answer, path = tool(args), args.get("file_path", "")
            said = "error" if not answer["success"] else "content" if name == "Read" else "result"
            if name == "Edit":  # its own shape: the outcome of each file under results
                item = {"file": path, "modified": answer["success"]}
                item.update({} if answer["success"] else {"error": answer["data"]})
                return {"success": True, "data": json.dumps(
                    {"message": "Edit operations completed.", "results": [item]}, indent=2)}
            return {"success": True, "data": json.dumps([{"path": path, said: answer["data"]}],
                                                        indent=2)}
        if "--json-status" in flags:
            answer = tool(args)
            if answer["success"]:
                said = {"success": True, "result": answer["data"]}
            else:
                said = {"success": False, "error": STATUS.get(answer.get("kind"), "Error"),
                        "message": answer["data"]}
            return {"success": True, "data": json.dumps(said)}
        if ("--absolute-only" in flags and "file_path" in args
                and not os.path.isabs(args["file_path"])):
            return {"success": True, "data": json.dumps({  # a success saying it failed
                "success": False, "error": "ValidationError",
                "message": f"Path must be absolute, got relative path: {args['file_path']}"})}
        return tool(args)

    for line in sys.stdin:
        request = json.loads(line)
        rid, method = request.get("id"), request.get("method")
        if method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            params = request.get("params") or {}
            if params.get("arguments", {}) is None:
                result = fail("null", params.get("name"))
            else:
                result = call(params.get("name"), params.get("arguments") or {})
        else:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {
                "code": -32601, "message": "method not found"}}) + "\\n")
            sys.stdout.flush()
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\\n")
        sys.stdout.flush()
''')


def toy_spec(folder: Path, *flags: str) -> str:
    """The `cmd:` spec that runs PROGRAM, written into `folder`, with these flags."""
    program = folder / "draft_toy.py"
    program.write_text(PROGRAM)
    return f"cmd:{sys.executable} {program} {' '.join(flags)}".rstrip()


def draft_toy(folder: Path, *flags: str) -> tuple[dict[str, Any], str]:
    """`init --from`'s draft of PROGRAM with these flags: the profile loaded, and its text."""
    spec = toy_spec(folder, *flags)
    draft = draft_profile(parse_spec(spec), spec)
    return tomllib.loads(draft.text), draft.text
