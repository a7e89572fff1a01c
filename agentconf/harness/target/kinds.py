"""Target kinds: the schemes an implementation spec may start with (`python:`, `cmd:`, `mcp:`, and
any a third party adds), one class each, in one registry.

A kind says how its spec is read (`parse`), how a session of it is opened (`open`), and what it
is: in the kit's own process or not, spoken to over a child's pipes or not, started from a command
line or not. Every other module asks the kind (`spec.target_kind.in_process`) instead of comparing
the scheme's name, so a new kind is one class, not an edit in every place that assumed three.

A third party adds a kind through the entry-point group `agentconf.kinds`: the entry point's name
is its scheme, its object a `TargetKind` subclass (or an instance of one) whose `scheme` is that
name. In a package's pyproject.toml:

    [project.entry-points."agentconf.kinds"]
    myscheme = "mypackage.kind:MyKind"

A built-in scheme cannot be taken over: a kind that would replace `python:` under the same name
would change every verdict of an unchanged command line.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import importlib.util
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from agentconf.harness.profile.model import Profile
from agentconf.harness.target.launch import fill, once_values, profile_dir

if TYPE_CHECKING:  # only types: the adapters' package imports the spec, which imports this
    from agentconf.harness.target.adapters.base import Adapter, AdapterEnv

ENTRY_POINT_GROUP = "agentconf.kinds"


class SpecError(ValueError):
    """An implementation spec that cannot be used; the message names the problem.

    Defined here, below spec.py (which re-exports it), because a kind's parse raises it."""


class TargetKind:
    """One scheme of implementation spec. Subclasses set the class attributes and `parse`."""

    scheme: ClassVar[str]
    usage: ClassVar[str]  # the spec's shape, for messages: "python:MODULE:FACTORY"
    # The implementation is an object in the kit's own process (its framework in the kit's venv,
    # nothing started per workspace, nothing to keep between checks).
    in_process: ClassVar[bool] = False
    # It is spoken to over a child process's stdin and stdout (JSON-RPC), so it takes raw
    # requests ([[setup.requests]]). Any kind may be kept for a worker (`reuse`): a server
    # started once, or an object its factory built once (target/reuse.py).
    over_pipe: ClassVar[bool] = False
    # It is started from a command line, which a mode's `args` extend.
    has_command: ClassVar[bool] = False
    # Its answers carry the envelope's extras (summary, diff, issues, exit_code) only in a
    # structured part beside the text: an answer without that part has no field to carry them.
    extras_need_structure: ClassVar[bool] = False

    def parse(self, text: str, rest: str, profile: Profile) -> tuple[str, tuple[str, ...]]:
        """The target and the argv of `text` (`scheme:rest`), checked now so that a mistake
        fails before anything runs; raises SpecError."""
        raise NotImplementedError

    def open(self, target: str, argv: list[str], profile: Profile, env: AdapterEnv) -> Adapter:
        """A fresh session in `env` (`argv` with the workspace's placeholders filled in);
        raises ImplementationFailure if it cannot start."""
        raise NotImplementedError


class PythonKind(TargetKind):
    scheme, usage = "python", "python:MODULE:FACTORY"
    in_process = True

    def parse(self, text: str, rest: str, profile: Profile) -> tuple[str, tuple[str, ...]]:
        module, sep, factory = rest.partition(":")
        if not sep or not module or not factory:
            raise SpecError(f"python spec {text!r} must look like python:MODULE:FACTORY")
        if profile.path is not None:
            # A profile's adapter module sits beside it (peers/<peer>/adapter.py): importable
            # wherever the run starts, in this process and in the pytest child that re-parses it.
            folder = str(profile_dir(profile))
            if folder not in sys.path:
                sys.path.insert(0, folder)
        load_factory(rest)
        return rest, ()

    def open(self, target: str, argv: list[str], profile: Profile, env: AdapterEnv) -> Adapter:
        from agentconf.harness.target.adapters.python import open_python

        return open_python(target, env, profile, load_factory(target))


class CommandKind(TargetKind):
    """A child process started from a command line (argv by shlex, never a shell)."""

    over_pipe = has_command = True

    def parse(self, text: str, rest: str, profile: Profile) -> tuple[str, tuple[str, ...]]:
        if not rest:
            raise SpecError(f"{self.scheme}: spec {text!r} has no command after '{self.scheme}:'")
        self.check_available()
        try:
            argv = shlex.split(rest)
        except ValueError as error:
            raise SpecError(f"cannot split the command of {text!r}: {error}") from None
        once = once_values(profile)
        base = profile_dir(profile)
        return rest, tuple(anchored(fill(arg, once), base, first=i == 0)
                           for i, arg in enumerate(argv))

    def check_available(self) -> None:
        """Raises SpecError when what this kind needs is not installed."""


