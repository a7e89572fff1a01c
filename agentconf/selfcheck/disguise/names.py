"""The names a disguise gives the reference's tools and arguments, both ways: canonical -> shown
(for the listing and the messages) and shown -> canonical (for the calls)."""

import re
from functools import cached_property
from typing import Any

from .dimensions import OPERATIONS, Case, Disguise

_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def cased(name: str, case: Case | None) -> str:
    """`read_file` in a case style: readFile, read-file, ReadFile (None: as it is)."""
    if case is None:
        return name
    words = [word.lower() for word in _WORD.findall(name)]
    if case == "kebab":
        return "-".join(words)
    capitalised = "".join(word[:1].upper() + word[1:] for word in words)
    return capitalised[:1].lower() + capitalised[1:] if case == "camel" else capitalised


class Names:
    def __init__(self, disguise: Disguise) -> None:
        self.disguise = disguise
        self._tools = {alias.tool: alias.name for alias in disguise.tool_names}
        self._arguments = {(alias.tool, alias.argument): alias.name
                           for alias in disguise.argument_names}
        self._listed: list[str] = []  # the reference's tools as listed now (set by `listed`)
        self.reference_arguments: dict[str, list[str]] = {}  # tool -> its canonical arguments

    def tool(self, canonical: str) -> str:
        selector = self.disguise.selector
        own = selector.name if selector and canonical in selector.tools else None
        name = (self.disguise.tool_prefix or "") + (own or self._tools.get(canonical, canonical))
        return cased(name, self.disguise.tool_case)

    def selected(self, shown: str, arguments: Any) -> str | None:
        """The tool a call of the selector tool picks by its operation (None: another tool, or
        no operation it has)."""
        selector = self.disguise.selector
        if selector is None or not isinstance(arguments, dict) or (
                shown != self.tool(selector.tools[0])):
            return None
        chosen = arguments.get(self.selector_argument)
        return next((tool for tool in selector.tools if OPERATIONS[tool] == chosen), None)

    @cached_property
    def selector_argument(self) -> str:
        selector = self.disguise.selector
        return "" if selector is None else cased(selector.argument, self.disguise.argument_case)

    def canonical_tool(self, shown: str) -> str | None:
        return next((name for name in self._listed if self.tool(name) == shown), None)

    def argument(self, tool: str, argument: str) -> str:
        """A top-level argument's shown name (old_text and new_text of a nested edit aside)."""
        return cased(self._arguments.get((tool, argument), argument), self.disguise.argument_case)

    def canonical_argument(self, tool: str, shown: str, arguments: list[str]) -> str | None:
        return next((name for name in arguments if self.argument(tool, name) == shown), None)

    @cached_property
    def nested(self) -> tuple[str, str, str] | None:
        """(list, old, new) of a nested edit, as shown."""
        nested = self.disguise.nested_edits
        if nested is None:
            return None
        case = self.disguise.argument_case
        return cased(nested.field, case), cased(nested.old, case), cased(nested.new, case)

    @cached_property
    def extra(self) -> str | None:
        extra = self.disguise.extra_argument
        return None if extra is None else cased(extra.name, self.disguise.argument_case)

    def shown_words(self, tool: str | None, arguments: list[str]) -> dict[str, str]:
        """canonical -> shown for what a text may name: every tool, and `tool`'s arguments (a
        nested edit's old_text and new_text as the names of its items)."""
        shown = {name: self.tool(name) for name in self._listed}
        for argument in arguments if tool is not None else ():
            shown[argument] = self.argument(tool or "", argument)
        if tool == "edit_file" and self.nested is not None:
            shown.update(old_text=self.nested[1], new_text=self.nested[2])
        return {canonical: name for canonical, name in shown.items() if canonical != name}

    def rename_text(self, text: str, tool: str | None, arguments: list[str]) -> str:
        """`text` (a description or the reference's message) with the canonical tool names and
        `tool`'s argument names as this disguise shows them: a tool's name where it stands as a
        word (not `bash` in `/bin/bash`), an argument's where it is quoted in backticks or is
        unmistakable (`old_text`: a name with an underscore)."""
        shown = self.shown_words(tool, arguments)
        if not shown:
            return text

        def swap(found: re.Match[str]) -> str:
            word = found.group("word")
            name = shown.get(word)
            if name is None or (found.group("tick") == "" and word in arguments
                                and "_" not in word):
                return found.group(0)
            return f"{found.group('tick')}{name}{found.group('tick')}"

        words = "|".join(re.escape(word) for word in sorted(shown, key=len, reverse=True))
        pattern = rf"(?P<tick>`?)(?<![\w/.-])(?P<word>{words})(?![\w-])(?P=tick)"
        return re.sub(pattern, swap, text)

    def listed(self, tools: list[dict[str, Any]]) -> None:
        """Remembers the reference's tools as listed now (tool_search reveals more) and their
        arguments."""
        self._listed = [str(tool["name"]) for tool in tools]
        self.reference_arguments = {
            str(tool["name"]): list((tool.get("input_schema") or {}).get("properties") or {})
            for tool in tools}
