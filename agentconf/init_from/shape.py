"""`agentconf init --from`: the keys a mapped tool needs besides its name and arguments, read from
its schema and descriptions: a line window's form and base, replace_all as a count, a timeout's
unit, and the arguments it must always be sent (`dryRun = false`, `overwrite = true`, a search
switched to contents, a shell's required working folder).
"""

import json
import re
from typing import Any

from agentconf.contract import DEFAULT_LIMITS
from agentconf.harness.session.argument_values import required_value
from agentconf.harness.session.arguments import top_argument
from agentconf.init_from import words as vocabulary
from agentconf.init_from.match import ToolGuess, content_switch, match_tools, types_of, words
from agentconf.init_from.schemas import flat_properties, required_of, required_target, schema_of
from agentconf.init_from.switches import said, switches
from agentconf.init_from.words import ALLOWED_PROGRAMS, LITERAL, describes_glob

_SENTENCE = re.compile(r"[.;\n]\s")
_SAYS_REGEX = re.compile(r"(?i)(?<!not )(?<!not a )\b(?:regex|regexp|regular expression)")
_LINES = re.compile(r"(?i)\blines?\b")
# A canonical argument the model may leave out, mapped onto a property the tool requires: the
# value that means "no filter" (search_files of the MCP filesystem server requires `pattern`).
_NEUTRAL = {("list_files", "pattern"): "*", ("list_files", "path"): ".",
            ("grep", "path"): "."}
_WORKDIR = ("workdir", "cwd", "working_dir", "working_directory")


def map_listing(listing: list[dict[str, Any]]) -> dict[str, ToolGuess]:
    """The mapping half of a draft, from the listed tools alone: which tool is which canonical
    one, its arguments, defaults and keys (no call is made)."""
    mapped = match_tools(listing)
    by_name = {str(tool.get("name")): tool for tool in listing if isinstance(tool, dict)}
    for guess in mapped.values():
        shape_keys(guess, by_name[guess.name])
    return mapped


def shape_keys(guess: ToolGuess, tool: dict[str, Any]) -> None:
    properties = flat_properties(schema_of(tool))
    description = str(tool.get("description", ""))
    _window(guess, properties, description)
    # A count of replacements where the contract has a flag, at the top or nested (`request.`)
    if guess.args.get("replace_all", "").rsplit(".", 1)[-1] == "expected_replacements":
        guess.keys["replace_all"] = "expected_replacements"
    _timeout_unit(guess, properties, description)
    _output_bound(guess, properties)
    if guess.canonical == "exec":
        _allow_list(guess, description)
    if guess.canonical == "grep":
        _grep_keys(guess, properties, description)
    _defaults(guess, tool, properties)


# max_output_bytes, outputLimitChars, max_output_tokens: an argument bounding what the tool
# shows, its default the bound the implementation keeps, in the unit its name says.
_BOUND_UNITS = {"bytes": "bytes", "chars": "chars", "characters": "chars", "tokens": "tokens"}


def bound_unit(target: str) -> str | None:
    """The unit an argument bounding the output names (`max_output_bytes`: bytes), if it is one."""
    said = words(target)
    unit = next((_BOUND_UNITS[word] for word in said if word in _BOUND_UNITS), None)
    return None if "." in target or "[" in target or "output" not in said else unit


def _output_bound(guess: ToolGuess, properties: dict[str, dict[str, Any]]) -> None:
    """The tool's own output bound, when its schema states it: TRUNCATE judges that bound, not
    the contract's, which the implementation was never told."""
    for target, prop in properties.items():
        unit, default = bound_unit(target), prop.get("default")
        if (unit is None or not isinstance(default, int) or isinstance(default, bool)
                or default <= 0):
            continue
        guess.keys["limits"] = {f"max_output_{unit}": default}
        guess.evidence.append(f"its output is bounded by {target} (default {default}, in "
                              f"{unit}): the truncation checks judge that bound")
        return


