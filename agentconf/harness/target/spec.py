"""Implementation specs: which implementation to check, and how to reach it.

    reference               the built-in reference (python:agentconf.reference:create, checked
                            with the default shell timeout REFERENCE_LIMITS declares)
    python:MODULE:FACTORY   in process: FACTORY(workspace) -> object with list_tools/call_tool
    cmd:COMMAND             any language over stdio JSON-RPC (argv by shlex, never a shell)
    mcp:COMMAND             an MCP server over stdio
    SCHEME:...              a kind a third party registered (entry-point group agentconf.kinds)
    path/to/agentconf.toml  a profile whose [implementation].spec is one of the above

What each scheme is and does is its kind's (harness/target/kinds.py), never assumed here.

Placeholders in a command, replaced per workspace: {root}, {home}, {tmp}; and once: {cache}
($AGENTCONF_CACHE, else ~/.cache/agentconf), {profile_dir} (the profile's folder) and
{peers_cache} (where `agentconf matrix` installed the peers).
"""

import importlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentconf.harness.profile.model import Profile, load_profile
from agentconf.harness.target.kinds import (
    SpecError,
    TargetKind,
    anchored,
    kind_of,
    load_factory,
    registered,
    schemes_that,
    usages,
)
from agentconf.harness.target.launch import (
    fill,
    once_values,
    placeholder_values,
    profile_dir,
)

REFERENCE = "python:agentconf.reference:create"
# The built-in reference is checked with a default shell timeout of 5 s, declared as a profile
# declares one (the reference takes its limits from its workspace): SHELL-14 waits a declared
# default out once, and the contract's 30 s would hold a worker of every run of the reference,
# the README's first command among them, for as long.
REFERENCE_LIMITS = {"shell_timeout_ms": 5000}


@dataclass(frozen=True, slots=True)
class ImplSpec:
    text: str  # as the user gave it, for reports and the reproduce line
    kind: str  # the scheme: its TargetKind is `target_kind`
    target: str  # MODULE:FACTORY, or the command line
    argv: tuple[str, ...] = ()
    profile: Profile = field(default_factory=Profile)
    mode: str | None = None  # a [modes.<name>] of the profile, when not the default launch

    @property
    def target_kind(self) -> TargetKind:
        return registered()[self.kind]

    @property
    def module(self) -> str:
        return self.target.split(":", 1)[0]

    @property
    def factory_name(self) -> str:
        return self.target.split(":", 1)[1]

    def load_factory(self) -> Any:
        return load_factory(self.target)

    def command(self, root: Path, home: Path, tmp: Path) -> list[str]:
        """argv with the per-workspace placeholders filled in."""
        values = {"root": str(root), "home": str(home), "tmp": str(tmp)}
        return [fill(arg, values) for arg in self.argv]

    def environment(self, root: Path, home: Path, tmp: Path) -> dict[str, str]:
        """The profile's [env] with every placeholder filled in (per workspace and once)."""
        values = placeholder_values(self.profile, root, home, tmp)
        return {name: fill(value, values) for name, value in self.profile.env.items()}

    def with_mode(self, name: str) -> "ImplSpec":
        """The same implementation started as `[modes.<name>]` says: another spec, or more
        arguments; its env is added by harness/target/launch.py."""
        mode = self.profile.modes.get(name)
        if mode is None:
            known = ", ".join(sorted(self.profile.modes)) or "none"
            raise SpecError(f"profile {self.profile.path}: no [modes.{name}] (modes: {known})")
        base = parse_spec(mode.spec, self.profile) if mode.spec is not None else self
        if mode.args and not base.target_kind.has_command:
            raise SpecError(f"profile {self.profile.path}: [modes.{name}].args needs a "
                            f"{schemes_that('has_command')} spec; a {base.kind}: implementation "
                            "takes no arguments")
        once = once_values(self.profile)
        argv = base.argv + tuple(fill(arg, once) for arg in mode.args)
        return ImplSpec(self.text, base.kind, base.target, argv, self.profile, name)

    @property
    def display_name(self) -> str:
        if self.profile.name:
            return self.profile.name
        if self.text == "reference":
            return "reference"
        if self.target_kind.in_process:
            return self.module
        return Path(self.argv[0]).name if self.argv else self.target

    @property
    def display_version(self) -> str | None:
        if self.profile.version:
            return self.profile.version
        if self.target_kind.in_process:
            module = importlib.import_module(self.module)
            version = getattr(module, "__version__", None)
            if version is None and "." in self.module:  # the package's version, for a submodule
                top = importlib.import_module(self.module.split(".")[0])
                version = getattr(top, "__version__", None)
            return str(version) if version is not None else None
        return None