class CmdKind(CommandKind):
    scheme, usage = "cmd", "cmd:COMMAND"

    def open(self, target: str, argv: list[str], profile: Profile, env: AdapterEnv) -> Adapter:
        from agentconf.harness.target.adapters.cmd import open_cmd
        from agentconf.harness.target.launch import setup_requests

        return open_cmd(argv, env, label=f"cmd:{target}",
                        setup=setup_requests(profile, env.root, env.home, env.tmp))


class McpKind(CommandKind):
    scheme, usage = "mcp", "mcp:COMMAND"
    extras_need_structure = True  # MCP's structuredContent

    def check_available(self) -> None:
        if importlib.util.find_spec("mcp") is None:
            # An extra, so the kit installs beside frameworks that pin an older MCP SDK.
            raise SpecError("mcp: specs need the MCP SDK: pip install 'agentconf-kit[mcp]'")

    def open(self, target: str, argv: list[str], profile: Profile, env: AdapterEnv) -> Adapter:
        # Imported only when used, so a broken or absent MCP stack never stops python: or cmd:.
        mcp = importlib.import_module("agentconf.harness.target.adapters.mcp")
        adapter: Adapter = mcp.open_mcp(argv, env, profile)
        return adapter


BUILT_IN: tuple[TargetKind, ...] = (PythonKind(), CmdKind(), McpKind())


@functools.cache
def registered() -> dict[str, TargetKind]:
    """Every kind by its scheme: the built-in ones first, then those of `agentconf.kinds` entry
    points. Read once per process (a spec is parsed many times in a run)."""
    found = {kind.scheme: kind for kind in BUILT_IN}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        where = f"entry point {entry.name} = {entry.value!r} ({ENTRY_POINT_GROUP})"
        if entry.name in found:
            raise SpecError(f"{where}: {entry.name}: is already a kind; choose another scheme")
        try:
            loaded = entry.load()
        except Exception as error:  # a third party's broken module: still one line
            raise SpecError(f"{where} cannot be loaded: {type(error).__name__}: {error}") from None
        kind = loaded() if isinstance(loaded, type) else loaded
        if not isinstance(kind, TargetKind) or getattr(kind, "scheme", None) != entry.name:
            raise SpecError(f"{where} is not a TargetKind whose scheme is {entry.name!r}")
        found[entry.name] = kind
    return found


def kind_of(text: str | None) -> TargetKind | None:
    """The kind a spec's text starts with (`cmd:node server.js` -> cmd's), or None (a profile's
    path, `reference`, an unknown scheme)."""
    scheme, colon, _ = (text or "").strip().partition(":")
    return registered().get(scheme) if colon else None


def usages() -> str:
    """Every kind's spec shape, for a message: `python:MODULE:FACTORY, cmd:COMMAND, ...`."""
    return ", ".join(kind.usage for kind in registered().values())


def schemes_that(fact: str, joined: str = " or ") -> str:
    """The schemes of the kinds that declare `fact` (`over_pipe`, `has_command`, `in_process`),
    for a message: `cmd: or mcp:`."""
    return joined.join(f"{kind.scheme}:" for kind in registered().values()
                       if getattr(kind, fact))


def anchored(arg: str, base: Path, *, first: bool) -> str:
    """A relative argument naming an existing file, made absolute.

    The program starts with the workspace root as its cwd, so `cmd:node server.mjs {root}` would
    otherwise look for server.mjs in the root. A bare program name stays a PATH lookup.
    """
    if "{" in arg or arg.startswith("-") or os.path.isabs(arg) or (first and "/" not in arg):
        return arg
    candidate = base / arg
    return str(candidate.resolve()) if candidate.is_file() else arg


@functools.cache
def _import_scratch() -> str:
    """A folder of this process's own for what a module makes with tempfile when imported,
    removed when the process ends (a module-level editor's history folder: openhands-aci)."""
    folder = tempfile.mkdtemp(prefix="agentconf-import-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


@contextlib.contextmanager
def _importing() -> Iterator[None]:
    saved, tempfile.tempdir = tempfile.tempdir, _import_scratch()
    try:
        yield
    finally:
        tempfile.tempdir = saved


def load_factory(target: str) -> Any:
    """The callable `MODULE:FACTORY` names (a dotted FACTORY reaches into the module)."""
    module_name, _, factory_name = target.partition(":")
    try:
        with _importing():
            module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise SpecError(f"cannot import module {module_name!r}: {error}") from None
    except Exception as error:  # the module itself is broken: still one line
        raise SpecError(f"importing module {module_name!r} failed: "
                        f"{type(error).__name__}: {error}") from None
    factory: Any = module
    for part in factory_name.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise SpecError(f"module {module_name!r} has no factory {factory_name!r}")
    if not callable(factory):
        raise SpecError(f"{module_name}:{factory_name} is not callable")
    return factory

