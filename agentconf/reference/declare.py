"""One declaration per tool: its name, kind, argument model (or JSON Schema) and handler.

A pydantic model yields the JSON Schema the model sees, the validator and the Python type at once
(the Zod role in dskcode). A tool declared with a plain JSON Schema is validated with jsonschema
and produces the same `ValidationIssue`s.
"""

import pickle
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from agentconf.contract import Envelope, ToolKind
from agentconf.contract.tools import (
    DESTRUCTIVE_HINT,
    IDEMPOTENT_HINT,
    OPEN_WORLD_HINT,
    READ_ONLY_HINT,
)

from .validation import Validated, model_schema, validate_with_model, validate_with_schema

if TYPE_CHECKING:
    from .context import ToolContext

Handler = Callable[[Any, "ToolContext"], Awaitable[Envelope]]


class Arguments(BaseModel):
    """Base of every tool's argument model: unknown fields are errors and nothing is coerced.

    `strict` refuses `"3"` for an int and `1` for a str; the validator still lets an integer field
    take `2.0`, since JSON has one number type (see validation.py).
    """

    model_config = ConfigDict(extra="forbid", strict=True)


_PICKLED: dict[int, tuple[dict[str, Any], bytes]] = {}


def private_copy(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of a shared schema the caller may change: pickled once, unpickled per listing (a
    deepcopy per tool per session was 3% of a run's CPU). Shared schemas are never changed in
    place (model_schema), so the pickle stays true; each is kept with its pickle, so no other
    object can take its id."""
    kept = _PICKLED.get(id(schema))
    if kept is None:
        kept = _PICKLED[id(schema)] = (schema, pickle.dumps(schema, pickle.HIGHEST_PROTOCOL))
    copied: dict[str, Any] = pickle.loads(kept[1])
    return copied


@dataclass(frozen=True, slots=True)
class Declaration:
    name: str
    description: str
    kind: ToolKind
    handler: Handler
    args_model: type[BaseModel] | None = None
    json_schema: dict[str, Any] | None = None
    # The handler bounds its own output (bash bounds while streaming), so dispatch must not again.
    bounds_own_output: bool = False
    # Deferred tools are not advertised; tool_search reveals them (Claude Code).
    deferred: bool = False
    supported_providers: tuple[str, ...] = ()
    feature_flag: str | None = None
    # Behaviour hints beyond the kind (agentkit's ToolAnnotations, MCP's annotations), each a
    # claim the ANNOTATION clauses judge on the disk. A tool of kind read is read-only, never
    # destructive and idempotent by its kind; the fields matter for the others.
    destructive: bool = True
    idempotent: bool = False
    open_world: bool = False

    def __post_init__(self) -> None:
        if (self.args_model is None) == (self.json_schema is None):
            raise ValueError(f"tool {self.name}: declare exactly one of args_model or json_schema")
        if self.args_model is not None:
            config = self.args_model.model_config
            if config.get("extra") != "forbid" or not config.get("strict"):
                raise ValueError(
                    f"tool {self.name}: its argument model must forbid extra fields and be strict "
                    "(derive it from declare.Arguments)"
                )

    @property
    def input_schema(self) -> dict[str, Any]:
        """The schema the model sees; shared, so callers that want to change it take a copy."""
        if self.json_schema is not None:
            return self.json_schema
        assert self.args_model is not None
        return model_schema(self.args_model)

    def validate(self, arguments: Any, *, received_limit: int = 60) -> Validated:
        """The arguments as the handler's type (model instance or dict), or the issues."""
        if self.args_model is not None:
            return validate_with_model(self.args_model, arguments, received_limit=received_limit)
        assert self.json_schema is not None
        return validate_with_schema(self.json_schema, arguments, received_limit=received_limit)

    def annotations(self) -> dict[str, bool]:
        """All four hints, as MCP spells them: a client never has to fall back to a default."""
        read_only = self.kind is ToolKind.READ
        return {
            READ_ONLY_HINT: read_only,
            DESTRUCTIVE_HINT: not read_only and self.destructive,
            IDEMPOTENT_HINT: read_only or self.idempotent,
            OPEN_WORLD_HINT: self.open_world,
        }

    def listing(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": private_copy(self.input_schema),
            "kind": self.kind.value,
            "annotations": self.annotations(),
        }
