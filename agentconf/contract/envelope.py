"""The result envelope every tool call answers with, success and failure alike (dskcode)."""

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ValidationIssue(BaseModel):
    """One problem with a call's arguments, phrased for the model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = Field(
        description="Pointer to the field, `$`-rooted: `$.path`, `$.edits[2].old_text`."
    )
    expected: str = Field(
        description="What the field should be: `string`, `present`, `integer >= 1`."
    )
    received: str = Field(description="A description of the value given, at most 60 characters.")
    message: str = Field(description="A sentence a model can act on.")


class Denial(BaseModel):
    """Why a permission gate refused a call."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str = Field(description="Who denied: `config`, `policy`, `user`, `filesystem`.")
    reason: str
    hint: str | None = None


class Envelope(BaseModel):
    """The answer to every tool call.

    `data` is for the model, `summary` for people, `diff` for tools (dskcode).
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    success: bool
    data: str
    error: str | None = Field(
        default=None, description="A stable code from the registry; null on success."
    )
    summary: str | None = None
    diff: str | None = Field(default=None, description="Unified diff of a file change.")
    issues: list[ValidationIssue] | None = None
    denial: Denial | None = None
    exit_code: int | None = Field(default=None, description="A shell command's exit status.")

    def to_wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


def envelope_json_schema() -> dict[str, Any]:
    schema = Envelope.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://agentconf.dev/schemas/envelope.schema.json"
    return schema


def render_schema(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
