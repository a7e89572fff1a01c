"""`agentconf init --from SPEC`: start the implementation in a scratch sandbox, read its
tools/list, map its tools and arguments onto the canonical ones (match.py), probe it with
harmless calls (probe.py) and write a profile whose every guess is commented with its
evidence and every unknown marked TODO.
"""

import json
import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.contract import CANONICAL_TOOLS, DEFAULT_LIMITS, PATH_TOOLS
from agentconf.harness.disk.temproot import memory_temproot
from agentconf.harness.disk.workspace import SandboxWorkspace, remove_tree
from agentconf.harness.profile.model import parse_profile
from agentconf.harness.profile.tables import SESSION_FEATURES
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.launch import launch_env
from agentconf.harness.target.spec import ImplSpec
from agentconf.init_from.match import ToolGuess, demands_absolute_paths
from agentconf.init_from.paths import map_path_tools
from agentconf.init_from.probe import Findings, probe
from agentconf.init_from.reads import (
    edit_status,
    json_status,
    refuses_relative,
    session_client,
    virtual_root,
)
from agentconf.init_from.shape import map_listing
from agentconf.init_from.sharing import Sharing, decide, shell_keeps_state, time_start
from agentconf.init_from.state import snapshot, state_entries

# Capabilities a canonical argument stands for, when the mapped tool has no property for it.
_ARGUMENT_CAPABILITIES = {"start_line": "line_window", "end_line": "line_window",
                          "replace_all": "replace_all", "timeout_ms": "shell_timeout"}


@dataclass
class Draft:
    text: str  # the profile, TOML with comments
    mapped: dict[str, ToolGuess]
    findings: Findings
    listing: list[dict[str, Any]]


def draft_profile(spec: ImplSpec, spec_text: str, call_timeout_s: float = 10.0) -> Draft:
    """Start `spec` once in a scratch sandbox, learn what it can, and return the draft."""
    # Where `agentconf run` will put its sandboxes (/dev/shm when it can): a server whose allowed
    # folders are fixed places (fast-filesystem-mcp: HOME and /tmp) answers there as it will in
    # the run, not as it would in /tmp.
    base = Path(tempfile.mkdtemp(prefix="agentconf-init-", dir=memory_temproot(os.environ)))
    try:
        ws = SandboxWorkspace(base=base)
        env = AdapterEnv(root=ws.root, home=ws.home, tmp=ws.tmp, call_timeout_s=call_timeout_s,
                         log_dir=ws.logs,
                         extra_env=launch_env(spec.profile, ws.root, ws.home, ws.tmp))
        home_before = snapshot(ws.home)
        # A server printing on stdout is named once by its adapter (adapters/base.py).
        listing, mapped, absolute, findings, first_start, shell_state = _session(spec, env, ws)
        state = state_entries(home_before, snapshot(ws.home))
        server = spec.kind != "python"
        starts: list[float | None] = [first_start]
        if server:
            starts.append(time_start(spec, env))
    finally:
        remove_tree(base)
    for canonical, keys in findings.keys.items():  # what the probes settled wins
        for key, value in keys.items():
            known = mapped[canonical].keys.get(key)
            if isinstance(known, dict) and isinstance(value, dict):  # a result's places
                known.update(value)
            else:
                mapped[canonical].keys[key] = value
        mapped[canonical].evidence.extend(findings.evidence.get(canonical, []))
    for canonical, lines in findings.todo.items():
        mapped[canonical].todo.extend(lines)
    sharing = _sharing(server, starts, mapped, findings, shell_state)
    text = render(spec_text, findings.server_name, listing, mapped, absolute, findings, state,
                  sharing)
    parse_profile(_toml(text))  # the draft must load as it is
    return Draft(text, mapped, findings, listing)


def _session(spec: ImplSpec, env: AdapterEnv, ws: SandboxWorkspace
             ) -> tuple[list[dict[str, Any]], dict[str, ToolGuess], bool, Findings, float,
                        str | None]:
    """One session: its listing mapped, then probed; how long it took to start, and what its
    shell keeps between calls (sharing.py)."""
    began = time.monotonic()
    adapter = open_adapter(spec, env)
    try:
        listing = adapter.list_tools()
        start = time.monotonic() - began
        mapped = map_listing(listing)
        absolute = demands_absolute_paths(listing, mapped)
        tables = _tables(mapped, absolute)
        only_absolute = None if absolute else refuses_relative(adapter, tables, ws, listing)
        if only_absolute is not None:
            absolute = True
            tables = _tables(mapped, absolute)
        virtual = virtual_root(adapter, tables, ws, listing) if absolute else None
        tables["implementation"]["virtual_absolute_paths"] = virtual is not None
        status = json_status(adapter, tables, ws, listing)
        if status is not None:  # the probes see its failures as failures
            for table in tables["tools"].values():
                table.setdefault("result", {}).update(status[0])
        edits = edit_status(adapter, tables, ws, listing)
        if edits is not None:  # an edit answers in a shape of its own: its own marker
            tables["tools"]["edit_file"].setdefault("result", {}).update(edits[0])
        client = session_client(adapter, tables, ws, listing)
        findings = probe(client, set(mapped), DEFAULT_LIMITS.max_output_chars)
        if status is not None:
            for canonical in tables["tools"]:
                result = findings.keys.setdefault(canonical, {}).setdefault("result", {})
                for key, value in status[0].items():
                    result.setdefault(key, value)
            findings.evidence.setdefault("read_file", []).insert(0, status[1])
        if edits is not None:
            findings.keys.setdefault("edit_file", {}).setdefault("result", {}).update(edits[0])
            findings.evidence.setdefault("edit_file", []).insert(0, edits[1])
        findings.virtual_root = virtual
        findings.absolute_only = only_absolute
        findings.server_name = getattr(adapter, "name", None)
        shell_state = shell_keeps_state(client, findings) if "bash" in mapped else None
    finally:
        adapter.close()
    return listing, mapped, absolute, findings, start, shell_state


