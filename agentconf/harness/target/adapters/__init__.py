"""Adapters: one live session of an implementation, chosen by the spec's kind (one dispatch point).

`mcp:` is imported only when used, so a broken or absent MCP stack never stops python: or cmd:.
"""

import importlib

from agentconf.harness.target.adapters.base import Adapter, AdapterEnv
from agentconf.harness.target.spec import ImplSpec


def open_adapter(spec: ImplSpec, env: AdapterEnv) -> Adapter:
    """A fresh session in `env`; raises ImplementationFailure if it cannot start."""
    if spec.kind == "python":
        from agentconf.harness.target.adapters.python import open_python

        return open_python(spec.target, env, spec.profile, spec.load_factory())
    argv = spec.command(env.root, env.home, env.tmp)
    if spec.kind == "cmd":
        from agentconf.harness.target.adapters.cmd import open_cmd
        from agentconf.harness.target.launch import setup_requests

        return open_cmd(argv, env, label=f"cmd:{spec.target}",
                        setup=setup_requests(spec.profile, env.root, env.home, env.tmp))
    if spec.kind == "mcp":
        mcp = importlib.import_module(f"{__name__}.mcp")
        return mcp.open_mcp(argv, env, spec.profile)
    raise ValueError(f"no adapter for implementation kind {spec.kind!r}")


__all__ = ["Adapter", "AdapterEnv", "open_adapter"]
