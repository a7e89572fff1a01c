"""`agentconf init --from`: which advertised tool is which canonical tool, and where each canonical
argument goes, inferred from what a tool and its arguments do: names (with a family's prefixes
and suffixes: `fast_read_file`, `mcp_read`), argument synonyms, JSON-schema types, required
lists and descriptions (a `pattern` described as a file glob is not grep's). An exact canonical
name always wins. Every guess keeps its evidence, for the comment above it in the draft.

Pure: nothing here starts or calls anything (tests/drafting holds it to the drafting corpus).
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from agentconf.contract import CANONICAL_TOOLS, declared_hint
from agentconf.contract.tools import DESTRUCTIVE_HINT
from agentconf.harness.session.argument_values import types_of
from agentconf.init_from.mode_argument import for_other_mode, mode_for, mode_switch
from agentconf.init_from.schemas import flat_properties, required_of, schema_of
from agentconf.init_from.words import (
    ARGUMENT_LISTS,
    ARGUMENT_SYNONYMS,
    ARGUMENT_TYPES,
    CHANGING_VERBS,
    DESCRIPTION_WORDS,
    EDIT_TEXTS,
    EDIT_TOOL,
    INCLUDE_NAMES,
    LOOKING_TOOLS,
    NOT_THIS_TOOL,
    PATH_TOOLS,
    PROGRAM_NAMES,
    TOOL_SYNONYMS,
    describes_glob,
    describes_names,
    describes_regex,
)

_MIN_SCORE = 0.75
_NOTHING = re.compile(r"(?!)")  # matches no text
_EXACT = 3.0  # an advertised tool named exactly as the canonical one
_ON_A_FILE = ("read_file", "write_file", "edit_file", "delete_file")


@dataclass
class ToolGuess:
    canonical: str
    name: str
    score: float
    args: dict[str, str] = field(default_factory=dict)  # canonical -> target
    evidence: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # canonical arguments with no property
    keys: dict[str, Any] = field(default_factory=dict)  # window, offset_base, defaults, ...
    todo: list[str] = field(default_factory=list)  # keys it needs that the kit cannot write yet
    mode: tuple[str, str] | tuple[()] = ()  # (argument, option) of a tool with several modes
    limits: dict[str, int] = field(default_factory=dict)  # [limits] its schema states


def words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [word for word in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if word]


def _norm(name: str) -> str:
    return "_".join(words(name))


def content_switch(properties: dict[str, dict[str, Any]]) -> tuple[str, Any] | None:
    """A search tool's switch from names to contents: a boolean `content_search` (true), or an
    enum like Desktop Commander's searchType with a "content" option."""
    for target, prop in properties.items():
        if "." in target:
            continue
        if "boolean" in types_of(prop) and {"content", "contents"} & set(words(target)):
            return target, True
        options = prop.get("enum")
        if isinstance(options, list) and "content" in options:
            return target, "content"
    return None


def _fits(canonical: str, argument: str, prop: dict[str, Any], leaf: str, switch: bool,
          tool_text: str) -> bool:
    """What the property's description says it does agrees with the canonical argument."""
    text = f"{leaf} {prop.get('description', '')}"
    if canonical == "grep" and argument == "pattern":
        return switch or not (describes_glob(text)
                              or (describes_names(text) and not describes_regex(text)))
    if canonical == "grep" and argument == "include":
        return "_".join(words(leaf)) in INCLUDE_NAMES or describes_names(text)
    if canonical == "list_files" and argument == "pattern":  # a glob, not a substring of names
        return describes_glob(f"{text} {tool_text}")
    if canonical == "exec" and argument == "argv":  # a string taken too: a shell's command line
        return "string" not in types_of(prop)
    return True


def _leaf_name(target: str) -> str:
    """The name a target's last step answers to: `paths[0]`, one item of a list of strings,
    answers to `path`."""
    leaf = target.rsplit(".", 1)[-1]
    if not leaf.endswith("[0]"):
        return _norm(leaf)
    name = _norm(leaf[:-3])
    return name[:-1] if name.endswith("s") else name


def match_argument(canonical: str, argument: str, properties: dict[str, dict[str, Any]],
                   taken: set[str], tool_text: str = "", named: bool = False) -> str | None:
    """The property that is `argument` of the canonical tool: by a known name; else, for a tool
    whose own name already says it is that tool (`named`), by the words of its name or
    description."""
    switch = canonical == "grep" and content_switch(properties) is not None
    wanted = ARGUMENT_TYPES.get(argument, ("string",))
    for synonym in ARGUMENT_SYNONYMS.get(argument, (argument,)):
        for target, prop in properties.items():
            leaf = target.rsplit(".", 1)[-1]
            if target in taken or _leaf_name(target) != synonym:
                continue
            if argument == "command" and target.endswith("]"):  # an argv's item is no command
                continue
            types = types_of(prop)
            if types and not types & set(wanted):
                continue
            if _fits(canonical, argument, prop, leaf, switch, tool_text):
                return target
    # An edit tool's texts go by their descriptions where its name is its own (replace_text)
    if not (named or (canonical == "edit_file" and EDIT_TOOL.search(tool_text))):
        return None
    return _by_words(canonical, argument, properties, taken, wanted, switch, tool_text)


