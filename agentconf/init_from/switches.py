"""Boolean and mode switches a draft sets so that a call means what the contract means: edit
for real, overwrite, a regex pattern, create the folders, list hidden entries too."""

from __future__ import annotations

import re
from typing import Any

from agentconf.init_from.match import ToolGuess, words
from agentconf.init_from.words import ASKS

# A lister's switch for entries whose names start with a dot: shown (`include_hidden`) or
# hidden (`skip_dotfiles`). LIST-01 lists every file; the switch is the tool's own way to.
_HIDDEN = frozenset({"hidden", "dotfiles", "dotfile", "dot", "dotted"})
_HIDING = frozenset({"exclude", "skip", "ignore", "hide", "no", "without", "omit"})
_MENTIONS_HIDDEN = re.compile(r"(?i)\bhidden\b|\bdot ?files?\b|starting with (?:a )?['\"`]?\.")


def hidden_switch(properties: dict[str, dict[str, Any]]) -> tuple[str, bool] | None:
    """The lister's switch and the value that lists hidden entries too; None where it lists
    them already by default (or has no such switch)."""
    for target, prop in properties.items():
        if "." in target or prop.get("type") != "boolean":
            continue
        named = set(words(target))
        if not (named & _HIDDEN or (named == {"all"} and _MENTIONS_HIDDEN.search(
                str(prop.get("description") or "")))):
            continue
        value = not named & _HIDING
        if prop.get("default") is not value:
            return target, value
    return None


def _flag(properties: dict[str, dict[str, Any]], names: tuple[str, ...]) -> str | None:
    for target, prop in properties.items():
        if "." not in target and prop.get("type") == "boolean" and "_".join(
                words(target)) in names:
            return target
    return None



def switches(guess: ToolGuess, tool: dict[str, Any], properties: dict[str, dict[str, Any]],
              found: dict[str, Any], why: list[str]) -> None:
    """Boolean switches set for the contract's meaning: edit for real, overwrite, regex..."""
    if guess.canonical == "edit_file" and (flag := _flag(properties, ("dry_run",))):
        found[flag] = False
        why.append(f"{flag} = false: edit for real, not a dry run")
    # A flag named for overwriting, off by default, refuses each write over a file; force: more.
    if guess.canonical == "write_file" and (
            flag := _flag(properties, ("overwrite", "force", "allow_overwrite", "override"))
    ) and (ASKS.search(f"{properties[flag].get('description', '')} {tool.get('description')}")
           or ("overwrite" in words(flag) and properties[flag].get("default") is False)):
        found[flag] = True
        why.append(f"{flag} = true: a write replaces an existing file without asking "
                   f"({said(properties[flag], tool)})")
    if guess.canonical == "grep" and (flag := _flag(properties, ("is_regex", "regex",
                                                               "use_regex"))):
        found[flag] = True
        why.append(f"{flag} = true: the contract's pattern is a regular expression "
                   f"({said(properties[flag], tool)})")
    if guess.canonical == "delete_file" and (flag := _flag(properties, ("force", "confirm"))):
        found[flag] = True
        why.append(f"{flag} = true: it deletes without asking "
                   f"({said(properties[flag], tool)})")
    if guess.canonical == "write_file" and (flag := _flag(properties, (
            "create_dirs", "create_parents", "parents", "make_parents", "create_directories",
            "mkdirs", "mkdir"))) and properties[flag].get("default") is not True:
        found[flag] = True
        why.append(f"{flag} = true: a write creates the folders it needs "
                   f"({said(properties[flag], tool)})")
    if guess.canonical == "list_files" and (hidden := hidden_switch(properties)):
        found[hidden[0]] = hidden[1]
        why.append(f"{hidden[0]} = {str(hidden[1]).lower()}: a listing names hidden entries "
                   f"too ({said(properties[hidden[0]], tool)})")
    if guess.canonical == "write_file" and (mode := _rewrite_mode(properties)):
        found[mode[0]] = mode[1]
        why.append(f"{mode[0]} = {mode[1]!r}: a write replaces the file, never appends")


def _rewrite_mode(properties: dict[str, dict[str, Any]]) -> tuple[str, str] | None:
    """Desktop Commander's write_file `mode` enum ["rewrite", "append"]: rewrite."""
    for target, prop in properties.items():
        options = prop.get("enum")
        if "." not in target and isinstance(options, list):
            chosen = [o for o in ("rewrite", "overwrite") if o in options]
            if chosen and "append" in options:
                return target, chosen[0]
    return None


def said(prop: dict[str, Any], tool: dict[str, Any]) -> str:
    text = str(prop.get("description") or tool.get("description") or "")
    return f"its description: {text[:100]!r}" if text else "its schema"
