"""Adapters: one live session of an implementation, opened by the spec's kind
(harness/target/kinds.py, where each kind says how its session is opened).

`mcp:` is imported only when used, so a broken or absent MCP stack never stops python: or cmd:.
"""

from agentconf.harness.target.adapters.base import Adapter, AdapterEnv
from agentconf.harness.target.spec import ImplSpec


def open_adapter(spec: ImplSpec, env: AdapterEnv) -> Adapter:
    """A fresh session in `env`; raises ImplementationFailure if it cannot start."""
    argv = spec.command(env.root, env.home, env.tmp)
    return spec.target_kind.open(spec.target, argv, spec.profile, env)


__all__ = ["Adapter", "AdapterEnv", "open_adapter"]
