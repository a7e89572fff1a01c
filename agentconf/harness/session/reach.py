"""What the kit may call, and with which paths: the safety rules every request passes first.

Two rules, enforced in one place (`Client._finish`) so that no suite can break them by mistake:

- **Nothing outside the contract runs.** A tool the implementation advertises that is neither
  mapped onto a canonical tool nor declared under `[tools.extra]` is never called, not even with
  arguments its own schema rejects (many tools do not validate), unless the profile opts in with
  `[implementation] call_other_tools = true`. A name nobody advertises may be called: that is
  how TOOL_NOT_FOUND is judged.
- **Destructive tools stay in the sandbox.** A call of a tool that removes or overwrites
  (move_file, copy_file, delete_file, and a declared extra tool unless `destructive = false` or
  its destructiveHint says false) is sent only when every string in its arguments, read as a path
  every way an implementation might read it (relative to the root, absolute, after `@`, `file://`,
  percent-decoding, backslashes as slashes, NFKC), resolves inside the kit's own sandbox, links
  followed; `~` is refused outright. So whatever such a tool does with a path, it acts on the
  sandbox's canaries at worst, never on the user's files.

A request that breaks a rule is not sent: `UnsafeCall`, the kit's own bug (harness-error).
"""

import os
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from agentconf.contract import CANONICAL_TOOLS, DESTRUCTIVE_TOOLS, declared_hint
from agentconf.contract.tools import DESTRUCTIVE_HINT
from agentconf.harness.profile.model import Profile
from agentconf.harness.verdicts.errors import ExcludedToolCall


class UnsafeCall(ExcludedToolCall):
    """A suite tried a call the safety rules forbid: never sent (outcome `harness-error`)."""


def mapped_names(profile: Profile) -> set[str]:
    """The implementation's names of every tool the kit may call with arbitrary arguments."""
    return {profile.tool(name).name for name in CANONICAL_TOOLS} | set(profile.path_tools)


def outside_contract(profile: Profile, name: str, advertised: Mapping[str, Any]) -> bool:
    """An advertised tool the contract does not name and the profile does not declare."""
    return (name in advertised and name not in mapped_names(profile)
            and not profile.call_other_tools)


def is_destructive(profile: Profile, name: str, advertised: Mapping[str, Any],
                   sent: Any = None) -> bool:
    mapped = [tool for tool in CANONICAL_TOOLS if profile.tool(tool).name == name]
    if len(mapped) > 1:
        # One tool for several canonical ones, told apart by an operation argument (file_ops'
        # action write or delete): the call is the one whose operation it carries; none of them
        # (a raw call, another operation), destructive if any of them is.
        chosen = [tool for tool in mapped if _carries(profile, tool, sent)] or mapped
        return any(tool in DESTRUCTIVE_TOOLS for tool in chosen)
    if mapped and mapped[0] in DESTRUCTIVE_TOOLS:
        return True
    declared = profile.path_tools.get(name)
    if declared is None:
        return False
    if declared.destructive is not None:
        return declared.destructive
    listed = advertised.get(name)
    hint = declared_hint(listed, DESTRUCTIVE_HINT) if isinstance(listed, Mapping) else None
    return hint is not False  # fail safe: undeclared means destructive


def _carries(profile: Profile, tool: str, sent: Any) -> bool:
    """`sent` carries every default of `tool` that no canonical argument fills: its operation."""
    mapping = profile.tool(tool)
    fixed = {key: value for key, value in mapping.defaults.items()
             if key not in mapping.args.values()}
    return bool(fixed) and isinstance(sent, Mapping) and all(
        sent.get(key) == value for key, value in fixed.items())


def strings_in(value: Any) -> Iterator[str]:
    """Every string anywhere in a JSON value (dict keys aside)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def readings(text: str) -> set[str]:
    """The ways an implementation might read `text` as a path."""
    forms = {text, unquote(text), unicodedata.normalize("NFKC", text)}
    forms |= {form.replace("\\", "/") for form in forms}
    forms |= {form.removeprefix("file://") for form in forms}
    forms |= {form.lstrip("@") for form in forms}
    return forms


def _within(path: str, top: str) -> bool:
    """Strictly below `top`: a destructive tool given the sandbox folder itself would take the
    canaries and the root with it."""
    return path.startswith(top.rstrip("/") + "/")


def resolves_inside(text: str, root: Path, sandbox: Path) -> bool:
    """True when every reading of `text` lands below `sandbox`, lexically and links followed."""
    top = os.path.realpath(sandbox)
    for form in readings(text):
        if "\x00" in form or form.startswith("~"):
            return False
        joined = os.path.join(root, form)  # an absolute form replaces the root
        if not (_within(os.path.normpath(joined), top)
                and _within(os.path.realpath(joined), top)):
            return False
    return True


def escaping_strings(arguments: Any, root: Path, sandbox: Path) -> list[str]:
    return [text for text in strings_in(arguments) if not resolves_inside(text, root, sandbox)]


def unsafe(profile: Profile, advertised: Mapping[str, Any], name: str, sent: Any, root: Path,
           sandbox: Path) -> str | None:
    """Why this request must not be sent, or None when it may."""
    if outside_contract(profile, name, advertised):
        return (f"the kit tried to call {name}, a tool outside the contract the profile does not "
                "declare ([tools.extra]) nor allow ([implementation].call_other_tools)")
    escaping = escaping_strings(sent, root, sandbox) if is_destructive(
        profile, name, advertised, sent) else []
    if escaping:
        return (f"the kit tried to send {name}, a destructive tool, paths that may resolve "
                f"outside its sandbox: {escaping[:3]}")
    return None
