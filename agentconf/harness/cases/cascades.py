"""The cascades `agentconf cases check` refuses: a case of one clause that also judges another
clause's subject, so one departure would fail both (the one-check-one-clause rule).

- Whether grep shows the whole matched line is GREP-01's subject: a grep case of any other
  clause expects the file's path or the match itself, never more of the matched line (an
  implementation that shows only the match failed GREP-03, GREP-04 and SYMLINK-07 too).
- Which lines a window shows is READ's subject (READ-06): a case of another category that reads
  with start_line/end_line judges whether the call succeeds, not the lines it shows (VALIDATE-08
  failed for a window one line off).
- A bare lowercase word that must not appear, and is no file's content (a guess at the
  implementation's own words, not a leak check), trips on a JSON key that starts with it
  (`ripgrep` in `"ripgrep_enhanced": true`): end it with a space or say more of the text.
"""

import re
from collections.abc import Iterator
from typing import Any

Finding = tuple[str, str]  # (JSON pointer below the case, message)

_BARE_WORD = re.compile(r"[a-z]+")


def cascade_findings(case: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]
                     ) -> Iterator[Finding]:
    """`calls`: (pointer, call) of every tool call; the case-level `expect` is the last one's."""
    lines = [line for text in _tree_texts(case.get("tree", {})) for line in text.splitlines()]
    for index, (field, call) in enumerate(calls):
        expect, where = call.get("expect"), f"{field}/expect"
        if expect is None and index == len(calls) - 1:
            expect, where = case.get("expect"), "/expect"
        if not isinstance(expect, dict):
            continue
        yield from _grep_lines(case, call, expect, where, lines)
        yield from _window_lines(case, call, expect, where)
        for n, text in enumerate(expect.get("data_not_contains", [])):
            if _BARE_WORD.fullmatch(text) and not any(text in line for line in lines):
                yield (f"{where}/data_not_contains/{n}",
                       f"{text!r} is a bare word: it trips on a JSON key starting with it "
                       f"({text}_...); end it with a space or say more of the text")


def _grep_lines(case: dict[str, Any], call: dict[str, Any], expect: dict[str, Any],
                where: str, lines: list[str]) -> Iterator[Finding]:
    pattern = (call.get("arguments") or {}).get("pattern") if call.get("tool") == "grep" \
        else None
    if "GREP-01" in case["clauses"] or not isinstance(pattern, str):
        return
    try:
        compiled = re.compile(pattern)
    except re.error:
        return
    for n, text in enumerate(expect.get("data_contains", [])):
        match = compiled.search(text)
        if match and match.group(0) != text and any(text in line for line in lines):
            yield (f"{where}/data_contains/{n}",
                   f"{text!r} is more of a matched line than the match {match.group(0)!r}: "
                   "whether grep shows the whole line is GREP-01's; expect the file's path "
                   "or the match")


def _window_lines(case: dict[str, Any], call: dict[str, Any], expect: dict[str, Any],
                  where: str) -> Iterator[Finding]:
    arguments = call.get("arguments") or {}
    windowed = call.get("tool") == "read_file" and isinstance(arguments, dict) and (
        "start_line" in arguments or "end_line" in arguments)
    if not windowed or all(clause.startswith("READ-") for clause in case["clauses"]):
        return
    for key in ("data_contains", "data_not_contains"):
        if expect.get(key):
            yield (f"{where}/{key}",
                   "which lines a window shows is READ-06's; a case of another clause judges "
                   "whether the windowed read succeeds, not the lines it shows")


def _tree_texts(tree: dict[str, Any]) -> Iterator[str]:
    for entry in tree.values():
        if isinstance(entry, str):
            yield entry
        elif isinstance(entry, dict) and isinstance(entry.get("text"), str):
            yield entry["text"]
