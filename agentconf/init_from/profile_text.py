"""`agentconf init --from`: the draft written out as a profile, every guess with its evidence
as a comment above it, the self-check first and what it could not prove as [unproven]."""

import json
import re
from typing import Any

from agentconf.contract import CANONICAL_TOOLS, CLAUSES, PATH_TOOLS
from agentconf.contract.modes import ALLOWED_PROGRAMS, MODES
from agentconf.init_from.findings import Findings
from agentconf.init_from.match import ToolGuess
from agentconf.init_from.path_tools import map_path_tools
from agentconf.init_from.premises import Premise, counted, unproven_tables
from agentconf.init_from.sharing import Sharing
from agentconf.init_from.waits import call_bound_ms, documented_wait

# Capabilities a canonical argument stands for, when the mapped tool has no property for it.
_ARGUMENT_CAPABILITIES = {"start_line": "line_window", "end_line": "line_window",
                          "replace_all": "replace_all", "timeout_ms": "shell_timeout"}
# Where one argument stands for another tool's capability: exec's timeout is its own.
_TOOL_ARGUMENT_CAPABILITIES = {("exec", "timeout_ms"): "exec_timeout"}


def table_args(guess: ToolGuess) -> dict[str, str]:
    """The targets that differ from what the profile's keys already imply."""
    implied: dict[str, str] = {}
    if guess.keys.get("window") == "offset_limit":
        implied.update(start_line="offset", end_line="limit")
    if guess.keys.get("replace_all") == "expected_replacements":
        implied["replace_all"] = "expected_replacements"
    if guess.keys.get("argv") is not None:
        implied["command"] = "argv"
    return {argument: target for argument, target in guess.args.items()
            if target != implied.get(argument, argument)}


