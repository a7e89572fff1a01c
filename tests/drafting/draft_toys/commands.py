"""Shapes that add a tool beside the file tools: a shell, a folder listing, a patch."""

import json
import os
import re
import shlex
import subprocess
from typing import Any

from draft_toys.plain import INTEGER, STRING, Answer, Handler, Toy, tool


class Shell(Toy):
    """Also Bash{command, timeout}, worded as Claude Code's: JSON {"stdout", "stderr",
    "interrupted"} for a success, "Exit code N\\n<output>" for a non-zero exit and
    "Exit code 143\\nCommand timed out after 0s" for a timeout."""

    def tools(self) -> list[dict[str, Any]]:
        return [*super().tools(), tool(
            "Bash", "Executes a given bash command",
            {"command": STRING,
             "timeout": dict(INTEGER, description="Optional timeout in milliseconds")},
            ["command"])]

    def handler(self, name: str) -> Handler | None:
        return self.shell if name == "Bash" else super().handler(name)

    def shell(self, args: dict[str, Any]) -> Answer:
        try:
            done = subprocess.run(["bash", "-c", args["command"]], cwd=self.root, text=True,
                                  capture_output=True, timeout=args.get("timeout", 60000) / 1000)
        except subprocess.TimeoutExpired:
            return {"success": False, "data": "Exit code 143\nCommand timed out after 0s"}
        if done.returncode:
            return {"success": False, "data": f"Exit code {done.returncode}\n"
                                              f"{done.stdout}{done.stderr}".rstrip()}
        return {"success": True, "data": json.dumps({
            "stdout": done.stdout.rstrip(), "stderr": done.stderr.rstrip(),
            "interrupted": False})}


class ListDirectory(Toy):
    """Also list_directory{path}: "Path is not a directory" for a file, Node's "ENOENT: ...,
    scandir '<path>'" for a missing folder (fast-filesystem-mcp)."""

    def tools(self) -> list[dict[str, Any]]:
        return [*super().tools(), tool("list_directory", "Lists the entries of a folder",
                                       {"path": STRING}, ["path"])]

    def handler(self, name: str) -> Handler | None:
        return self.listing if name == "list_directory" else super().handler(name)

    def listing(self, args: dict[str, Any]) -> Answer:
        try:
            path = self.resolve(args["path"])
        except PermissionError as error:
            return {"success": False, "data": f"EACCES: permission denied, scandir '{error}'"}
        if os.path.isfile(path):
            return {"success": False, "data": "Path is not a directory"}
        if not os.path.isdir(path):
            return {"success": False,
                    "data": f"ENOENT: no such file or directory, scandir '{path}'"}
        return {"success": True, "data": "\n".join(sorted(os.listdir(path)))}


class RunCommand(Toy):
    """Also run_command{command}: a non-zero exit is a failure "Command failed: <command>" and
    its stderr, without a code (mcp-server-commands 0.5.0, Node's exec error message)."""

    def tools(self) -> list[dict[str, Any]]:
        return [*super().tools(), tool("run_command", "Run a command on this machine",
                                       {"command": STRING}, ["command"])]

    def handler(self, name: str) -> Handler | None:
        return self.run if name == "run_command" else super().handler(name)

    def run(self, args: dict[str, Any]) -> Answer:
        done = subprocess.run(["sh", "-c", args["command"]], cwd=self.root, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL)
        return self.ran(args, done)

    def ran(self, args: dict[str, Any], done: subprocess.CompletedProcess[str]) -> Answer:
        if done.returncode:
            return {"success": False,
                    "data": f"Command failed: {args['command']}\n{done.stderr}"}
        return {"success": True, "data": done.stdout + done.stderr}


class SplitCommand(RunCommand):
    """Its run_command splits the command into a program's arguments and refuses a shell's
    syntax ("Error: shell syntax is not supported: ;"): no shell; what ran answers
    `{"stdout", "stderr", "exit_code"}` (praisonaiagents' execute_command)."""

    def run(self, args: dict[str, Any]) -> Answer:
        found = re.search(r"[;&|<>$`()*]", args["command"])
        if found is not None:
            return {"success": False,
                    "data": f"Error: shell syntax is not supported: {found.group(0)}"}
        try:
            done = subprocess.run(shlex.split(args["command"]), cwd=self.root,
                                  capture_output=True, text=True, stdin=subprocess.DEVNULL)
        except OSError as error:
            return {"success": False, "data": f"Error: {error}"}
        return {"success": True, "data": json.dumps(
            {"stdout": done.stdout, "stderr": done.stderr, "exit_code": done.returncode})}


class NoSandbox(RunCommand):
    """Its run_command fails "sandbox was required but not provided" until it is configured
    (@openai/codex-shell-tool-mcp without its setup request)."""

    def run(self, args: dict[str, Any]) -> Answer:
        return {"success": False, "data": "sandbox was required but not provided"}


