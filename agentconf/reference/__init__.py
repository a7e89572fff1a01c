"""The reference tool system: the contract's tools, implemented to be read.

`create(workspace, **config)` is what the harness loads (`python:agentconf.reference:create`).
Config (all optional): `disabled` tool names, `feature_enabled(name) -> bool`, `provider`, a
permission `gate`, `limits` overrides, `grep_engine` (`auto`, `rg`, `python`), `call_timeout_s`.
"""

from typing import Any

from agentconf.contract import Workspace

from .system import ReferenceToolSystem


def create(workspace: Workspace, **config: Any) -> ReferenceToolSystem:
    return ReferenceToolSystem(workspace, **config)


__all__ = ["ReferenceToolSystem", "create"]
