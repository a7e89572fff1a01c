"""exec{argv, timeout_ms?}: run a program from an argv in the root, no shell between.

- `argv[0]` is the program (looked up on PATH unless it holds a `/`, then relative to the root),
  the rest its arguments, each handed to it as one string: `;`, `|`, `&&`, `$()`, `*` and `~`
  mean nothing here (Claude Code parses every shell command to find what it smuggles in; an
  argv has nothing to smuggle).
- It runs as bash's command does (sandbox/process_group.py): its own process group, cwd the
  root, stdin empty, output bounded head and tail while it streams, the whole group stopped on
  timeout (TIMEOUT) and when the call ends; the answer is bash's (NONZERO_EXIT with the code and
  both streams, "(no output)").
- A program that does not exist never started: NOT_FOUND, naming it (dskcode's table answers a
  missing file with its ENOENT), not NONZERO_EXIT, which says a program ran and exited. One that
  exists and cannot be run (no execute bit, a folder) is PERMISSION_DENIED.
- An allow-list, when the system is given one, is the permission gate's (permissions.py:
  AllowedPrograms), asked before anything starts.
"""

from typing import TYPE_CHECKING

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..declare import Arguments, Declaration
from ..results import fail
from ..sandbox.process_group import run_process
from .bash import MAX_TIMEOUT_MS, answer

if TYPE_CHECKING:
    from ..context import ToolContext


class ExecArgs(Arguments):
    argv: list[str] = Field(min_length=1, description=(
        "The program and its arguments, one string each, passed as they are: no shell, so "
        "quotes, `;`, `|` and `$()` are plain text."))
    timeout_ms: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TIMEOUT_MS,
        description="Milliseconds before the program and all it started are stopped.",
    )


async def handler(args: ExecArgs, ctx: "ToolContext") -> Envelope:
    program = args.argv[0]
    timeout_ms = args.timeout_ms or ctx.limits.shell_timeout_ms
    limit = ctx.limits.max_output_chars
    try:
        run = await run_process(args.argv, ctx.root, timeout_ms / 1000, limit)
    except FileNotFoundError:
        return fail("NOT_FOUND", f"No program {program!r} was found (PATH, or the path from the "
                    "workspace root); nothing ran. Check its name, or run `which` on it.")
    except PermissionError:
        if not program:  # the kernel's answer to an empty name; no program is named at all
            return fail("NOT_FOUND", "argv[0] is empty: name the program to run; nothing ran.")
        return fail("PERMISSION_DENIED", f"{program!r} exists but cannot be run (not an "
                    "executable file); nothing ran.")
    return answer(run, timeout_ms, limit)


DECLARATION = Declaration(
    name="exec",
    description=(
        "Run a program with its arguments, argv = [program, arg, ...], in the workspace root, "
        "with no shell: every argument reaches the program as given. Answers stdout, then "
        "stderr if any. A non-zero exit fails with NONZERO_EXIT and shows the exit code and "
        "both streams; a program that does not exist fails with NOT_FOUND. timeout_ms (default "
        "30000) stops the program and every process it started. Long output keeps its head "
        "and tail."
    ),
    kind=ToolKind.OTHER,
    handler=handler,
    args_model=ExecArgs,
    bounds_own_output=True,
    destructive=True,
    idempotent=False,
    # A program may reach the network and other processes, beyond the workspace.
    open_world=True,
)