def _window(guess: ToolGuess, properties: dict[str, dict[str, Any]], description: str) -> None:
    args = guess.args
    counted = set(words(args.get("end_line", ""))) & {"limit", "length", "count", "num"}
    if not (args.get("start_line") == "offset" or counted):
        return
    guess.keys["window"] = "offset_limit"
    said = str(properties.get(args.get("start_line", ""), {}).get("description", ""))
    text = f"{said} {description}"
    zero, one = vocabulary.ZERO_BASED.search(text), vocabulary.ONE_BASED.search(text)
    if zero and not one:
        guess.keys["offset_base"] = 0
        guess.evidence.append(f"its line window is offset/limit, offset_base 0: the schema says "
                              f"{zero.group(0)!r}")
    elif one and not zero:
        guess.keys["offset_base"] = 1
        guess.evidence.append(f"its line window is offset/limit, offset_base 1: the schema says "
                              f"{one.group(0)!r}")
    else:  # the probe's window read settles it (probe.py)
        guess.keys["offset_base"] = 1
        guess.evidence.append("its line window is offset/limit; its base is not in the schema")


def _allow_list(guess: ToolGuess, description: str) -> None:
    """An argv runner that names the programs it allows in its description (an MCP shell
    server's ALLOW_COMMANDS): checks needing another are n/a, a refused one is EXEC-07's."""
    listed = ALLOWED_PROGRAMS.search(description)
    allowed = [p.strip() for p in listed.group(1).split(",") if p.strip()] if listed else []
    if allowed:
        guess.keys["allowed_programs"] = allowed
        guess.evidence.append(f"its description lists the programs it allows: {allowed}")


def _grep_keys(guess: ToolGuess, properties: dict[str, dict[str, Any]], description: str
               ) -> None:
    own = str(properties.get(guess.args.get("pattern", ""), {}).get("description", ""))
    said = f"{own} {description}"
    # literalSearch: regex unless switched; is_regex: sent true (defaults)
    switch = any({"literal", "regex"} & set(words(target)) for target, prop in properties.items()
                 if "boolean" in types_of(prop))
    # A pattern its own description calls a regex is one, whatever else is literal ("Python
    # regex to match file contents. Invalid regex patterns are automatically treated as literal
    # text.")
    if not switch and not _SAYS_REGEX.search(own) and (
            literal := LITERAL.search(said)) is not None:
        guess.keys["literal"] = True
        guess.evidence.append(f"its pattern is plain text: {literal.group(0)!r}")
    # Said of the lines it shows, not of a pagination offset ("Start at Nth match (0-based)").
    if (zero := next((found for sentence in _SENTENCE.split(description)
                      if _LINES.search(sentence)
                      and (found := vocabulary.ZERO_BASED.search(sentence)) is not None), None)):
        guess.keys["line_base"] = 0
        guess.evidence.append(f"its output numbers lines from 0: {zero.group(0)!r}")


def _timeout_unit(guess: ToolGuess, properties: dict[str, dict[str, Any]],
                  description: str = "") -> None:
    timeout = guess.args.get("timeout_ms")
    if timeout is None:
        return
    own = str(properties.get(timeout, {}).get("description", ""))
    said = _said_of(timeout, description)
    text = f"{timeout} {own} {said}".lower()
    if re.search(r"millisecond|\bms\b|_ms\b", text):
        guess.evidence.append(f"{timeout} is in milliseconds (its description says so)")
    elif re.search(r"second|_s\b|_secs?\b", text):
        guess.keys["units"] = {"timeout_ms": "s"}
        guess.evidence.append(f"{timeout} is in seconds (its description says so)")
    else:
        guess.evidence.append(f"TODO: is {timeout} in milliseconds? (assumed; set "
                              "units = { timeout_ms = \"s\" } if seconds)")
    prop = properties.get(timeout, {})
    _stated_default(guess, timeout, {**prop, "description": f"{own} {said}"} if said else prop,
                    description)


def _said_of(argument: str, description: str) -> str:
    """What the tool's own description says of one argument by its name ("timeout is in
    seconds (default 120, max 3600)"): each clause that starts with it, to its end."""
    return " ".join(found.group(0) for found in re.finditer(
        rf"(?i)(?<![\w-]){re.escape(argument)}(?![\w-])[^.;:\n]{{0,80}}", description))


# "Default 60.", "defaults to 30 seconds", "(default: 120000 ms)": a timeout's default told in
# its description; the unit said there, else the argument's own.
DEFAULT_SAID = re.compile(r"(?i)\bdefaults?(?:\s+(?:is|to|of))?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*"
                      r"(ms\b|milliseconds?|s\b|secs?\b|seconds?|mins?\b|minutes?)?")
# The tool's own description: "By default, your command will timeout after 120000ms" (Claude
# Code's Bash). A unit is required there: no argument's unit stands beside it.
_TOOL_DEFAULT = re.compile(r"(?i)\bby default\b[^.\n]{0,60}?\btime ?outs?\b[^.\n\d]{0,30}"
                           r"(\d+(?:\.\d+)?)\s*(ms\b|milliseconds?|s\b|secs?\b|seconds?|mins?\b|"
                           r"minutes?)")
