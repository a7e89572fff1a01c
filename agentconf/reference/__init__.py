"""The reference tool system: the contract's tools, implemented to be read.

`create(workspace, **config)` is what the harness loads (`python:agentconf.reference:create`).
Config (all optional): `disabled` tool names, `feature_enabled(name) -> bool`, `provider`, a
permission `gate`, `limits` overrides, `grep_engine` (`auto`, `rg`, `python`), `call_timeout_s`,
`read_only` (the read tools alone), `deny` rules (`TOOL` or `TOOL:GLOB`) and `allowed_programs`
(the only programs exec runs).

The modes can also come from the environment, as `agentconf serve` takes them, so that a harness
starts the reference in a mode the same way in process, over `cmd:` and over `mcp:`:
AGENTCONF_READ_ONLY=1, AGENTCONF_DENY="bash write_file:locked/**" (rules split like a shell
line) and AGENTCONF_ALLOWED_PROGRAMS="echo printf" (split the same way). Config given to
`create` wins over the environment.
"""

import os
import shlex
from collections.abc import Mapping
from typing import Any

from agentconf.contract import Workspace

from .system import ReferenceToolSystem

READ_ONLY_VARIABLE = "AGENTCONF_READ_ONLY"
DENY_VARIABLE = "AGENTCONF_DENY"
ALLOWED_PROGRAMS_VARIABLE = "AGENTCONF_ALLOWED_PROGRAMS"
_TRUE, _FALSE = ("1", "true", "yes"), ("", "0", "false", "no")


def create(workspace: Workspace, **config: Any) -> ReferenceToolSystem:
    return ReferenceToolSystem(workspace, **{**config_from_environment(os.environ), **config})


def config_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """`read_only`, `deny` and `allowed_programs` from their variables, when set."""
    config: dict[str, Any] = {}
    flag = environ.get(READ_ONLY_VARIABLE)
    if flag is not None:
        if flag.strip().lower() not in _TRUE + _FALSE:
            raise ValueError(f"{READ_ONLY_VARIABLE}={flag!r}: use 1 or 0")
        config["read_only"] = flag.strip().lower() in _TRUE
    lists = ((DENY_VARIABLE, "deny"), (ALLOWED_PROGRAMS_VARIABLE, "allowed_programs"))
    for variable, key in lists:
        words = environ.get(variable)
        if words:
            try:
                config[key] = shlex.split(words)
            except ValueError as error:
                raise ValueError(f"{variable}: {error}") from None
    return config


__all__ = ["ReferenceToolSystem", "config_from_environment", "create"]