def _by_words(canonical: str, argument: str, properties: dict[str, dict[str, Any]],
              taken: set[str], wanted: tuple[str, ...], switch: bool,
              tool_text: str) -> str | None:
    """No known name: a top-level property whose name holds the word path (`search_path`) or,
    for a listing's pattern, a one-word property its description calls a glob (`filter`,
    `match`), when its type and description agree."""
    for target, prop in properties.items():
        if target in taken or "." in target or "[" in target:
            continue
        types = types_of(prop)
        if types and not types & set(wanted):
            continue
        # Paths are named by what they lead to (search_path, notes_path); a compound holding
        # another argument's word is often a second one (file_pattern beside a pattern).
        named = argument == "path" and "path" in words(target) and len(words(target)) > 1
        globbed = (canonical, argument) == ("list_files", "pattern") and len(
            words(target)) == 1 and describes_glob(str(prop.get("description", "")))
        said = EDIT_TEXTS.get((canonical, argument), _NOTHING)
        edited = said.search(str(prop.get("description", ""))) is not None
        if (named or globbed or edited) and _fits(canonical, argument, prop, target, switch,
                                                  tool_text):
            return target
    return None


def _line_range(guess: "ToolGuess", properties: dict[str, dict[str, Any]]) -> None:
    """OpenHands' `view_range: [start, end]`: a line window as one list of two integers."""
    if "start_line" in guess.args or "end_line" in guess.args:
        return
    for target, prop in properties.items():
        listed = prop.get("items")
        items: dict[str, Any] = listed if isinstance(listed, dict) else {}
        if "." not in target and "range" in words(target) and types_of(items) & {"integer"}:
            guess.args.update(start_line=f"{target}[0]", end_line=f"{target}[1]")
            for argument in ("start_line", "end_line"):
                if argument in guess.missing:
                    guess.missing.remove(argument)
            return


_SHELL_LINE = re.compile(r"(?i)\b(?:shell|bash|sh|zsh) command|\bcommand line")


def program_apart(properties: dict[str, dict[str, Any]], required: list[str]
                  ) -> tuple[str, str] | None:
    """(program, arguments) of a runner that takes the program apart from its arguments (emcp's
    shell_run: `command`, a string, beside `arguments`, a list of strings): its command names a
    program, never a command line. The program is required; its arguments' list may be left out
    for none, unless the program is said to be a shell command (mcp-cli's executeCommand joins
    `command` and `args` into a line for a shell)."""
    def named(among: Iterable[str], words_of: frozenset[str], types: set[str]) -> list[str]:
        return [target for target in among if _norm(target) in words_of
                and target in properties and types <= types_of(properties[target])]
    programs = named(required, PROGRAM_NAMES, {"string"})
    lists = [target for target in named(
                 required if any(_SHELL_LINE.search(str(properties[program].get("description")))
                                 for program in programs) else properties,
                 ARGUMENT_LISTS, {"array"})
             if "string" in types_of(properties[target].get("items") or {})]
    return (programs[0], lists[0]) if len(programs) == len(lists) == 1 else None


def _own_arguments(guess: "ToolGuess", properties: dict[str, dict[str, Any]],
                   required: list[str], taken: set[str]) -> None:
    """A canonical argument some tools take in two parts: read_file's window as one list
    (OpenHands' view_range), exec's argv as a program and its arguments (`program`)."""
    if guess.canonical == "read_file":
        _line_range(guess, properties)
    apart = program_apart(properties, required) if guess.canonical == "exec" else None
    if apart is not None and guess.args.get("argv") == apart[1]:
        guess.keys["program"] = apart[0]
        taken.add(apart[0])
        guess.evidence.append(f"argv's first item goes to {apart[0]}, the rest to {apart[1]}: "
                              "it takes the program apart from its arguments")