SCALE = {"ms": 1, "mil": 1, "min": 60_000, "s": 1000}  # by the unit's start, in this order


def _stated_default(guess: ToolGuess, timeout: str, prop: dict[str, Any],
                    description: str) -> None:
    """The implementation's own default timeout, when its schema states one: SHELL-14 waits
    for it, where the contract's 30 s would fail a shell that keeps a documented 60 s."""
    said = prop.get("default")
    unit = ""
    if isinstance(said, (int, float)) and not isinstance(said, bool):
        value, told = float(said), f"default {said}"
    elif (found := DEFAULT_SAID.search(str(prop.get("description", ""))) or
          _TOOL_DEFAULT.search(description)) is not None:
        value, told, unit = float(found.group(1)), found.group(0).strip(), \
            (found.group(2) or "").lower()
    else:
        return
    own = 1000 if guess.keys.get("units", {}).get("timeout_ms") == "s" else 1
    scale = next((factor for prefix, factor in SCALE.items() if unit.startswith(prefix)), own)
    if (milliseconds := int(value * scale)) > 0:
        guess.limits["shell_timeout_ms"] = milliseconds
        guess.evidence.append(f"its own default timeout is {milliseconds} ms ({timeout}: "
                              f"{told!r}): SHELL-14 waits for it")




# context, context_lines, before_context; before/after as rg's -B/-A (not modified_before)
_CONTEXT = re.compile(r"context|^(?:lines_)?(?:before|after)(?:_lines)?$")


def _context_counts(properties: dict[str, dict[str, Any]], taken: set[str]) -> list[str]:
    """A search's counts of lines shown around each match (`context_lines`, `before_context`,
    nested in a request object too)."""
    return [target for target, prop in properties.items()
            if target not in taken and "integer" in types_of(prop) and prop.get("default") != 0
            and _CONTEXT.search("_".join(words(target.rsplit(".", 1)[-1])))]


def _size_cap(properties: dict[str, dict[str, Any]], taken: set[str]) -> str | None:
    """A read's own cap on the size of a file it reads, in bytes (`max_size`, `max_bytes`,
    nested in a request object too): sent as the contract's limit, so that READ-05 judges the
    limit the run is held to and not the implementation's larger default."""
    for target, prop in properties.items():
        named = set(words(target.rsplit(".", 1)[-1]))
        said = f"{target} {prop.get('description', '')}".lower()
        if (target not in taken and "integer" in types_of(prop)
                and not _OTHER_UNIT.search(said)
                and ({"max", "size"} <= named or {"max", "bytes"} <= named
                     or {"size", "limit"} <= named)):
            return target
    return None


# A size counted in something else than bytes: not the contract's max_read_bytes.
_OTHER_UNIT = re.compile(r"\b(?:lines?|char(?:acter)?s?|tokens?|[kmg]i?b|kilo|mega)\b")


def _reading_defaults(guess: ToolGuess, tool: dict[str, Any],
                      properties: dict[str, dict[str, Any]], found: dict[str, Any],
                      why: list[str]) -> None:
    """A read's size cap and a search's context lines and content switch."""
    taken = set(guess.args.values())
    if guess.canonical == "read_file" and (cap := _size_cap(properties, taken)):
        found[cap] = DEFAULT_LIMITS.max_read_bytes
        # What the kit sends, not what the read will do with it: that is READ-05's to judge.
        why.append(f"{cap} = {DEFAULT_LIMITS.max_read_bytes}: the contract's max_read_bytes, sent "
                   "so a read is held to the limit READ-05 judges (follow [limits] if you change "
                   "it)")
    if guess.canonical != "grep":
        return
    for target in _context_counts(properties, taken):  # lines around a match are no matches
        found[target] = 0
        why.append(f"{target} = 0: no lines around a match, only the matching lines")
    if switch := content_switch(properties):
        found[switch[0]] = switch[1]
        why.append(f"{switch[0]} = {switch[1]!r}: it searches contents only so "
                   f"({said(properties[switch[0]], tool)})")


