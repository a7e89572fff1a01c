"""ReferenceToolSystem: the registry, the dispatcher and one session, behind two methods.

@clarvis/agent-tools: configuration is resolved once, at construction, and then frozen — a bad
option fails here, with one clear ValueError, never in the middle of a call. `read_only` keeps
the read tools alone on the surface (SURFACE); `deny` rules (`TOOL` or `TOOL:GLOB`) refuse calls
before they run (PERMISSION); `allowed_programs` are the only programs exec runs (EXEC-07; None:
any). One instance is one session: it holds what was read (read-before-edit), the per-path write
locks and the revealed deferred tools.
"""

from collections.abc import Callable, Collection, Mapping
from typing import Any

from agentconf import __version__
from agentconf.contract import Limits, Workspace

from .context import ToolContext
from .declare import Declaration
from .dispatch import Dispatcher
from .permissions import AllowAll, AllowedPrograms, DenyRules, FirstDenial, PermissionGate
from .registry import ToolRegistry, all_features_on
from .sandbox.paths import real_root
from .session import Session
from .tools import (
    apply_patch,
    bash,
    copy_file,
    delete_file,
    directory_tree,
    edit_file,
    exec,
    file_info,
    grep,
    list_files,
    make_directory,
    move_file,
    read_file,
    read_multiple_files,
    tool_search,
    write_file,
)

# The order tools are listed in: the canonical tools, then the reference's own; deferred ones
# (file_info) are listed once revealed.
TOOLS: tuple[Declaration, ...] = (
    read_file.DECLARATION,
    write_file.DECLARATION,
    edit_file.DECLARATION,
    apply_patch.DECLARATION,
    list_files.DECLARATION,
    grep.DECLARATION,
    bash.DECLARATION,
    exec.DECLARATION,
    tool_search.DECLARATION,
    make_directory.DECLARATION,
    move_file.DECLARATION,
    copy_file.DECLARATION,
    delete_file.DECLARATION,
    read_multiple_files.DECLARATION,
    directory_tree.DECLARATION,
    file_info.DECLARATION,
)

GREP_ENGINES = ("auto", "rg", "python")
# A backstop against a handler that never returns, not a working limit: bash enforces its own
# timeout_ms (up to 600 s) and must always get to answer first.
DEFAULT_CALL_TIMEOUT_S = 660.0


class ReferenceToolSystem:
    name = "agentconf-reference"
    version = __version__

    def __init__(
        self,
        workspace: Workspace,
        *,
        disabled: Collection[str] = (),
        feature_enabled: Callable[[str], bool] = all_features_on,
        provider: str | None = None,
        gate: PermissionGate | None = None,
        limits: Limits | Mapping[str, int] | None = None,
        grep_engine: str = "auto",
        call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
        read_only: bool = False,
        deny: Collection[str] = (),
        allowed_programs: Collection[str] | None = None,
    ) -> None:
        root = real_root(workspace.root)
        if not root.is_dir():
            raise ValueError(f"workspace root {workspace.root} is not an existing folder")
        unknown = sorted(set(disabled) - {declaration.name for declaration in TOOLS})
        if unknown:
            raise ValueError(f"cannot disable unknown tool(s): {', '.join(unknown)}")
        if grep_engine not in GREP_ENGINES:
            raise ValueError(f"grep_engine must be one of {', '.join(GREP_ENGINES)}")
        if not call_timeout_s > 0:
            raise ValueError("call_timeout_s must be a positive number of seconds")
        rules = DenyRules(deny, root)  # a bad rule fails here, at construction
        unknown = sorted(rules.tools - {declaration.name for declaration in TOOLS})
        if unknown:
            raise ValueError(f"deny rule(s) for unknown tool(s): {', '.join(unknown)}")
        self.session = Session()
        self.registry = ToolRegistry(
            TOOLS,
            disabled=disabled,
            feature_enabled=feature_enabled,
            provider=provider,
            read_only=read_only,
        )
        context = ToolContext(
            workspace=workspace,
            root=root,
            write_roots=tuple(real_root(path) for path in workspace.write_roots),
            limits=_resolve_limits(workspace.limits, limits),
            session=self.session,
            catalogue=self.registry,
            grep_engine=grep_engine,
        )
        gates = [gate or AllowAll()]
        if deny:
            gates.insert(0, rules)
        if allowed_programs is not None:
            gates.insert(0, AllowedPrograms(allowed_programs))
        self._dispatcher = Dispatcher(context, self.registry, FirstDenial(gates), call_timeout_s)

    @property
    def limits(self) -> Limits:
        return self._dispatcher.limits

    def list_tools(self) -> list[dict[str, Any]]:
        """name, description, input_schema and kind of every advertised tool, in a fixed order."""
        return [tool.listing() for tool in self.registry.listed(self.session.revealed)]

    async def call_tool(self, name: Any, arguments: Any) -> dict[str, Any]:
        """The envelope of the call, as JSON-ready data. Never raises (see dispatch.py)."""
        envelope = await self._dispatcher.call(name, arguments)
        return envelope.to_wire()


def _resolve_limits(base: Limits, override: Limits | Mapping[str, int] | None) -> Limits:
    if override is None:
        return base
    if isinstance(override, Limits):
        return override
    return base.with_overrides(dict(override))
