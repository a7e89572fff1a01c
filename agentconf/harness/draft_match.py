"""`agentconf init --from`: which advertised tool is which canonical tool, and where each canonical
argument goes, guessed from names, synonyms, JSON-schema types and descriptions. Every guess
keeps its evidence, for the comment above it in the drafted profile.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from agentconf.contract import CANONICAL_TOOLS

TOOL_SYNONYMS: dict[str, tuple[str, ...]] = {
    "read_file": ("read_file", "read", "read_text_file", "view", "cat", "get_file_contents",
                  "open_file", "read_text"),
    "write_file": ("write_file", "write", "create_file", "write_text_file", "save_file"),
    "edit_file": ("edit_file", "edit", "edit_block", "str_replace", "replace_in_file",
                  "edit_text_file_contents", "apply_edit", "modify_file"),
    "list_files": ("list_files", "glob", "list_directory", "ls", "list_dir", "search_files",
                   "find_files"),
    "grep": ("grep", "search_content", "ripgrep", "rg", "find_in_files", "search_code",
             "start_search", "search_text"),
    "bash": ("bash", "shell", "execute", "execute_command", "run_command", "exec", "terminal",
             "start_process", "run_shell", "execute_bash", "run_terminal_cmd"),
    "tool_search": ("tool_search", "search_tools", "find_tools"),
}
# Words in a description that speak for (or against) a canonical tool.
DESCRIPTION_WORDS: dict[str, tuple[str, ...]] = {
    "grep": ("content", "regex", "regular expression", "ripgrep", "within files", "lines"),
    "list_files": ("glob", "list", "directory", "directories"),
    "bash": ("command", "shell", "terminal"),
    "edit_file": ("replace", "edit"),
}
ARGUMENT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "path": ("path", "file_path", "filepath", "file", "filename", "target_file", "absolute_path",
             "dir_path", "directory"),
    "start_line": ("start_line", "offset", "line_start", "from_line", "start"),
    "end_line": ("end_line", "limit", "line_end", "to_line", "end", "length"),
    "content": ("content", "contents", "text", "file_text", "data"),
    "old_text": ("old_text", "old_string", "oldtext", "old_str", "search", "old"),
    "new_text": ("new_text", "new_string", "newtext", "new_str", "replacement", "new"),
    "replace_all": ("replace_all", "replaceall", "expected_replacements", "all"),
    "pattern": ("pattern", "glob", "regex", "search_pattern", "query"),
    "include": ("include", "file_pattern", "include_pattern", "glob", "filepattern"),
    "command": ("command", "cmd", "script", "command_line"),
    "timeout_ms": ("timeout_ms", "timeout", "timeout_seconds", "timeout_s"),
    "query": ("query", "q", "search"),
}
ARGUMENT_TYPES: dict[str, tuple[str, ...]] = {
    "start_line": ("integer", "number"), "end_line": ("integer", "number"),
    "replace_all": ("boolean", "integer", "number"), "timeout_ms": ("integer", "number"),
}
_MIN_SCORE = 0.75


@dataclass
class ToolGuess:
    canonical: str
    name: str
    score: float
    args: dict[str, str] = field(default_factory=dict)  # canonical -> target
    evidence: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # canonical arguments with no property
    keys: dict[str, Any] = field(default_factory=dict)  # window, offset_base, units, ...


def words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [word for word in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if word]


def _norm(name: str) -> str:
    return "_".join(words(name))


def flat_properties(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """target -> property schema: top-level properties, `obj.sub`, and `list[0].sub` for a list
    of objects (server-filesystem's edits[0].oldText)."""
    found: dict[str, dict[str, Any]] = {}
    properties = schema.get("properties") if isinstance(schema, dict) else None
    for name, prop in (properties or {}).items():
        if not isinstance(prop, dict):
            continue
        found[name] = prop
        inner = prop.get("properties")
        if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
            inner, name = prop["items"].get("properties"), f"{name}[0]"
        for sub, sub_prop in (inner or {}).items() if isinstance(inner, dict) else ():
            if isinstance(sub_prop, dict):
                found[f"{name}.{sub}"] = sub_prop
    return found


def _types(prop: dict[str, Any]) -> set[str]:
    kind = prop.get("type")
    if isinstance(kind, list):
        return set(kind)
    if kind is None and isinstance(prop.get("anyOf"), list):
        return {str(option["type"]) for option in prop["anyOf"]
                if isinstance(option, dict) and isinstance(option.get("type"), str)}
    return {kind} if isinstance(kind, str) else set()


def match_argument(argument: str, properties: dict[str, dict[str, Any]],
                   taken: set[str]) -> str | None:
    wanted = ARGUMENT_TYPES.get(argument, ("string",))
    for synonym in ARGUMENT_SYNONYMS.get(argument, (argument,)):
        for target, prop in properties.items():
            leaf = target.rsplit(".", 1)[-1]
            if target in taken or _norm(leaf) != synonym:
                continue
            types = _types(prop)
            if types and not types & set(wanted):
                continue
            return target
    return None


def _name_score(canonical: str, tool: dict[str, Any]) -> float:
    name = _norm(str(tool.get("name", "")))
    synonyms = TOOL_SYNONYMS.get(canonical, (canonical,))
    if name in synonyms:
        return 1.0 - 0.02 * synonyms.index(name)
    overlap = set(words(name)) & {w for s in synonyms for w in words(s)}
    return 0.4 * len(overlap) / max(1, len(words(name)))


def score_tool(canonical: str, tool: dict[str, Any]) -> ToolGuess:
    schema = tool.get("input_schema", tool.get("inputSchema")) or {}
    properties = flat_properties(schema)
    spec = CANONICAL_TOOLS[canonical]
    guess = ToolGuess(canonical, str(tool["name"]), _name_score(canonical, tool))
    taken: set[str] = set()
    for argument in spec.arguments:
        target = match_argument(argument, properties, taken)
        if target is None:
            guess.missing.append(argument)
            continue
        taken.add(target)
        guess.args[argument] = target
    required = [a for a in spec.required if a in guess.args]
    if len(required) < len(spec.required):
        guess.score = 0.0  # it cannot be called the canonical way
        return guess
    guess.score += 0.5 * len(guess.args) / max(1, len(spec.arguments))
    description = str(tool.get("description", "")).lower()
    guess.score += 0.1 * sum(word in description for word in DESCRIPTION_WORDS.get(canonical, ()))
    if "deprecated" in description:
        guess.score -= 0.5
    return guess


def match_tools(listing: list[dict[str, Any]]) -> dict[str, ToolGuess]:
    """The best advertised tool for each canonical one, no tool used twice (best scores first)."""
    candidates = sorted(
        (score_tool(canonical, tool) for canonical in CANONICAL_TOOLS for tool in listing
         if isinstance(tool, dict) and isinstance(tool.get("name"), str)),
        key=lambda guess: -guess.score,
    )
    chosen: dict[str, ToolGuess] = {}
    used: set[str] = set()
    for guess in candidates:
        if guess.score < _MIN_SCORE or guess.canonical in chosen or guess.name in used:
            continue
        chosen[guess.canonical] = guess
        used.add(guess.name)
    for guess in chosen.values():
        _shape_keys(guess, next(t for t in listing if t.get("name") == guess.name))
    return chosen


def _shape_keys(guess: ToolGuess, tool: dict[str, Any]) -> None:
    """window / offset_base / replace_all / units, from argument names and descriptions."""
    schema = tool.get("input_schema", tool.get("inputSchema")) or {}
    properties = flat_properties(schema)
    description = str(tool.get("description", "")).lower()
    args = guess.args
    if args.get("start_line") == "offset" or args.get("end_line") in ("limit", "length"):
        guess.keys["window"] = "offset_limit"
        text = (description + " " + str(properties.get(args.get("start_line", ""), {}))).lower()
        base = 0 if re.search(r"0-based|zero-based|0-indexed", text) else 1
        guess.keys["offset_base"] = base
        guess.evidence.append(f"its line window is offset/limit (offset_base {base}: "
                              f"{'the schema says 0-based' if base == 0 else 'TODO: check'})")
    if args.get("replace_all") == "expected_replacements":
        guess.keys["replace_all"] = "expected_replacements"
    timeout = args.get("timeout_ms")
    if timeout is not None:
        text = (timeout + " " + str(properties.get(timeout, {}).get("description", ""))).lower()
        if re.search(r"millisecond|\bms\b|_ms\b", text):
            guess.evidence.append(f"{timeout} is in milliseconds (its description says so)")
        elif re.search(r"second|_s\b", text):
            guess.keys["units"] = {"timeout_ms": "s"}
            guess.evidence.append(f"{timeout} is in seconds (its description says so)")
        else:
            guess.evidence.append(f"TODO: is {timeout} in milliseconds? (assumed; set "
                                  "units = {{ timeout_ms = \"s\" }} if seconds)")


def demands_absolute_paths(listing: list[dict[str, Any]], chosen: dict[str, ToolGuess]) -> bool:
    for guess in chosen.values():
        tool = next(t for t in listing if t.get("name") == guess.name)
        text = str(tool.get("description", "")) + " " + str(tool.get("input_schema", ""))
        if re.search(r"must be (an )?absolute|absolute path", text, re.IGNORECASE):
            return True
    return False