def _by_type(guess: "ToolGuess", needed: tuple[str, ...], properties: dict[str, dict[str, Any]],
             required: list[str], taken: set[str]) -> None:
    """A required canonical argument no synonym names, given the one top-level property left
    that takes its type (a `read_file` whose path is `file_paths`, a string or a list of them;
    an `edit` mode's `target`): the tool's exact name or its mode says what it does; the
    self-check proves the argument (premises.py)."""
    for argument in needed:
        if argument in guess.args:
            continue
        wanted = set(ARGUMENT_TYPES.get(argument, ("string",)))
        fits = [target for target, prop in properties.items()
                if "." not in target and "[" not in target and target not in taken
                and types_of(prop) & wanted]
        chosen = [t for t in fits if t in required] or fits
        if len(chosen) == 1:
            guess.args[argument] = chosen[0]
            taken.add(chosen[0])
            if argument in guess.missing:
                guess.missing.remove(argument)
            guess.evidence.append(f"{argument} is {chosen[0]}: the one property left that takes "
                                  "it")


def _veto(canonical: str, tool: dict[str, Any], guess: "ToolGuess",
          properties: dict[str, dict[str, Any]]) -> bool:
    """What the tool's own description says rules it out, whatever its name; and what its name
    or annotations say it changes, for a tool that must change nothing."""
    description = str(tool.get("description", ""))
    required = required_of(schema_of(tool))
    if canonical == "bash" and program_apart(properties, required):
        return True  # its command is a program's name: exec's, not a shell's command line
    if canonical == "exec" and not program_apart(properties, required) and any(
            _SHELL_LINE.search(str(properties[target].get("description"))) for target in required
            if target in properties):  # just-bash-mcp's bash_exec: more argv after a script
        return True  # a shell's command line it requires: bash's, not a program's argv
    if canonical in LOOKING_TOOLS and not guess.mode and (  # a mode says what it does
            CHANGING_VERBS & set(words(guess.name))
            or declared_hint(tool, DESTRUCTIVE_HINT) is True):
        return True
    if canonical == "tool_search":  # it reveals tools: a search of anything else is another
        first = re.split(r"[.;\n]", description, maxsplit=1)[0]  # what it is said to search
        return not ({"tool", "tools"} & set(words(guess.name))
                    or re.search(r"(?i)\btools?\b", first))
    if canonical == "grep" and content_switch(properties) is None:
        # search_files of the official server: "matches partial names", not contents
        return describes_names(description) and not describes_regex(description)
    if canonical == "list_files" and not guess.args:  # `list_background`, `ListAgents`
        return not {"file", "files", "dir", "directory", "directories", "folder", "ls",
                    "glob"} & set(words(guess.name))
    return False


def _contains(inner: list[str], outer: list[str]) -> bool:
    """`inner`'s words in order within `outer` (get_file_contents in get_text_file_contents)."""
    rest = iter(outer)
    return all(word in rest for word in inner)


def _named(canonical: str, name: str) -> bool:
    """The canonical name, a known name of it (`read_text_file`), or one of those behind one
    word every tool of a family may carry (`tool_read_file`, `fs_read_file`)."""
    return name == canonical or _name_score(canonical, name) >= 0.85


def _name_score(canonical: str, name: str) -> float:
    """1.0 for a known name; a known name inside a longer one (`fast_read_file`, `mcp_read`,
    `read_text_file_tool`) a little less for every extra word; a word that names another thing
    (`read_multiple_files`, `read_process_output`) counts against it."""
    if name == canonical:
        return _EXACT
    own = words(name)
    synonyms = TOOL_SYNONYMS.get(canonical, (canonical,))
    best = 0.0
    for rank, synonym in enumerate(synonyms):
        theirs = words(synonym)
        if own == theirs:
            best = max(best, 1.0 - 0.02 * rank)
        elif _contains(theirs, own):
            best = max(best, 0.9 - 0.05 * (len(own) - len(theirs)) - 0.01 * rank)
    if best == 0.0:
        overlap = set(own) & {w for s in synonyms for w in words(s)}
        best = 0.4 * len(overlap) / max(1, len(own))
    if set(own) & set(NOT_THIS_TOOL.get(canonical, ())):
        best -= 0.6
    return best


