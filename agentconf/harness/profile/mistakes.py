"""Every mistake in a profile, rendered as one message: file, then one line per table and key."""

import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError


class ProfileError(ValueError):
    """A profile that cannot be used; the message names every problem."""


def render_errors(error: ValidationError, model: type[BaseModel], where: str) -> str:
    lines = [_line(issue, model) for issue in error.errors(include_url=False)]
    unique = list(dict.fromkeys(lines))  # a key refused by two union branches is said once
    if len(unique) == 1:  # one line, like every other usage error
        return f"{where}: {unique[0]}"
    return f"{where}: {len(unique)} problems" + "".join(f"\n  - {line}" for line in unique)


def _line(issue: Any, model: type[BaseModel]) -> str:
    loc = tuple(issue["loc"])
    message = str(issue["msg"]).removeprefix("Value error, ")
    if loc and loc[-1] == "[key]":  # a dict key that is not allowed
        loc = loc[:-1]
        return f"{_place(loc)}: {message} (the key itself)"
    if issue["type"] == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        hint = f"; allowed: {', '.join(allowed)}" if allowed else ""
        return f"{_place(loc)}: unknown key{hint}"
    if issue["type"] not in ("missing",) and "input" in issue and not isinstance(
            issue["input"], dict | list):
        message += f" (got {issue['input']!r})" if repr(issue["input"]) not in message else ""
    return f"{_place(loc)}: {message}"


def _place(loc: tuple[Any, ...]) -> str:
    """`[implementation].call_timeout_ms`, `[tools.read_file.args].path`, `[error_patterns #2]`."""
    if not loc:
        return "profile"
    *table, key = loc
    if isinstance(key, int):
        table, key = list(loc), None
    parts: list[str] = []
    for step in table:
        if isinstance(step, int):
            parts[-1] = f"{parts[-1]} #{step + 1}" if parts else f"#{step + 1}"
        else:
            parts.append(_quoted(str(step)))
    name = ".".join(parts)
    if not parts:
        return f"top level: {_quoted(str(key))}"
    return f"[{name}]" if key is None else f"[{name}].{_quoted(str(key))}"


def _quoted(name: str) -> str:
    bare = name.replace("_", "").replace("-", "").isalnum()
    return name if bare else f'"{name}"'


def _allowed_keys(model: type[BaseModel], path: tuple[Any, ...]) -> list[str]:
    """The keys the table at `path` takes, found by walking the model's annotations."""
    node: Any = model
    for step in path:
        node = _child(node, step)
        if node is None:
            return []
    node = _unwrap(node)
    if isinstance(node, type) and issubclass(node, BaseModel):
        return sorted(info.alias or name for name, info in node.model_fields.items())
    return []


def _child(node: Any, step: Any) -> Any:
    node = _unwrap(node)
    if isinstance(node, type) and issubclass(node, BaseModel):
        for name, info in node.model_fields.items():
            if step in (name, info.alias):
                return info.annotation
        return None
    origin = typing.get_origin(node)
    if origin is dict:
        return typing.get_args(node)[1]
    if origin is list:
        return typing.get_args(node)[0]
    return None


def _unwrap(node: Any) -> Any:
    """`X | None` -> X; Annotated[X, ...] -> X."""
    while True:
        origin = typing.get_origin(node)
        if origin is typing.Annotated:
            node = typing.get_args(node)[0]
        elif origin in (typing.Union, types.UnionType):
            options = [arg for arg in typing.get_args(node) if arg is not type(None)]
            models = [arg for arg in options
                      if isinstance(arg, type) and issubclass(arg, BaseModel)]
            node = (models or options)[0]
        else:
            return node
