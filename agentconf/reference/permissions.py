"""The permission gate: one policy entry point, asked after validation and before any effect.

agentkit (agentkit's permission preflight) checks policy before `rm -rf` runs, not after; dskcode
carries the refusal in the envelope as `denial` (who refused, why, what to do instead). A gate is
any object with `check(request)` returning None (allowed) or a `Denial`, sync or async.
"""

import fnmatch
import inspect
from collections.abc import Awaitable, Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

from agentconf.contract import Denial, ToolKind

from .results import ToolError
from .sandbox import patch, paths


@dataclass(frozen=True, slots=True)
class PermissionRequest:
    """What the gate sees: the tool, its kind, and the validated arguments as plain data."""

    tool: str
    kind: ToolKind
    arguments: dict[str, Any]


class PermissionGate(Protocol):
    def check(self, request: PermissionRequest) -> Denial | Awaitable[Denial | None] | None: ...


class AllowAll:
    """The default gate: the sandbox, not a policy, keeps the reference safe."""

    def check(self, request: PermissionRequest) -> Denial | None:
        return None


class ReadOnly:
    """Refuses every tool that is not of kind read (@clarvis/agent-tools' read-only mode, as a
    policy)."""

    def check(self, request: PermissionRequest) -> Denial | None:
        if request.kind is ToolKind.READ:
            return None
        return Denial(
            source="policy",
            reason=f"{request.tool} changes things, and this session is read-only.",
            hint="Use read tools only, or ask the user to allow changes.",
        )


class DenyTools:
    """Refuses the named tools, e.g. a project policy against `bash`."""

    def __init__(self, names: Collection[str], *, reason: str, hint: str | None = None) -> None:
        self._names = frozenset(names)
        self._reason = reason
        self._hint = hint

    def check(self, request: PermissionRequest) -> Denial | None:
        if request.tool not in self._names:
            return None
        return Denial(source="policy", reason=self._reason, hint=self._hint)


class AllowedPrograms:
    """Lets exec run only the programs named, by name or by any path to one (`/bin/echo` is
    echo): the allow-list of an MCP shell server or agentkit's policy, asked before the program
    starts (EXEC-07). An interpreter on the list runs whatever it is told: list programs, not
    shells, where that matters."""

    def __init__(self, programs: Collection[str]) -> None:
        self._programs = frozenset(programs)

    def check(self, request: PermissionRequest) -> Denial | None:
        argv = request.arguments.get("argv")
        if request.tool != "exec" or not isinstance(argv, list) or not argv:
            return None
        program = str(argv[0])
        if PurePosixPath(program).name in self._programs:
            return None
        return Denial(
            source="config",
            reason=f"{program!r} is not one of the programs exec may run "
                   f"({', '.join(sorted(self._programs))}).",
            hint="Use one of the allowed programs, or ask the user to allow this one.",
        )


async def ask(gate: PermissionGate, request: PermissionRequest) -> Denial | None:
    """The gate's answer, awaited if the gate is async."""
    answer = gate.check(request)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer


class FirstDenial:
    """Several gates asked in order; the first denial is the answer."""

    def __init__(self, gates: Collection[PermissionGate]) -> None:
        self._gates = tuple(gates)

    async def check(self, request: PermissionRequest) -> Denial | None:
        for gate in self._gates:
            denial = await ask(gate, request)
            if denial is not None:
                return denial
        return None


@dataclass(frozen=True, slots=True)
class DenyRule:
    """`TOOL` denies every call of the tool; `TOOL:GLOB` the calls that touch a matching path
    (bash: whose command matches). GLOB is fnmatch's, relative to the root, `*` crossing
    folders, and `DIR/**` also matches DIR itself (agentkit's policy rules, Claude Code's
    `Bash(npm run test:*)`)."""

    tool: str
    glob: str | None
    text: str

    @classmethod
    def parse(cls, text: str) -> "DenyRule":
        tool, sep, glob = text.strip().partition(":")
        if not tool or (sep and not glob):
            raise ValueError(f"deny rule {text!r} must be TOOL or TOOL:GLOB, e.g. bash or "
                             "write_file:secrets/**")
        return cls(tool=tool, glob=glob or None, text=text.strip())

    def matches(self, subjects: list[str]) -> bool:
        """Whether the rule denies a call of its tool touching `subjects` (paths or a command)."""
        if self.glob is None:
            return True
        glob = self.glob
        for subject in subjects:
            parents = [parent.as_posix() for parent in PurePosixPath(subject).parents]
            candidates = [subject, *parents]
            if fnmatch.fnmatchcase(subject, glob):
                return True
            if glob.endswith("/**") and any(
                fnmatch.fnmatchcase(candidate, glob[:-3]) for candidate in candidates
            ):
                return True
        return False


class DenyRules:
    """Refuses the calls its rules name, judged on the paths the call would touch: a path is
    resolved as the tools resolve it (mention stripped, `..` and links followed), so `./x`,
    `sub/../x`, `@x` and a link to x are denied alike (agentkit: check the real request, before
    any side effect)."""

    def __init__(self, rules: Collection[str], root: Path) -> None:
        self._rules = tuple(DenyRule.parse(rule) for rule in rules)
        self._root = root

    @property
    def tools(self) -> frozenset[str]:
        return frozenset(rule.tool for rule in self._rules)

    def check(self, request: PermissionRequest) -> Denial | None:
        rules = [rule for rule in self._rules if rule.tool == request.tool]
        if not rules:
            return None
        subjects = _subjects(request, self._root)
        for rule in rules:
            if rule.matches(subjects):
                return _denied(request.tool, rule, subjects)
        return None


def _subjects(request: PermissionRequest, root: Path) -> list[str]:
    """What a glob is matched against: the call's paths relative to the root, or bash's command."""
    arguments = request.arguments
    if isinstance(arguments.get("command"), str):
        return [arguments["command"]]
    raw_paths: list[str] = []
    if isinstance(arguments.get("path"), str):
        raw_paths.append(arguments["path"])
    if isinstance(arguments.get("patch"), str):
        try:
            ops = patch.parse(arguments["patch"])
        except patch.PatchSyntaxError:
            ops = []  # the tool answers INVALID_ARGS; nothing would be touched
        raw_paths += [path for op in ops for path in (op.path, op.move_to) if path]
    subjects = []
    for raw in raw_paths:
        try:
            real = paths.confine_read(raw, root).real
        except ToolError:
            continue  # outside the root or unusable: the tool itself refuses it
        subjects.append(paths.shown_path(real, root))
    return subjects


def _denied(tool: str, rule: DenyRule, subjects: list[str]) -> Denial:
    if rule.glob is None:
        return Denial(
            source="config",
            reason=f"the rule `{rule.text}` denies every call of {tool}.",
            hint=f"Do not call {tool} again; use the other tools, or ask the user to allow it.",
        )
    touched = ", ".join(f"`{subject}`" for subject in subjects if rule.matches([subject]))
    return Denial(
        source="config",
        reason=f"the rule `{rule.text}` denies {tool} on {touched}.",
        hint=f"Do not retry it; leave paths matching `{rule.glob}` alone, or ask the user to "
             "allow the change.",
    )
