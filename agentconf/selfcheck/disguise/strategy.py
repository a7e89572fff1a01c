"""Hypothesis strategies drawing disguises: each dimension independently, each with the identity
(None, empty, false) as its simplest value, so a failing disguise shrinks to the fewest
dimensions that still diverge. `disguises(dimensions)` draws only the named dimensions and leaves
the others at the reference's way."""

from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st

from .dimensions import ArgumentAlias, Disguise, ShellGate, ToolAlias
from .vocabulary import (
    ARGUMENT_SYNONYMS,
    EXTRA_ARGUMENTS,
    FAILURE_PREFIXES,
    FAILURE_SIGNALS,
    NESTED_EDITS,
    PROGRAM_APARTS,
    PROGRAMS,
    RESULT_KEYS,
    SELECTORS,
    TOOL_PREFIXES,
    TOOL_SYNONYMS,
)

CASES = ("camel", "kebab", "pascal")


def _optional(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), values)


def _tool_alias(tool: str) -> st.SearchStrategy[ToolAlias]:
    return st.sampled_from(TOOL_SYNONYMS[tool]).map(lambda name: ToolAlias(tool=tool, name=name))


def _argument_alias(key: tuple[str, str]) -> st.SearchStrategy[ArgumentAlias]:
    tool, argument = key
    return st.sampled_from(ARGUMENT_SYNONYMS[key]).map(
        lambda name: ArgumentAlias(tool=tool, argument=argument, name=name))


def _allow_list() -> st.SearchStrategy[ShellGate]:
    extra = st.lists(st.sampled_from(PROGRAMS[3:]), unique=True)
    return extra.map(lambda more: ShellGate(allowed=(*PROGRAMS[:3], *sorted(more))))


DIMENSIONS: dict[str, st.SearchStrategy[Any]] = {
    "tool_names": st.lists(st.sampled_from(sorted(TOOL_SYNONYMS)).flatmap(_tool_alias),
                           unique_by=lambda alias: alias.tool).map(tuple),
    "tool_prefix": _optional(st.sampled_from(TOOL_PREFIXES)),
    "tool_case": _optional(st.sampled_from(CASES)),
    "argument_names": st.lists(st.sampled_from(sorted(ARGUMENT_SYNONYMS)).flatmap(
        _argument_alias), unique_by=lambda alias: (alias.tool, alias.argument)).map(tuple),
    "argument_case": _optional(st.sampled_from(CASES)),
    "nested_edits": _optional(st.sampled_from(NESTED_EDITS)),
    "extra_argument": _optional(st.sampled_from(EXTRA_ARGUMENTS).flatmap(
        lambda extra: st.sampled_from(("all", "writes")).map(
            lambda tools: extra.model_copy(update={"tools": tools})))),
    "failure_signal": _optional(st.sampled_from(FAILURE_SIGNALS)),
    "wording": _optional(st.sampled_from(("reworded", "german", "korean"))),
    "failure_prefix": _optional(st.sampled_from(FAILURE_PREFIXES)),
    "json_quoted": st.booleans(),
    "codes": _optional(st.sampled_from(("text_prefix", "absent"))),
    "code_spelling": _optional(st.sampled_from(("lower", "errno"))),
    "text_only": st.booleans(),
    "result_key": _optional(st.sampled_from(RESULT_KEYS)),
    "paths": _optional(st.sampled_from(("absolute", "virtual"))),
    "shell_gate": _optional(_allow_list()),
    "selector": _optional(st.sampled_from(SELECTORS)),
    "docstring": st.booleans(),
    "operation_heads": st.booleans(),
    "program_apart": _optional(st.sampled_from(PROGRAM_APARTS)),
    "line_window": _optional(st.sampled_from(("zero_based", "offset_limit"))),
}


def disguises(dimensions: Iterable[str] | None = None) -> st.SearchStrategy[Disguise]:
    """Disguises varying only `dimensions` (fields of Disguise; default: all of them)."""
    chosen = set(DIMENSIONS) if dimensions is None else set(dimensions)
    unknown = chosen - set(DIMENSIONS)
    if unknown:
        raise ValueError(f"no such dimension of a disguise: {', '.join(sorted(unknown))}")
    return st.builds(Disguise, **{name: DIMENSIONS[name] for name in sorted(chosen)})