def _quote(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _inline(table: dict[str, Any]) -> str:
    return "{ " + ", ".join(f"{_key(key)} = {_value(value)}" for key, value in table.items()) + " }"


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _quote(name)


def _value(value: Any) -> str:
    """A TOML value: an inline table for a dict (a result's failure marker), else JSON's."""
    if isinstance(value, dict):
        return _inline(value)
    if isinstance(value, str) and "\\" in value and "'" not in value:
        return f"'{value}'"  # a regex, readable as a literal string
    return _quote(value)


def render(spec_text: str, server_name: str | None, listing: list[dict[str, Any]],
           mapped: dict[str, ToolGuess], absolute: bool, findings: Findings,
           state: list[str] | None = None, sharing: Sharing | None = None,
           premises: list[Premise] | None = None) -> str:
    out = [
        "# Drafted by `agentconf init --from` from the implementation's own tools/list and a few",
        "# harmless probe calls in a scratch sandbox. Every guess says why; check each, and the",
        "# TODO lines above all. Docs: docs/profiles.md. Run: agentconf run --impl agentconf.toml",
        *_self_check_lines(premises),
        "",
        *_implementation(spec_text, server_name, listing, mapped, absolute, findings, sharing),
        *_capability_lines(_capabilities(mapped, findings), findings.observed),
    ]
    out.extend(_limit_lines(mapped))
    for canonical in CANONICAL_TOOLS:
        if canonical in mapped:
            out.extend(_tool_lines(canonical, mapped[canonical]))
    out.extend(_path_tools(listing, mapped))
    out.extend(_mode_lines(mapped))
    out.extend(_unproven_lines(premises))
    if state:
        out.append("[setup]")
        out.append("# it wrote, changed or removed these in its own HOME during the probe "
                   "session: its state, not judged")
        out.append(f"state = {_quote(state)}")
        out.append("")
    out.extend(_error_lines(findings))
    out.append("[expected_failures]")
    out.append("# Known gaps, a reason each; `agentconf run --write-baseline FILE` lists them.")
    return "\n".join(_one_line(line) for line in out) + "\n"


def _implementation(spec_text: str, server_name: str | None, listing: list[dict[str, Any]],
                    mapped: dict[str, ToolGuess], absolute: bool, findings: Findings,
                    sharing: Sharing | None) -> list[str]:
    names = [str(tool.get("name")) for tool in listing]
    declared = set(map_path_tools(listing, mapped)[1])  # [tools.extra]: judged, not excluded
    unmapped = [name for name in names
                if name not in {g.name for g in mapped.values()} and name not in declared]
    return [
        "[implementation]",
        f"spec = {_quote(spec_text)}",
        f"name = {_quote(server_name or 'my-implementation')}",
        "# true when its descriptions or a probe demand absolute paths: paths are sent joined to "
        "the root",
        *([f"# {findings.absolute_only}"] if findings.absolute_only else []),
        f"absolute_paths = {'true' if absolute else 'false'}",
        *([f"# {findings.virtual_root}", "virtual_absolute_paths = true"]
          if findings.virtual_root else []),
        *([f"# {findings.any_failure[1]}",
           f"failure = {_inline(findings.any_failure[0])}"]
          if findings.any_failure else []),
        "# Tools no canonical tool maps to and in whose schema no path argument was found: the "
        "kit never calls them.",
        *_speaks_of_paths(listing, unmapped),
        f"exclude_tools = {_quote(unmapped)}",
        *([f"# {sharing.why}", f"reuse = {_quote(sharing.mode)}"] if sharing and sharing.share
          else [f"# reuse: {sharing.why}"] if sharing else []),
        *_call_bound(listing, mapped),
        "",
    ]


def _call_bound(listing: list[dict[str, Any]], mapped: dict[str, ToolGuess]) -> list[str]:
    waited = documented_wait(listing, mapped)
    if waited is None:
        return []
    return [f"# {waited[1]} before it answers (its schema): a call is a hang only after that "
            "and the kit's usual bound", f"call_timeout_ms = {call_bound_ms(waited[0])}"]


def _capability_lines(capabilities: dict[str, tuple[bool, str]], observed: list[str]
                      ) -> list[str]:
    out = ["[capabilities]"]
    out.extend(f"# probe saw {line}" for line in observed)
    if not capabilities:
        out.append("# nothing switched off: every clause is judged")
    for name, (value, why) in capabilities.items():
        out.append(f"# {why}")
        out.append(f"{name} = {'true' if value else 'false'}")
    out.append("")
    return out


def _limit_lines(mapped: dict[str, ToolGuess]) -> list[str]:
    """[limits] the tools' schemas state (a default timeout): the checks judge those."""
    stated: dict[str, tuple[int, str]] = {}
    for canonical in CANONICAL_TOOLS:
        guess = mapped.get(canonical)
        for key, value in (guess.limits.items() if guess is not None else ()):
            stated.setdefault(key, (value, canonical))
    if not stated:
        return []
    return ["[limits]", *(line for key, (value, canonical) in stated.items() for line in (
        f"# {canonical}'s schema states it (see [tools.{canonical}])", f"{key} = {value}")), ""]


def _tool_lines(canonical: str, guess: ToolGuess) -> list[str]:
    out = [f"[tools.{canonical}]",
           f"# {guess.name!r} is {canonical}: its exact name" if guess.name == canonical
           else f"# {guess.name!r} looks like {canonical} (score {guess.score:.2f}: "
                "name, arguments and description)"]
    out.extend(f"# {line}" for line in guess.evidence)
    out.append(f"name = {_quote(guess.name)}")
    args = table_args(guess)
    if args:
        out.append(f"args = {_inline(args)}")
    out.extend(f"{key} = {_value(value)}" for key, value in guess.keys.items())
    out.extend(f"# {line}" for line in guess.todo)
    out.append("")
    return out


def _self_check_lines(premises: list[Premise] | None) -> list[str]:
    """The self-check, first: what every verdict stands on, proven or not."""
    if premises is None:
        return []
    failed = [premise for premise in premises if not premise.proven]
    head = (f"# Self-check: {counted(premises)}"
            + (f"; NOT PROVEN ({len(failed)}): their checks are not judged, see [unproven]"
               if failed else ""))
    return ["#", head, *(f"#   {('ok ' if p.tried else '-- ') if p.proven else 'NO '} {p.tool} "
                         f"{p.kind}: {p.evidence}"
                         for p in premises)]


def _unproven_lines(premises: list[Premise] | None) -> list[str]:
    out: list[str] = []
    for tool, kinds in unproven_tables(premises or []).items():
        out.append(f"[unproven.{tool}]")
        out.append("# not proven: the checks standing on it are not judged (never failed); fix "
                   f"the mapping above, or drop [tools.{tool}] where no tool of the "
                   "implementation does this, and drop this table")
        out.extend(f"{kind} = {_quote(why) if isinstance(why, str) else _inline(why)}"
                   for kind, why in kinds.items())
        out.append("")
    return out


def _error_lines(findings: Findings) -> list[str]:
    out: list[str] = []
    if findings.error_codes:
        out.append("[error_codes]")
        for theirs, (ours, why) in findings.error_codes.items():
            out.append(f"# {why}")
            out.append(f"{_quote(theirs)} = {_quote(ours)}")
        out.append("")
    for code, regex, why in findings.patterns:
        out.append("[[error_patterns]]")
        out.append(f"# {why}")
        if code:  # none: the pattern's group `code` takes it from the text
            out.append(f"code = {_quote(code)}")
        out.append(f"pattern = {_literal(regex)}")
        out.append("")
    if findings.notes:
        out.append("# What the probes could not settle:")
        # A provocation is made twice (its twin varies the incidental parts): one note each.
        out.extend(f"# - {note}" for note in dict.fromkeys(findings.notes))
        out.append("")
    return out


def _path_tools(listing: list[dict[str, Any]], mapped: dict[str, ToolGuess]) -> list[str]:
    """The tools that take paths besides the contract's, declared under [tools.extra] so CONFINE
    and SYMLINK judge every path argument they have (the contract's optional path tools are
    mapped with the six). Declared tools keep the default `destructive`: their annotation, else
    true, so the kit drives them only with paths inside its own sandbox."""
    _, others = map_path_tools(listing, mapped)
    out: list[str] = []
    for name, targets in others.items():
        out.append(f"[tools.extra.{_key(name)}]")
        out.append(f"# {name!r} takes paths in {', '.join(targets)}: judged like read_file's")
        out.append(f"paths = {_quote(targets)}")
        out.append("")
    return out


def _mode_lines(mapped: dict[str, ToolGuess]) -> list[str]:
    """A TODO for each mode whose clauses this implementation could be judged on: a listing
    never says how to start a server read-only or with an allow-list (an option, a variable),
    so its clauses stay n/a until the profile says (docs/profiles.md, [modes.<name>])."""
    lines = []
    for name, mode in MODES.items():
        needs = {tool for cid in mode.judged_by for tool in CLAUSES[cid].requires}
        if not needs <= set(mapped) or (name == ALLOWED_PROGRAMS and "exec" in mapped and
                                        mapped["exec"].keys.get("allowed_programs")):
            continue
        lines.append(f"# TODO: [modes.{name}] says how to start it so: {mode.meaning} "
                     f"{', '.join(mode.judged_by)} stay n/a until it does (an option in args, "
                     "a variable in env, or another spec)")
    return [*lines, ""] if lines else []


def _speaks_of_paths(listing: list[dict[str, Any]], unmapped: list[str]) -> list[str]:
    """A TODO for each excluded tool whose description speaks of paths its schema does not
    name (a list of request objects, keys only in words): the drafter could not place them, and
    a tool that reads or writes by path is one the confinement checks must reach."""
    lines = []
    for tool in listing:
        if tool.get("name") in unmapped and re.search(r"(?i)\bpaths?\b",
                                                      str(tool.get("description", ""))):
            lines.append(f"# TODO: {tool['name']!r} speaks of paths its schema does not name: if "
                         f"it reads or writes files, map it, or declare it under "
                         f"[tools.extra.{tool['name']}] with its paths, so that confinement "
                         "is judged on it")
    return lines


def _capabilities(mapped: dict[str, ToolGuess],
                  findings: Findings) -> dict[str, tuple[bool, str]]:
    found: dict[str, tuple[bool, str]] = {}
    for canonical in CANONICAL_TOOLS:
        # An optional path tool not advertised is n/a by itself, and a deferred one (behind
        # tool_search) is revealed by the checks that need it: only the others are written off.
        if canonical not in mapped and canonical != "tool_search" and canonical not in PATH_TOOLS:
            found[canonical] = (False, f"no advertised tool was recognised as {canonical} (map "
                                       f"one by hand under [tools.{canonical}] if it has one)")
    for canonical, guess in mapped.items():
        for argument in guess.missing:
            capability = _TOOL_ARGUMENT_CAPABILITIES.get(
                (canonical, argument), _ARGUMENT_CAPABILITIES.get(argument))
            if capability and capability not in found:
                found[capability] = (False, f"{guess.name}'s input schema has nothing for "
                                            f"{argument}: TODO map it under [tools.{canonical}]"
                                            " if it has it by another name")
    for name, (value, why) in findings.capabilities.items():
        found.setdefault(name, (value, f"probe: {why}"))
    return found


def _literal(regex: str) -> str:
    return f"'{regex}'" if "'" not in regex and "\n" not in regex else _quote(regex)


def _one_line(line: str) -> str:
    return line.replace("\n", "\\n") if line.startswith("#") else line
