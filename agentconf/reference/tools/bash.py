"""bash{command, timeout_ms?}: run a shell command in the root, bounded while it streams.

- `/bin/bash -c COMMAND` in its own process group, cwd the root, stdin empty, output bounded
  while it streams, a two-stage kill of the whole group on timeout, and nothing left running
  once the call answers: sandbox/process_group.py, which exec shares (it bounds its own output;
  DECLARATION says so to dispatch). A timeout answers TIMEOUT with the partial output.
- A non-zero exit is a failure, NONZERO_EXIT, with the exit code, stdout and stderr in `data` and
  the code in `exit_code` (Claude Code shows both streams on failure); stderr is shown on success
  too, and a command with no output says so (Claude Code's "(no output)").
"""

import signal
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from agentconf.contract import Envelope, ToolKind

from ..declare import Arguments, Declaration
from ..results import fail, ok
from ..sandbox.process_group import Run, run_process

if TYPE_CHECKING:
    from ..context import ToolContext

SHELL = "/bin/bash"
MAX_TIMEOUT_MS = 600_000
NO_OUTPUT = "(no output)"


class BashArgs(Arguments):
    command: str = Field(min_length=1, description="The command line, run by /bin/bash -c.")
    timeout_ms: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TIMEOUT_MS,
        description="Milliseconds before the command and all it started are stopped.",
    )


async def handler(args: BashArgs, ctx: "ToolContext") -> Envelope:
    timeout_ms = args.timeout_ms or ctx.limits.shell_timeout_ms
    limit = ctx.limits.max_output_chars
    run = await run_command(args.command, ctx.root, timeout_ms / 1000, limit)
    return answer(run, timeout_ms, limit)


async def run_command(command: str, cwd: Path, timeout_s: float, capacity: int) -> Run:
    """Runs `command` under /bin/bash in its own process group (sandbox/process_group.py)."""
    return await run_process((SHELL, "-c", command), cwd, timeout_s, capacity)


# ---------------------------------------------------------------- the answer


def answer(run: Run, timeout_ms: int, limit: int) -> Envelope:
    if run.timed_out:
        head = (
            f"Command timed out after {timeout_ms} ms and was stopped with everything it started "
            "(SIGTERM, then SIGKILL). Run a shorter command, or give a larger timeout_ms. "
            "Partial output follows."
        )
        return fail("TIMEOUT", _sections(head, run, limit, "partial "))
    code = run.returncode
    assert code is not None
    if code == 0:
        return ok(_success_text(run, limit), exit_code=0)
    if code < 0:  # killed by a signal: report it the way a shell would ($? = 128 + n)
        code = 128 - code
        head = f"Command was killed by signal {signal.Signals(code - 128).name} (exit code {code})."
    else:
        head = f"Command failed with exit code {code}."
    return fail("NONZERO_EXIT", _sections(head, run, limit, ""), exit_code=code)


def _success_text(run: Run, limit: int) -> str:
    if not run.stderr.total_chars:
        return run.stdout.render(limit) if run.stdout.total_chars else NO_OUTPUT
    label = "--- stderr ---\n"
    out_budget, err_budget = share(
        limit - len(label), run.stdout.total_chars, run.stderr.total_chars
    )
    stdout = run.stdout.render(out_budget)
    separator = "" if not stdout or stdout.endswith("\n") else "\n"
    return stdout + separator + label + run.stderr.render(err_budget)


def _sections(head: str, run: Run, limit: int, qualifier: str) -> str:
    out_label = f"\n--- {qualifier}stdout ---\n"
    err_label = f"\n--- {qualifier}stderr ---\n"
    budget = max(0, limit - len(head) - len(out_label) - len(err_label))
    out_budget, err_budget = share(budget, run.stdout.total_chars, run.stderr.total_chars)
    stdout = run.stdout.render(out_budget) if run.stdout.total_chars else "(empty)"
    stderr = run.stderr.render(err_budget) if run.stderr.total_chars else "(empty)"
    return head + out_label + stdout.rstrip("\n") + err_label + stderr.rstrip("\n")


def share(budget: int, first: int, second: int) -> tuple[int, int]:
    """Splits `budget` characters between two outputs: each its size or half, spare goes over."""
    budget = max(0, budget)
    if first + second <= budget:
        return first, second
    half = budget // 2
    if first <= half:
        return first, budget - first
    if second <= budget - half:
        return budget - second, second
    return half, budget - half


DECLARATION = Declaration(
    name="bash",
    description=(
        "Run a command with /bin/bash -c in the workspace root, stdin empty. Answers stdout, then "
        "stderr if any. A non-zero exit fails with NONZERO_EXIT and shows the exit code and both "
        "streams. timeout_ms (default 30000) stops the command and every process it started; "
        "nothing it starts keeps running after the call. Long output keeps its head and tail."
    ),
    kind=ToolKind.OTHER,
    handler=handler,
    args_model=BashArgs,
    bounds_own_output=True,
    destructive=True,
    idempotent=False,
    # A command may reach the network and other processes, beyond the workspace.
    open_world=True,
)
