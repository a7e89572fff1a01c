"""One strategy object per set of arguments: the memo behind the public factories."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any, TypeVar

from hypothesis import strategies as st

_Factory = TypeVar("_Factory", bound=Callable[..., Any])
_MEMO_SIZE = 256


def memoised(factory: _Factory) -> _Factory:
    """The same strategy object for the same arguments.

    The suites draw from these inside the test, once per example (the schema or the root comes
    from the fixture): building the strategy anew each time cost more than drawing from it, and
    a fresh object also throws away what hypothesis caches per strategy. Arguments are compared
    by value (schemas, paths) or, for strategies passed in, by identity; the memo holds them, so
    an identity is never reused while its entry lives.
    """
    memo: dict[Any, tuple[Any, Any]] = {}

    @functools.wraps(factory)
    def cached(*args: Any, **kwargs: Any) -> Any:
        try:
            key = _frozen((args, sorted(kwargs.items())))
        except TypeError:  # something unhashable we do not know how to compare: no memo
            return factory(*args, **kwargs)
        if key not in memo:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[key] = ((args, kwargs), factory(*args, **kwargs))
        return memo[key][1]

    return cached  # type: ignore[return-value]


def _frozen(value: Any) -> Any:
    if isinstance(value, st.SearchStrategy):
        return ("strategy", id(value))
    if isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _frozen(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_frozen(item) for item in value))
    if isinstance(value, PurePath):
        return ("path", str(value))
    if isinstance(value, (str, int, float, bool, type(None))):
        return (type(value).__name__, value)
    raise TypeError(f"no memo key for {type(value).__name__}")
