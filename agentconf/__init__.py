"""agentconf: a conformance kit for LLM agent tool systems.

The public modules: :mod:`agentconf.testkit` (sandbox, disk oracle and trap builders for a tool
author's own tests), :mod:`agentconf.strategies` (hypothesis strategies), and the contract's
:class:`Workspace` and :class:`Limits`, which a ``python:MODULE:FACTORY`` implementation receives.
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Limits", "Workspace", "__version__"]

if TYPE_CHECKING:
    from agentconf.contract import Limits, Workspace


def __getattr__(name: str) -> Any:
    # Imported on first use: `import agentconf` (the CLI's first step) stays cheap.
    if name in ("Limits", "Workspace"):
        from agentconf import contract

        return getattr(contract, name)
    raise AttributeError(f"module 'agentconf' has no attribute {name!r}")
