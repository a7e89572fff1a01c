"""Profiles (`agentconf.toml`): how one implementation's names, codes and limits map onto ours.

Every mistake in a profile is one `ProfileError` naming the file, the table and the key; nothing
in a profile is silently ignored (an unknown key is an error, not a no-op).
"""

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentconf.contract import (
    CANONICAL_TOOLS,
    CAPABILITIES,
    CATEGORIES,
    CLAUSES,
    DEFAULT_LIMITS,
    ERROR_CODES,
    Limits,
)


class ProfileError(ValueError):
    """A profile that cannot be used; the message names the problem."""


_TOP_LEVEL = {"implementation", "limits", "capabilities", "tools", "error_patterns",
              "error_codes", "expected_failures"}
_IMPLEMENTATION_KEYS = {"spec", "name", "version", "absolute_paths", "call_timeout_ms", "reuse"}
# `reuse = "worker"`: one process per pytest worker, kept from test to test (see harness/reuse.py).
REUSE_MODES = ("worker",)
# A reused process carries its session from test to test, so these features could not be judged:
# a file read in one test would count as read in the next.
_SESSION_FEATURES = ("read_before_edit", "stale_read")
_TOOL_KEYS = {"name", "args", "defaults"}
# `name`, `name.sub`, `name[0]`, `name[0].sub[2]`: where an argument goes in the real call.
_TARGET = re.compile(r"[A-Za-z_$][\w$-]*(\[\d+\])*(\.[A-Za-z_$][\w$-]*(\[\d+\])*)*")


@dataclass(frozen=True, slots=True)
class ToolMapping:
    """A canonical tool's name and argument targets in the implementation (identity by default)."""

    name: str
    args: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)

    def target(self, argument: str) -> str:
        return self.args.get(argument, argument)


@dataclass(frozen=True, slots=True)
class ErrorPattern:
    code: str
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class Profile:
    spec: str | None = None
    name: str | None = None
    version: str | None = None
    absolute_paths: bool = False
    call_timeout_ms: int | None = None
    reuse: str | None = None
    limits: Limits = DEFAULT_LIMITS
    capabilities: dict[str, bool] = field(default_factory=dict)
    tools: dict[str, ToolMapping] = field(default_factory=dict)
    error_codes: dict[str, str] = field(default_factory=dict)
    error_patterns: tuple[ErrorPattern, ...] = ()
    expected_failures: dict[str, str] = field(default_factory=dict)
    path: Path | None = None

    def tool(self, canonical: str) -> ToolMapping:
        return self.tools.get(canonical) or ToolMapping(name=canonical)


def load_profile(path: str | Path) -> Profile:
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except OSError as error:
        raise ProfileError(f"cannot read profile {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"profile {path} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"profile {path} is not valid TOML: {error}") from None
    return parse_profile(data, path)


def parse_profile(data: dict[str, Any], path: Path | None = None) -> Profile:
    where = str(path) if path is not None else "profile"

    def fail(message: str) -> ProfileError:
        return ProfileError(f"{where}: {message}")

    _only(data, _TOP_LEVEL, "top level", fail)
    impl = _table(data, "implementation", fail)
    _only(impl, _IMPLEMENTATION_KEYS, "[implementation]", fail)
    spec = _optional(impl, "spec", str, "[implementation]", fail)
    if spec is not None and not spec.strip():
        raise fail("[implementation].spec is empty")
    timeout = _optional(impl, "call_timeout_ms", int, "[implementation]", fail)
    if timeout is not None and timeout <= 0:
        raise fail(f"[implementation].call_timeout_ms must be > 0, got {timeout}")
    absolute = _optional(impl, "absolute_paths", bool, "[implementation]", fail)
    reuse = _optional(impl, "reuse", str, "[implementation]", fail)

    limits_table = _table(data, "limits", fail)
    for key, value in limits_table.items():
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise fail(f"[limits].{key} must be a positive integer, got {value!r}")
    try:
        limits = DEFAULT_LIMITS.with_overrides(limits_table)
    except ValueError as error:
        raise fail(f"[limits]: {error}") from None

    capabilities = _table(data, "capabilities", fail)
    for key, value in capabilities.items():
        if key not in CAPABILITIES:
            raise fail(f"[capabilities]: unknown capability {key!r}; known: "
                       + ", ".join(sorted(CAPABILITIES)))
        if not isinstance(value, bool):
            raise fail(f"[capabilities].{key} must be true or false, got {value!r}")

    if reuse is not None:
        _check_reuse(reuse, capabilities, fail)

    tools = {name: _tool(name, spec_, fail) for name, spec_ in _table(data, "tools", fail).items()}

    error_codes = _table(data, "error_codes", fail)
    for theirs, ours in error_codes.items():
        if ours not in ERROR_CODES:
            raise fail(f"[error_codes].{theirs}: {ours!r} is not a contract error code")

    patterns = data.get("error_patterns", [])
    if not isinstance(patterns, list):
        raise fail("error_patterns must be an array of tables ([[error_patterns]])")
    compiled = tuple(_pattern(index, entry, fail) for index, entry in enumerate(patterns))

    expected = _table(data, "expected_failures", fail)
    for key, reason in expected.items():
        clause_id = key.split("::", 1)[0]
        if clause_id not in CLAUSES and clause_id not in CATEGORIES:
            raise fail(f"[expected_failures]: unknown clause id {clause_id!r}")
        if not isinstance(reason, str) or not reason.strip():
            raise fail(f"[expected_failures].{key!r} needs a reason (a non-empty string)")

    return Profile(
        spec=spec,
        name=_optional(impl, "name", str, "[implementation]", fail),
        version=_optional(impl, "version", str, "[implementation]", fail),
        absolute_paths=bool(absolute),
        call_timeout_ms=timeout,
        reuse=reuse,
        limits=limits,
        capabilities=dict(capabilities),
        tools=tools,
        error_codes=dict(error_codes),
        error_patterns=compiled,
        expected_failures=dict(expected),
        path=path,
    )