def _sharing(server: bool, starts: list[float | None], mapped: dict[str, ToolGuess],
             findings: Findings, shell_state: str | None) -> Sharing:
    """The reuse decision; when it shares and no tool could guard a read, the session features
    are written off with that reason (off, a kept server is never retired for them; one whose
    features stay unsettled is drafted "worker-stateful", retired as if they were on)."""
    capabilities = dict(findings.capabilities)
    if not {"edit_file", "write_file"} & set(mapped):
        for name in SESSION_FEATURES:
            capabilities.setdefault(name, (False, "no edit or write tool: no read to guard"))
    sharing = decide(server, starts, capabilities, shell_state, findings.session_state)
    if sharing.share:
        for name in SESSION_FEATURES:
            if name in capabilities:
                findings.capabilities.setdefault(name, capabilities[name])
    return sharing


def _tables(mapped: dict[str, ToolGuess], absolute: bool) -> dict[str, Any]:
    tools: dict[str, Any] = {}
    for canonical, guess in mapped.items():
        table: dict[str, Any] = {"name": guess.name, "args": _args(guess)}
        table.update(guess.keys)
        tools[canonical] = table
    return {"implementation": {"absolute_paths": absolute}, "tools": tools}


def _args(guess: ToolGuess) -> dict[str, str]:
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


def _toml(text: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(text)


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
           state: list[str] | None = None, sharing: Sharing | None = None) -> str:
    names = [str(tool.get("name")) for tool in listing]
    declared = set(map_path_tools(listing, mapped)[1])  # [tools.extra]: judged, not excluded
    unmapped = [name for name in names
                if name not in {g.name for g in mapped.values()} and name not in declared]
    out = [
        "# Drafted by `agentconf init --from` from the implementation's own tools/list and a few",
        "# harmless probe calls in a scratch sandbox. Every guess says why; check each, and the",
        "# TODO lines above all. Docs: docs/profiles.md. Run: agentconf run --impl agentconf.toml",
        "",
        "[implementation]",
        f"spec = {_quote(spec_text)}",
        f"name = {_quote(server_name or 'my-implementation')}",
        "# true when its descriptions or a probe demand absolute paths: paths are sent joined to "
        "the root",
        *([f"# {findings.absolute_only}"] if findings.absolute_only else []),
        f"absolute_paths = {'true' if absolute else 'false'}",
        *([f"# {findings.virtual_root}", "virtual_absolute_paths = true"]
          if findings.virtual_root else []),
        "# Tools no canonical tool maps to and that take no path: the kit never calls them.",
        f"exclude_tools = {_quote(unmapped)}",
        *([f"# {sharing.why}", f"reuse = {_quote(sharing.mode)}"] if sharing and sharing.share
          else [f"# reuse: {sharing.why}"] if sharing else []),
        "",
    ]
    capabilities = _capabilities(mapped, findings)
    out.append("[capabilities]")
    if not capabilities:
        out.append("# nothing switched off: every clause is judged")
    for name, (value, why) in capabilities.items():
        out.append(f"# {why}")
        out.append(f"{name} = {'true' if value else 'false'}")
    out.append("")
    for canonical in CANONICAL_TOOLS:
        guess = mapped.get(canonical)
        if guess is None:
            continue
        out.append(f"[tools.{canonical}]")
        out.append(f"# {guess.name!r} is {canonical}: its exact name" if guess.name == canonical
                   else f"# {guess.name!r} looks like {canonical} (score {guess.score:.2f}: "
                        "name, arguments and description)")
        for line in guess.evidence:
            out.append(f"# {line}")
        out.append(f"name = {_quote(guess.name)}")
        args = _args(guess)
        if args:
            out.append(f"args = {_inline(args)}")
        for key, value in guess.keys.items():
            out.append(f"{key} = {_value(value)}")
        out.extend(f"# {line}" for line in guess.todo)
        out.append("")
    out.extend(_path_tools(listing, mapped))
    if state:
        out.append("[setup]")
        out.append("# it wrote, changed or removed these in its own HOME during the probe "
                   "session: its state, not judged")
        out.append(f"state = {_quote(state)}")
        out.append("")
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
        out.extend(f"# - {note}" for note in findings.notes)
        out.append("")
    out.append("[expected_failures]")
    out.append("# Known gaps, a reason each; `agentconf run --write-baseline FILE` lists them.")
    return "\n".join(_one_line(line) for line in out) + "\n"


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


def _capabilities(mapped: dict[str, ToolGuess],
                  findings: Findings) -> dict[str, tuple[bool, str]]:
    found: dict[str, tuple[bool, str]] = {}
    for canonical in CANONICAL_TOOLS:
        # An optional path tool not advertised is n/a by itself, and a deferred one (behind
        # tool_search) is revealed by the checks that need it: only the others are written off.
        if canonical not in mapped and canonical != "tool_search" and canonical not in PATH_TOOLS:
            found[canonical] = (False, f"no advertised tool looks like {canonical}")
    for canonical, guess in mapped.items():
        for argument in guess.missing:
            capability = _ARGUMENT_CAPABILITIES.get(argument)
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