class SessionShell(RunCommand):
    """Its run_command keeps one bash for the whole session, so a `cd` or an `export` stays for
    the next command (OpenHands' terminal, a tmux session)."""

    session: "subprocess.Popen[str] | None" = None

    def run(self, args: dict[str, Any]) -> Answer:
        if self.session is None:
            self.session = subprocess.Popen(
                ["bash"], cwd=self.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True)
        bash = self.session
        assert bash.stdin is not None and bash.stdout is not None
        bash.stdin.write(args["command"] + "\necho __done__$?\n")
        bash.stdin.flush()
        lines, status = [], None
        for line in bash.stdout:
            if line.startswith("__done__"):
                status = int(line[8:])
                break
            lines.append(line)
        if status is None:  # the command ended the shell (`exit 3`): a new one next time
            status, self.session = bash.wait(), None
        text = "".join(lines)
        return {"success": status == 0, "data": text if status == 0
                else f"Command failed: {args['command']}\n{text}"}


class JsonShell(RunCommand):
    """Its run_command answers every command success with JSON {"exit_code", "output",
    "timed_out"} (@openai/codex-shell-tool-mcp 0.97.0)."""

    def ran(self, args: dict[str, Any], done: subprocess.CompletedProcess[str]) -> Answer:
        return {"success": True, "data": json.dumps({
            "exit_code": done.returncode, "output": done.stdout + done.stderr,
            "timed_out": False})}


class JsonFailures(RunCommand):
    """Its run_command answers JSON {"stdout", "stderr", "exitCode"}, a failure when the exit
    is not 0 (just-bash-mcp's bash)."""

    def ran(self, args: dict[str, Any], done: subprocess.CompletedProcess[str]) -> Answer:
        return {"success": done.returncode == 0, "data": json.dumps({
            "stdout": done.stdout, "stderr": done.stderr, "exitCode": done.returncode})}


class ExitTrailer(RunCommand):
    """Its run_command answers every command success with its output and then
    "[exit status N]" as its last line."""

    def ran(self, args: dict[str, Any], done: subprocess.CompletedProcess[str]) -> Answer:
        return {"success": True, "data": done.stdout + done.stderr
                + f"[exit status {done.returncode}]"}


class TextShell(RunCommand):
    """Its run_command answers every command success with a header stating its exit in words,
    "Chunk ID: <random>\\nWall time: <t> seconds\\nProcess exited with code N\\nOutput:\\n<output>"
    (openai-agents 0.24.0's exec_command)."""

    def ran(self, args: dict[str, Any], done: subprocess.CompletedProcess[str]) -> Answer:
        return {"success": True, "data": (
            f"Chunk ID: {os.urandom(3).hex()}\nWall time: {len(args['command']) / 1e4:.4f}"
            f" seconds\nProcess exited with code {done.returncode}\nOutput:\n"
            + done.stdout + done.stderr)}


class Patch(Toy):
    """Also apply_patch{patch} in Codex's format, its failures worded as openai-agents 0.24.0's
    sandbox words them: "Invalid Context 0:\\n<line>", "apply_patch missing file: <path>",
    "apply_patch cannot create <path> because it already exists. ...", "apply_patch path must
    not escape root: <path>", "apply_patch input must start with '*** Begin Patch'"."""

    def tools(self) -> list[dict[str, Any]]:
        return [*super().tools(), tool(
            "apply_patch", "Edit files with a patch: *** Begin Patch, *** Add File: / *** Update "
            "File: / *** Delete File:, *** End Patch", {"patch": STRING}, ["patch"])]

    def handler(self, name: str) -> Handler | None:
        return self.patch if name == "apply_patch" else super().handler(name)

    def patch(self, args: dict[str, Any]) -> Answer:
        lines = args["patch"].split("\n")
        if not lines or lines[0] != "*** Begin Patch":
            return self.refuse("apply_patch input must start with '*** Begin Patch'")
        for line in lines:
            head, _, name = line.partition(" File: ")
            if not name:
                continue
            if name.startswith("../") or name.startswith("/"):
                return self.refuse(f"apply_patch path must not escape root: {name}")
            path = os.path.join(self.root, name)
            if head == "*** Add" and os.path.exists(path):
                return self.refuse(f"apply_patch cannot create {name} because it already "
                                   "exists. Use an update_file operation to change an existing "
                                   "file.")
            if head in ("*** Update", "*** Delete") and not os.path.isfile(path):
                return self.refuse(f"apply_patch missing file: {name}")
            if head == "*** Update":
                with open(path) as handle:
                    text = handle.read().split("\n")
                for old in lines:
                    if old.startswith("-") and old[1:] not in text:
                        return self.refuse(f"Invalid Context 0:\n{old[1:]}")
        return {"success": True, "data": "Done"}

    @staticmethod
    def refuse(text: str) -> Answer:
        return {"success": False, "data": text}
