"""Starting the implementation under test in one of the contract's modes (contract/modes.py).

A mode is started as the profile says: another spec, extra command arguments (cmd:, mcp:), or
extra environment variables (every kind; in process they are set while the factory and the calls
run). The SURFACE and PERMISSION suites open such a session beside the usual one, on the same
workspace and judged by the same disk oracle; an implementation with no way to start a mode is
n/a for that mode's clauses.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from agentconf.harness.target.adapters import Adapter, open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import ImplSpec, parse_spec


@dataclass(frozen=True, slots=True)
class Mode:
    """How to start the implementation in a mode."""

    spec: str | None = None  # another implementation spec (same profile)
    args: tuple[str, ...] = ()  # appended to the command of a cmd: or mcp: spec
    env: Mapping[str, str] = field(default_factory=dict)


def profile_modes(spec: ImplSpec) -> dict[str, Mode] | None:
    """The modes the implementation's profile declares ([modes.<name>]), or None when the
    profile has no modes table."""
    # TODO(Profile.modes): the profile helper adds [modes.<name>] (spec/args/env) as
    # Profile.modes; read here by attribute so this works before and after that lands.
    declared: Any = getattr(spec.profile, "modes", None)
    if not declared:
        return None
    return {
        name: Mode(
            spec=getattr(entry, "spec", None),
            args=tuple(getattr(entry, "args", ()) or ()),
            env=dict(getattr(entry, "env", {}) or {}),
        )
        for name, entry in declared.items()
    }


def open_in_mode(spec: ImplSpec, mode: Mode, env: AdapterEnv) -> Adapter:
    """A fresh session of `spec` started in `mode`, in `env`'s workspace."""
    if mode.spec is not None:
        spec = replace(parse_spec(mode.spec, spec.profile), profile=spec.profile)
    if mode.args:
        if not spec.target_kind.has_command:
            raise ValueError(f"a {spec.kind}: implementation takes no command arguments; start "
                             "its mode with env or another spec")
        spec = replace(spec, argv=(*spec.argv, *mode.args))
    return open_adapter(spec, replace(env, extra_env={**env.extra_env, **mode.env}))
