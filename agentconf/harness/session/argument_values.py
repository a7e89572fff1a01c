"""A value for an argument the contract has no counterpart for (`reason`, `encoding`, `confirm`,
a JSON list of replacements): what `init --from` drafts as a tool's default, and what a check
sends to the other required arguments of a declared path tool. One rule for both, so a call the
draft proved works is the call the checks make."""

import json
import re
from typing import Any

# "Must be "utf-8"", "one of: 'a', 'b'", "e.g. `main`": the value a description asks for.
_ASKED = re.compile(r"""(?i)(?:must be|should be|one of|e\.g\.|for example|such as|set to|"""
                    r"""always|only)\s*:?\s*["'`]([^"'`]{1,60})["'`]""")
# "Available: ['bash', 'sh']", "Allowed values: utf-8, latin-1", "one of [fast, slow]": the
# first of the values a description lists as the ones it takes.
_LISTED = re.compile(r"""(?i)(?:\b(?:available|allowed|valid|supported|accepted|possible)"""
                     r"""(?:\s+[a-z]+){0,2}\s*(?:are|is)?\s*:|\bone of\s*:?(?=\s*\[))"""
                     r"""\s*\[?\s*["'`]?([A-Za-z0-9_][A-Za-z0-9_./+-]{0,39})""")
# "JSON array of objects (e.g. [{"target": "old", "replacement": "new"}])": an example in JSON.
_EXAMPLE = re.compile(r"(?i)(?:e\.g\.|for example|example|such as)\s*:?\s*(?=[\[{])")
# A text any value of which works: a reason, a description of the call.
ANY_TEXT = "agentconf conformance check"


def types_of(prop: dict[str, Any]) -> set[str]:
    """The JSON types a schema property allows (`type`, a list of them, or anyOf/oneOf)."""
    kind = prop.get("type")
    if isinstance(kind, list):
        return set(kind)
    options = prop.get("anyOf") or prop.get("oneOf")
    if kind is None and isinstance(options, list):
        return {str(option["type"]) for option in options
                if isinstance(option, dict) and isinstance(option.get("type"), str)}
    if kind is None:  # what it holds tells its type: fields are an object's, items a list's
        return {"object"} if "properties" in prop else {"array"} if "items" in prop else set()
    return {kind} if isinstance(kind, str) else set()


def required_value(prop: dict[str, Any]) -> tuple[Any, str] | None:
    """A value and why: its schema's `const` or first `enum`, an example in JSON its description
    gives (a text holding JSON is sent as that text), a value its description asks for or the
    first it lists as available, else one of its type that a check would send (a text, false,
    0); None for a list or an object with no example."""
    if "const" in prop:
        return prop["const"], "its schema's const"
    options = prop.get("enum")
    if isinstance(options, list) and options:
        return options[0], "its schema's first option"
    description = str(prop.get("description") or "")
    kinds = types_of(prop)
    example = _json_example(description)
    if example is not None:
        if "string" in kinds or not kinds:
            return json.dumps(example), "the JSON example its description gives"
        if kinds & {"array", "object"}:
            return example, "the example its description gives"
    asked = _ASKED.search(description)
    if asked is not None:
        return asked.group(1), "the value its description asks for"
    listed = _LISTED.search(description)
    if listed is not None and ("string" in kinds or not kinds):
        return listed.group(1), "the first of the values its description lists"
    if "string" in kinds or not kinds:
        return ANY_TEXT, "a text, as its description allows any"
    if "boolean" in kinds:
        return False, "a boolean"
    if kinds & {"integer", "number"}:
        return prop.get("minimum", 0), "a number its schema allows"
    return None


def _json_example(description: str) -> list[Any] | dict[str, Any] | None:
    for found in _EXAMPLE.finditer(description):
        try:
            value, _end = json.JSONDecoder().raw_decode(description, found.end())
        except ValueError:
            continue
        if isinstance(value, list | dict) and value:
            return value
    return None