def _check_reuse(reuse: str, capabilities: dict[str, Any], fail: Any) -> None:
    if reuse not in REUSE_MODES:
        raise fail(f"[implementation].reuse must be one of {', '.join(REUSE_MODES)}, "
                   f"got {reuse!r}")
    kept = [name for name in _SESSION_FEATURES if capabilities.get(name) is not False]
    if kept:
        raise fail(f"[implementation].reuse = {reuse!r} keeps one session across tests, so "
                   f"{' and '.join(kept)} cannot be judged; set them false under [capabilities] "
                   "(a server that keeps no session state) or drop reuse")


def _only(table: dict[str, Any], allowed: set[str], where: str, fail: Any) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise fail(f"unknown key(s) {', '.join(map(repr, unknown))} in {where}; "
                   f"allowed: {', '.join(sorted(allowed))}")


def _table(data: dict[str, Any], key: str, fail: Any) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise fail(f"[{key}] must be a table")
    return value


def _optional(table: dict[str, Any], key: str, kind: type, where: str, fail: Any) -> Any:
    value = table.get(key)
    wrong_type = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
    if value is not None and wrong_type:
        raise fail(f"{where}.{key} must be a {kind.__name__}, got {value!r}")
    return value


def _tool(canonical: str, entry: Any, fail: Any) -> ToolMapping:
    where = f"[tools.{canonical}]"
    if canonical not in CANONICAL_TOOLS:
        raise fail(f"{where}: {canonical!r} is not a canonical tool; known: "
                   + ", ".join(CANONICAL_TOOLS))
    if not isinstance(entry, dict):
        raise fail(f"{where} must be a table")
    _only(entry, _TOOL_KEYS, where, fail)
    name = entry.get("name", canonical)
    if not isinstance(name, str) or not name:
        raise fail(f"{where}.name must be a non-empty string")
    args = entry.get("args", {})
    defaults = entry.get("defaults", {})
    if not isinstance(args, dict) or not isinstance(defaults, dict):
        raise fail(f"{where}: args and defaults must be tables")
    known = CANONICAL_TOOLS[canonical].arguments
    for argument, target in args.items():
        if argument not in known:
            raise fail(f"{where}.args: {argument!r} is not an argument of {canonical}; "
                       f"known: {', '.join(known)}")
        if not isinstance(target, str) or not _TARGET.fullmatch(target):
            raise fail(f"{where}.args.{argument}: {target!r} is not a target like "
                       "`name`, `name.sub` or `edits[0].oldText`")
    return ToolMapping(name=name, args=dict(args), defaults=dict(defaults))


def _pattern(index: int, entry: Any, fail: Any) -> ErrorPattern:
    where = f"[[error_patterns]] #{index + 1}"
    if not isinstance(entry, dict):
        raise fail(f"{where} must be a table")
    _only(entry, {"code", "pattern"}, where, fail)
    code, pattern = entry.get("code"), entry.get("pattern")
    if code not in ERROR_CODES:
        raise fail(f"{where}: code {code!r} is not a contract error code")
    if not isinstance(pattern, str) or not pattern:
        raise fail(f"{where}: pattern must be a non-empty string")
    try:
        return ErrorPattern(code=code, pattern=re.compile(pattern))
    except re.error as error:
        raise fail(f"{where}: {pattern!r} is not a valid regular expression: {error}") from None