def parse_spec(text: str, profile: Profile | None = None) -> ImplSpec:
    """Parses and checks a spec; a python: factory is imported now so a typo fails early."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError(f"empty implementation spec; use reference, {usages()} or a profile "
                        ".toml")
    text = text.strip()
    if text == "reference":
        spec = _parse_inline(REFERENCE, profile or Profile.model_validate(
            {"limits": REFERENCE_LIMITS}))
        return ImplSpec("reference", spec.kind, spec.target, spec.argv, spec.profile)
    if kind_of(text) is not None:
        return _parse_inline(text, profile or Profile())
    if text.endswith(".toml") or Path(text).is_file():
        loaded = load_profile(text)
        if loaded.spec is None:
            raise SpecError(f"profile {text} has no [implementation].spec naming what to check")
        inner = parse_spec_from_profile(loaded)
        return ImplSpec(text, inner.kind, inner.target, inner.argv, loaded)
    raise SpecError(
        f"unknown implementation spec {text!r}: use reference, {usages()} or the path of a "
        "profile .toml"
    )


def parse_spec_from_profile(profile: Profile) -> ImplSpec:
    inner = (profile.spec or "").strip()
    if inner.endswith(".toml"):
        raise SpecError(f"profile {profile.path}: [implementation].spec may not be a profile")
    try:
        return parse_spec(inner, profile)
    except SpecError as error:
        raise SpecError(f"profile {profile.path}: [implementation].spec: {error}") from None


# Set in the process a run hands over to the profile's interpreter: it never hands over again.
HANDED_OVER = "AGENTCONF_HANDED_OVER"


def profile_interpreter(impl: str | None, profile_path: str | None) -> str | None:
    """The interpreter a profile's `[implementation].python` names for its python: spec, when
    it is not this one: the run is then made by that interpreter's agentconf, since a python:
    implementation runs in the kit's own process and its framework lives in that venv."""
    if os.environ.get(HANDED_OVER):
        return None
    path = profile_path or (impl if impl and impl.endswith(".toml") else None)
    if path is None or not Path(path).is_file():
        return None
    profile = load_profile(path)
    spec_text = impl if impl and not impl.endswith(".toml") else profile.spec
    kind = kind_of(spec_text)
    if profile.python is None or kind is None or not kind.in_process:
        return None
    python = fill(profile.python, once_values(profile))
    python = str(anchored(python, profile_dir(profile), first=False))
    if os.path.realpath(python) == os.path.realpath(sys.executable):
        return None
    if not os.access(python, os.X_OK):
        raise SpecError(f"profile {path}: [implementation].python {python} is not an "
                        "executable interpreter")
    return python


def resolve(impl: str | None, profile_path: str | None) -> ImplSpec:
    """The implementation for a run: --impl, --profile, or both (the profile then maps names)."""
    if profile_path is None:
        return parse_spec(impl or "reference")
    profile = load_profile(profile_path)
    if impl is None:
        if profile.spec is None:
            raise SpecError(f"profile {profile_path} has no [implementation].spec and no --impl "
                            "was given")
        spec = parse_spec_from_profile(profile)
        return ImplSpec(profile_path, spec.kind, spec.target, spec.argv, profile)
    return parse_spec(impl, profile)


def _parse_inline(text: str, profile: Profile) -> ImplSpec:
    scheme, _, rest = text.partition(":")
    target, argv = registered()[scheme].parse(text, rest.strip(), profile)
    return ImplSpec(text, scheme, target, argv, profile)