def score_tool(canonical: str, tool: dict[str, Any]) -> ToolGuess:
    schema = schema_of(tool)
    properties = flat_properties(schema)
    spec = CANONICAL_TOOLS[canonical] if canonical in CANONICAL_TOOLS else PATH_TOOLS[canonical]
    guess = ToolGuess(canonical, str(tool["name"]), _name_score(canonical, str(tool["name"])))
    switch = mode_switch(schema, str(tool.get("description", "")))
    if switch is not None:  # one tool for several canonical ones, by its mode
        mode = mode_for(canonical, switch)
        if mode is None:
            guess.score = 0.0
            return guess
        properties = {target: prop for target, prop in properties.items()
                      if target != switch[0] and not for_other_mode(prop, mode, switch[1])}
        guess.mode = (switch[0], mode)
        # below a tool of its own with a known name; above a mode of a tool named otherwise
        guess.score = max(guess.score, 0.8) + (0.4 if guess.score >= 0.75 else 0.0)
        guess.evidence.append(f"its {switch[0]} {mode!r} does it")
    taken: set[str] = set(guess.mode[:1])
    tool_text = str(tool.get("description", ""))
    for argument in spec.arguments:
        target = match_argument(canonical, argument, properties, taken, tool_text,
                                named=guess.score >= _MIN_SCORE)
        if target is None:
            guess.missing.append(argument)
            continue
        taken.add(target)
        guess.args[argument] = target
    _own_arguments(guess, properties, required_of(schema), taken)
    if _named(canonical, guess.name) or guess.mode:  # what it does is said: its names are
        _by_type(guess, spec.required, properties, required_of(schema), taken)  # its own
    if any(a not in guess.args for a in spec.required) or _veto(canonical, tool, guess,
                                                                 properties):
        guess.score = 0.0  # it cannot be called the canonical way, or does something else
        return guess
    guess.score += 0.5 * len(guess.args) / max(1, len(spec.arguments))
    # Every argument of the canonical tool under its own name in any case, optional ones too:
    # the schema speaks for a tool named as no listing did (`show_file` taking path, start_line
    # and end_line; `sh`'s timeout-ms). A lone `path` says too little: most path tools take it.
    same = [argument for argument in spec.arguments
            if _norm(guess.args.get(argument, "")) == argument]
    if len(same) == len(spec.arguments) and same != ["path"]:
        guess.score += 0.2
    if canonical == "list_files" and "pattern" in guess.args:  # a glob over a bare listing
        guess.score += 0.3
    # A tool on one file whose path is named a folder's (dir_ops' delete beside file_ops').
    if canonical in _ON_A_FILE and {"dir", "directory", "folder"} & set(
            words(guess.args.get("path", ""))):
        guess.score -= 0.2
    # A property it requires that no canonical argument fills: calls would fail without it.
    unfilled = [name for name in required_of(schema) if name not in taken
                and name not in guess.mode[:1]
                and not any(target.startswith(f"{name}[") or target.startswith(f"{name}.")
                            for target in taken)]
    guess.score -= 0.15 * len(unfilled)
    description = str(tool.get("description", "")).lower()
    guess.score += 0.1 * sum(word in description for word in DESCRIPTION_WORDS.get(canonical, ()))
    if "deprecated" in description:  # even an exact name gives way to its successor
        guess.score -= 0.5 + (_EXACT - 1.0 if guess.name == canonical else 0.0)
    return guess


def match_tools(listing: list[dict[str, Any]], canonicals: Iterable[str] = CANONICAL_TOOLS,
                used: set[str] | None = None) -> dict[str, ToolGuess]:
    """The best advertised tool for each canonical one, no tool used twice (best scores first:
    a `read_files` taking a list is read_multiple_files' though read_file could take it too).
    One of the six left without a tool then takes the best one an optional path tool holds
    (a lister that a tree could also be is the listing's). Names and arguments only:
    shape.map_listing adds the keys each one needs."""
    candidates = sorted(
        (score_tool(canonical, tool) for canonical in canonicals for tool in listing
         if isinstance(tool, dict) and isinstance(tool.get("name"), str)),
        key=lambda guess: -guess.score,
    )
    candidates = [guess for guess in candidates if guess.score >= _MIN_SCORE]
    chosen: dict[str, ToolGuess] = {}
    used = set(used or ())
    for guess in candidates:
        # A tool with modes serves each canonical tool it has a mode for, here and in a later
        # round (the path tools after the six).
        if guess.canonical in chosen or (guess.name in used and not guess.mode):
            continue
        chosen[guess.canonical] = guess
        if not guess.mode:
            used.add(guess.name)
    held = {guess.name: canonical for canonical, guess in chosen.items()
            if canonical in PATH_TOOLS and not guess.mode}
    for guess in candidates:
        if (guess.canonical not in PATH_TOOLS and guess.canonical not in chosen
                and guess.name in held):
            del chosen[held.pop(guess.name)]
            chosen[guess.canonical] = guess
    return chosen


def alternatives(listing: list[dict[str, Any]], canonical: str, taken: set[str]
                 ) -> list[ToolGuess]:
    """The other tools that could be `canonical`, best first (none another canonical tool
    already holds): the ones to try when the chosen one fails its self-check."""
    found = sorted((score_tool(canonical, tool) for tool in listing
                    if isinstance(tool, dict) and isinstance(tool.get("name"), str)
                    and tool["name"] not in taken), key=lambda guess: -guess.score)
    return [guess for guess in found if guess.score >= _MIN_SCORE]