def _defaults(guess: ToolGuess, tool: dict[str, Any], properties: dict[str, dict[str, Any]]
              ) -> None:
    found: dict[str, Any] = dict([guess.mode]) if guess.mode else {}
    why: list[str] = [f"{guess.mode[0]} = {guess.mode[1]!r}: the mode that does it"] if (
        guess.mode) else []
    switches(guess, tool, properties, found, why)
    _reading_defaults(guess, tool, properties, found, why)
    required = required_of(schema_of(tool))
    # "." is no neutral path where the path is a glob or a list of files (strands' file_read)
    neutral = {target: _neutral(guess, argument) for argument, target in guess.args.items()
               if _neutral(guess, argument) is not None
               and required_target(schema_of(tool), target)
               and not (argument == "path" and describes_glob(
                   str(properties.get(target, {}).get("description", ""))))}
    if neutral:
        found.update(neutral)
        sent = ", ".join(f"{key} = {json.dumps(value)}" for key, value in neutral.items())
        why.append(f"it requires {', '.join(neutral)}: sent as {sent} when the model leaves "
                   "them out")
    _workdir(guess, tool)  # mcp-cli's tools all require workingDirectory; a shell's workdir
    _unfilled(guess, properties, required, found, why)
    if found:
        guess.keys.setdefault("defaults", {}).update(found)
    guess.evidence.extend(why)


def _unfilled(guess: ToolGuess, properties: dict[str, dict[str, Any]], required: list[str],
              found: dict[str, Any], why: list[str]) -> None:
    """A value for each required argument no canonical one fills: its enum's plain-text option,
    its own default, null where its schema allows it (a made-up text is refused as an unknown
    id), else a value of its type or its words (argument_values.required_value)."""
    filled = {top_argument(target) for target in (*guess.args.values(),
                                                  guess.keys.get("program", ""))}
    for name in required:
        if name in filled or name in found or name in guess.keys.get("defaults", {}):
            continue
        prop = properties.get(name, {})
        options = prop.get("enum")
        if guess.canonical == "edit_file" and isinstance(options, list) and "literal" in options:
            found[name] = "literal"
            why.append(f"{name} = \"literal\": old_text is plain text, not a pattern")
        elif "default" in properties.get(name, {}):  # required, yet it says what it means
            found[name] = properties[name]["default"]
            why.append(f"it requires {name}: sent as its own default, {found[name]!r}")
        elif "null" in types_of(prop) and not {"const", "enum"} & set(prop):
            guess.keys.setdefault("nulls", []).append(name)
            why.append(f"it requires {name}, which no canonical argument fills and its schema "
                       "lets be null: sent as null (nulls)")
        elif (value := required_value(prop)) is not None:
            found[name] = value[0]
            why.append(f"it requires {name}, which no canonical argument fills: sent as "
                       f"{value[0]!r} ({value[1]}; the self-check tries it)")
        elif not any(name in line for line in guess.todo):
            guess.evidence.append(f"TODO: it requires {name}, which no canonical argument "
                                  "fills: add it to defaults")


def _neutral(guess: ToolGuess, argument: str) -> Any:
    """What a canonical argument the model left out means, for a tool that requires it."""
    if argument == "timeout_ms" and guess.canonical in ("bash", "exec"):
        timeout = DEFAULT_LIMITS.shell_timeout_ms
        return timeout // 1000 if guess.keys.get("units", {}).get("timeout_ms") == "s" else timeout
    if argument == "start_line" and "window" not in guess.keys:  # a range from the first line
        return 1
    return _NEUTRAL.get((guess.canonical, argument))


def _workdir(guess: ToolGuess, tool: dict[str, Any]) -> None:
    required = [name for name in required_of(schema_of(tool))
                if "_".join(words(name)) in _WORKDIR and name not in guess.args.values()]
    for name in required:
        guess.keys.setdefault("defaults", {})[name] = "{root}"
        guess.evidence.append(f"it requires {name}: sent as the root")


def asked_for(answer: str, guess: ToolGuess, tool: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    """Arguments of the tool's schema that a call the draft made did not send and its refusal
    names (a write of a tool serving several operations whose `encoding` only writes need, so
    its schema cannot mark it required): each with a value and why (argument_values.py)."""
    sent = {top_argument(target) for target in guess.args.values()}
    sent |= set(guess.keys.get("defaults") or {})
    if guess.mode:
        sent.add(guess.mode[0])
    properties = schema_of(tool).get("properties") or {}
    asked = {}
    for name, prop in properties.items():
        if name in sent or not isinstance(prop, dict):
            continue
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", answer):
            value = required_value(prop)
            if value is not None:
                asked[name] = value
    return asked
