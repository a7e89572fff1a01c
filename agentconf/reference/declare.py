"""One declaration per tool: its name, kind, argument model (or JSON Schema) and handler.

A pydantic model yields the JSON Schema the model sees, the validator and the Python type at once
(the Zod role in seed 000). A tool declared with a plain JSON Schema is validated with jsonschema
and produces the same `ValidationIssue`s.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from agentconf.contract import Envelope, ToolKind

if TYPE_CHECKING:
    from .context import ToolContext

Handler = Callable[[Any, "ToolContext"], Awaitable[Envelope]]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    kind: ToolKind
    handler: Handler
    args_model: type[BaseModel] | None = None
    json_schema: dict[str, Any] | None = None
    # The handler bounds its own output (bash bounds while streaming), so dispatch must not again.
    bounds_own_output: bool = False
    # Deferred tools are not advertised; tool_search reveals them (seed 001).
    deferred: bool = False
    supported_providers: tuple[str, ...] = ()
    feature_flag: str | None = None
    is_concurrency_safe: Callable[[Any], bool] | None = field(default=None)

    def __post_init__(self) -> None:
        if (self.args_model is None) == (self.json_schema is None):
            raise ValueError(f"tool {self.name}: declare exactly one of args_model or json_schema")

    @property
    def input_schema(self) -> dict[str, Any]:
        if self.json_schema is not None:
            return self.json_schema
        assert self.args_model is not None
        return self.args_model.model_json_schema()

    def concurrency_safe(self, args: Any) -> bool:
        if self.is_concurrency_safe is not None:
            return self.is_concurrency_safe(args)
        return self.kind is ToolKind.READ

    def listing(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
            "kind": self.kind.value,
        }
