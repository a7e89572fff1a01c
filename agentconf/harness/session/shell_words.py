"""The programs a shell command runs, for `[tools.bash] allowed_programs` (and an argv's program,
for `[tools.exec] allowed_programs`): a check whose command needs a program the implementation's
allow-list refuses is n/a, not a failure of the shell.

Reads the words in command position (the first word, and the first after `;`, `&&`, `||`, `|`,
`&`, `(`, `$(` and newlines), past variable assignments and shell keywords. An approximation of
a shell's grammar that errs towards n/a: a word it takes for a program that is not one makes a
check n/a, never a false failure.
"""

import re
import shlex
from pathlib import PurePosixPath
from typing import Any

from agentconf.harness.profile.model import Profile

_SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", "\n", ";;", "|&", "`"}
_KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in",
             "case", "esac", "!", "{", "}", "time", "function"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
# `$((40+2))` is arithmetic, not a command substitution: it runs no program.
_ARITHMETIC = re.compile(r"\$\(\((?:[^()]|\([^()]*\))*\)\)")


def programs_in(command: str) -> list[str]:
    """The programs `command` runs, in order, each once."""
    command = _ARITHMETIC.sub("0", command)
    lexer = shlex.shlex(command.replace("$(", " ( ").replace("`", " ` "), posix=True,
                        punctuation_chars=";&|()")
    lexer.whitespace = " \t\r"  # a newline separates commands
    lexer.wordchars += "~-./*?[]{}=$:,+@%^"
    found: list[str] = []
    at_start = True
    try:
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: judge nothing, the shell will say
        return found
    for token in tokens:
        # An empty word (`trap '' TERM`) is an argument, not a separator.
        if token in _SEPARATORS or (token and set(token) <= set(";&|()\n")):
            at_start = True
            continue
        if token in ("for", "case", "select"):  # their next words are names, not programs
            at_start = False
            continue
        if not at_start or _ASSIGNMENT.match(token) or token in _KEYWORDS:
            continue
        at_start = False
        if token.startswith(("<", ">")) or token.isdigit():
            continue
        name = token.rsplit("/", 1)[-1]
        if name and name not in found:
            found.append(name)
    return found


def refused_programs(command: str, allowed: list[str]) -> list[str]:
    """The programs of `command` outside `allowed` (empty: the shell may run it)."""
    return [name for name in programs_in(command) if name not in allowed]


def not_allowed(profile: Profile, tool: str, arguments: dict[str, Any]) -> str | None:
    """Why a bash or exec call needs a program its allow-list refuses (the check is then n/a),
    or None when it may run."""
    allowed = getattr(profile.tool(tool), "allowed_programs", None)
    if allowed is None:
        return None
    command, argv = arguments.get("command"), arguments.get("argv")
    if tool == "bash" and isinstance(command, str):
        refused = refused_programs(command, allowed)
    elif tool == "exec" and isinstance(argv, list) and argv and isinstance(argv[0], str):
        refused = [name for name in [PurePosixPath(argv[0]).name] if name not in allowed]
    else:
        return None
    if not refused:
        return None
    return (f"the check runs {', '.join(map(repr, refused))}, which "
            f"[tools.{tool}].allowed_programs ({', '.join(allowed)}) does not allow")


def refused_by_policy(tool: str, result: Any) -> str | None:
    """Why a check's command never ran, where the implementation's own permission policy
    refused it (PERMISSION_DENIED read from a shell's or a runner's answer)."""
    if tool not in ("bash", "exec") or result.success or result.error != "PERMISSION_DENIED":
        return None
    return (f"not judged: {tool} refused the check's command by its own permission policy: "
            f"{' '.join(str(result.data).split())[:120]!r}")
