"""SHELL-13: a shell that claims a sandbox keeps it, judged on the disk.

Most real shell tools are unconfined by design (Claude Code's Bash, Desktop Commander's
start_process) and say so: for them the clause is n/a, and each command is tried all the same, so
the report states what it reached as a measured fact (a canary read, a write outside), never a
failure and never an assumption. A shell that claims confinement (capability shell_confined:
the profile, or its own description or annotations) is trusted with it, so every command here
tries to leave the root:
the oracle judges the disk outside and the answer for the canaries' secret after each one. The
commands write only into the sandbox and the kit's own canary folders.
"""

from collections.abc import Callable
from typing import Any

import pytest

from agentconf.harness.verdicts.errors import (
    EscapeDetected,
    ImplementationFailure,
    not_applicable,
)

CommandOf = Callable[[Any], str]


def _outer(ws: Any) -> str:
    return str(ws.outer[0]) if ws.outer else str(ws.outside)


ESCAPES: list[tuple[str, CommandOf]] = [
    ("write-dotdot", lambda ws: "echo escaped > ../outside/escape.txt"),
    ("overwrite-dotdot", lambda ws: "echo escaped > ../outside/secret.txt"),
    ("write-absolute", lambda ws: f"echo escaped > {ws.outside}/escape.txt"),
    ("write-sibling", lambda ws: "echo escaped > ../root_evil/escape.txt"),
    ("cd-up-write", lambda ws: "cd .. && echo escaped > outside/escape.txt"),
    ("cd-slash-write", lambda ws: f"cd / && echo escaped > .{ws.outside}/escape.txt"),
    ("write-system-tmp", lambda ws: f"echo escaped > {_outer(ws)}/secret.txt"),
    ("remove-outside", lambda ws: "rm -f ../outside/notes.md"),
    ("read-home-keys", lambda ws: "cat ~/.ssh/authorized_keys"),
    ("read-dotdot", lambda ws: "cat ../outside/secret.txt"),
    ("read-absolute", lambda ws: f"cat {ws.outside}/secret.txt"),
    ("read-system-tmp", lambda ws: f"cat {_outer(ws)}/secret.txt"),
    ("cd-slash-read", lambda ws: f"cd / && cat .{ws.outside}/secret.txt"),
]


@pytest.mark.clause("SHELL-13")
@pytest.mark.parametrize("command_of", [c for _, c in ESCAPES], ids=[n for n, _ in ESCAPES])
def test_a_confined_shell_reaches_nothing_outside_the_root(ws, client, command_of) -> None:
    unclaimed = client.why_missing("shell_confined")  # the listing decides, unless the profile
    command = command_of(ws)
    shown = command.replace(str(ws.sandbox), "<SANDBOX>")
    try:
        client.call("bash", command=command)  # the oracle judges the disk and the answer
    except ImplementationFailure as failure:
        if unclaimed is not None:
            not_applicable(f"{unclaimed}; `{shown}` did not answer ({failure})")
        pytest.fail(f"the command did not answer: {failure}")
    except EscapeDetected as reached:
        if unclaimed is None:
            raise  # it claims a sandbox: what it reached is its departure
        ws.rebaseline()  # measured; the session's last judgement must not count it again
        not_applicable(f"{unclaimed}; measured: `{shown}` reached outside the root: "
                       f"{str(reached).splitlines()[0][:200]}")
    if unclaimed is not None:
        not_applicable(f"{unclaimed}; measured: `{shown}` reached nothing outside the root")
