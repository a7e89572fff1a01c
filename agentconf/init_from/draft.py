"""`agentconf init --from SPEC`: start the implementation in a scratch sandbox, read its
tools/list, map its tools and arguments onto the canonical ones (match.py), probe it with
harmless calls (probe.py) and write a profile whose every guess is commented with its
evidence and every unknown marked TODO.
"""

import os
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agentconf.contract import DEFAULT_LIMITS
from agentconf.contract.tools import PATH_TOOLS
from agentconf.harness.disk.sandbox_workspace import (
    SandboxWorkspace,
    empty_for_reuse,
    empty_root,
    remove_tree,
)
from agentconf.harness.disk.temproot import memory_temproot
from agentconf.harness.profile.model import Profile, parse_profile
from agentconf.harness.profile.tables import SESSION_FEATURES
from agentconf.harness.session.client import Client
from agentconf.harness.session.schema_refs import inlined_listing
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.launch import launch_env
from agentconf.harness.target.spec import ImplSpec
from agentconf.harness.verdicts.errors import ContractViolation, ImplementationFailure
from agentconf.init_from.match import ToolGuess, alternatives
from agentconf.init_from.options import settle_options
from agentconf.init_from.premises import (
    CALLS,
    MARK,
    REFUSALS,
    Premise,
    Rule,
    kept_fails,
    prove,
    self_check,
)
from agentconf.init_from.probe import Findings, probe
from agentconf.init_from.profile_text import render, table_args
from agentconf.init_from.reads import (
    demands_absolute_paths,
    edit_status,
    json_status,
    own_statuses,
    read_text_place,
    refuses_relative,
    session_client,
    virtual_root,
)
from agentconf.init_from.shape import asked_for, map_listing, shape_keys
from agentconf.init_from.sharing import Sharing, decide, shell_keeps_state
from agentconf.init_from.state import snapshot, state_entries


@dataclass
class Draft:
    text: str  # the profile, TOML with comments
    mapped: dict[str, ToolGuess]
    findings: Findings
    listing: list[dict[str, Any]]
    premises: list[Premise]  # the self-check: what the run's verdicts stand on


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
        _merge(mapped, findings)
        first = _loading(lambda: render(spec_text, findings.server_name, listing, mapped,
                                        absolute, findings, state), mapped)
        # The premises, proven with the draft itself on a second start (timed to its answer).
        second_start, premises, kept = _self_check(spec, env, ws, _toml(first), listing,
                                                   set(mapped))
    finally:
        remove_tree(base)
    sharing = _sharing([first_start, second_start], mapped, findings, shell_state, kept)
    text = _loading(lambda: render(spec_text, findings.server_name, listing, mapped, absolute,
                                   findings, state, sharing, premises), mapped)
    parse_profile(_toml(text))  # the draft must load as it is
    return Draft(text, mapped, findings, listing, premises)


def _loading(text_of: Callable[[], str], mapped: dict[str, ToolGuess]) -> str:
    """The draft's text, with every drafted key the profile's loader rejects left out and named
    on a TODO line with the loader's reason: a draft always loads, what it could not write
    is n/a and said, never the end of `init`."""
    for _ in range(_MOST_LEFT_OUT):
        text = text_of()
        try:
            Profile.model_validate(_toml(text))
        except ValidationError as error:
            if not any(_leave_out(mapped, issue) for issue in error.errors()):
                return text  # not a drafted key: parse_profile names it, our bug
            continue
        return text
    return text_of()


# How many rounds of leaving keys out a draft may take before its loader has its say.
_MOST_LEFT_OUT = 8


def _leave_out(mapped: dict[str, ToolGuess], issue: Any) -> bool:
    """Removes the drafted key an error of the loader is about, if it is one."""
    loc = [str(step) for step in issue.get("loc", ())]
    if len(loc) < 3 or loc[0] != "tools" or loc[1] not in mapped:
        return False
    guess = mapped[loc[1]]
    table: Any = guess.args if loc[2] == "args" else guess.keys
    steps = loc[3:] if loc[2] == "args" else loc[2:]
    for depth in range(len(steps), 0, -1):  # the deepest key that is there
        holder = table
        for step in steps[:depth - 1]:
            holder = holder.get(step) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and steps[depth - 1] in holder:
            value = holder.pop(steps[depth - 1])
            where = ".".join(loc[2:2 + depth + (loc[2] == "args")])
            guess.todo.append(f"left out {where} = {value!r}: the profile cannot hold it "
                              f"({issue.get('msg', 'rejected')})")
            return True
    return False


def _merge(mapped: dict[str, ToolGuess], findings: Findings) -> None:
    """What the probes settled wins over what the listing suggested."""
    for canonical, keys in findings.keys.items():
        for key, value in keys.items():
            known = mapped[canonical].keys.get(key)
            if isinstance(known, dict) and isinstance(value, dict):  # a result's places
                known.update(value)
            else:
                mapped[canonical].keys[key] = value
        mapped[canonical].evidence.extend(findings.evidence.get(canonical, []))
    for canonical, lines in findings.todo.items():
        mapped[canonical].todo.extend(lines)


def _self_check(spec: ImplSpec, env: AdapterEnv, ws: SandboxWorkspace, tables: dict[str, Any],
                listing: list[dict[str, Any]], mapped: set[str]
                ) -> tuple[float | None, list[Premise], str | None]:
    """A second start, timed up to its tools/list answer (None when it cannot start again),
    every premise of the draft proven through it (premises.py), and what it fails once kept
    across a refill of its sandbox (None: nothing)."""
    began = time.monotonic()
    try:
        adapter = open_adapter(spec, env)
        adapter.list_tools()
    except (ImplementationFailure, ContractViolation, OSError) as error:
        return None, [Premise(tool, "calls", False, f"a second start failed: {error}"[:160])
                      for tool in sorted(mapped)], None
    start = time.monotonic() - began
    # Proven in a root as a check finds it: the probes' leftovers (link loops, links out) are
    # no premise of a search of the root.
    empty_root(ws.root)
    try:
        premises = self_check(session_client(adapter, tables, ws, listing), mapped)
        return start, premises, _kept(adapter, tables, ws, listing, premises)
    finally:
        adapter.close()


def _kept(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
          listing: list[dict[str, Any]], premises: list[Premise]) -> str | None:
    """What a kept server fails once its sandbox was emptied and built again in place, as the
    run does between the checks it shares it for (None: nothing); the same folders, a new
    workspace in them."""
    root = os.lstat(ws.root)
    if not empty_for_reuse(ws.base, (root.st_dev, root.st_ino), stat.S_IMODE(root.st_mode)):
        return "its sandbox could not be emptied in place"
    again = SandboxWorkspace(base=ws.base)
    try:
        return kept_fails(session_client(adapter, tables, again, listing), premises)
    finally:
        again.close_outer()


def _marked(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
            listing: list[dict[str, Any]], found: Findings) -> Client:
    """A client of the same session that reads the failure markers drafted so far."""
    for canonical, keys in found.keys.items():
        marker = keys.get("result", {}).get("failure")
        if marker is not None and canonical in tables["tools"]:
            tables["tools"][canonical].setdefault("result", {}).setdefault("failure", marker)
    return session_client(adapter, tables, ws, listing)


def _session(spec: ImplSpec, env: AdapterEnv, ws: SandboxWorkspace
             ) -> tuple[list[dict[str, Any]], dict[str, ToolGuess], bool, Findings, float,
                        str | None]:
    """One session: its listing mapped, then probed; how long it took to start, and what its
    shell keeps between calls (sharing.py)."""
    began = time.monotonic()
    adapter = open_adapter(spec, env)
    try:
        listing = inlined_listing(adapter.list_tools())
        start = time.monotonic() - began
        mapped = map_listing(listing)
        absolute = demands_absolute_paths(listing, mapped)
        tables = _tables(mapped, absolute)
        settle_options(adapter, mapped, tables, ws, listing)
        only_absolute = None if absolute else refuses_relative(adapter, tables, ws, listing)
        if only_absolute is not None:
            absolute = True
            tables = _tables(mapped, absolute)
        virtual = virtual_root(adapter, tables, ws, listing) if absolute else None
        tables["implementation"]["virtual_absolute_paths"] = virtual is not None
        tables["implementation"]["spec"] = spec.text  # its kind: what its answers can carry
        status = json_status(adapter, tables, ws, listing)
        if status is not None:  # the probes see its failures as failures
            for table in tables["tools"].values():
                table.setdefault("result", {}).update(status[0])
        edits = edit_status(adapter, tables, ws, listing)
        if edits is not None:  # an edit answers in a shape of its own: its own marker
            tables["tools"]["edit_file"].setdefault("result", {}).update(edits[0])
        client = session_client(adapter, tables, ws, listing)
        # What a real success of each tool looks like, before any refusal is read as one.
        early = _confirmed(adapter, tables, ws, listing, mapped)
        own = _own_shapes(adapter, tables, ws, listing, early)
        client = session_client(adapter, tables, ws, listing)
        findings = probe(client, ws, set(mapped), DEFAULT_LIMITS.max_output_chars,
                         successes={p.tool: [p.text] for p in early if p.proven and p.text},
                         marked=partial(_marked, adapter, tables, ws, listing))
        if status is not None:
            for canonical in tables["tools"]:
                result = findings.keys.setdefault(canonical, {}).setdefault("result", {})
                for key, value in status[0].items():
                    result.setdefault(key, value)
            findings.evidence.setdefault("read_file", []).insert(0, status[1])
            if "failure" in status[0] and findings.any_failure is None:  # a revealed tool's too
                findings.any_failure = (dict(status[0]["failure"]), f"every tool's: {status[1]}")
        if edits is not None:
            findings.keys.setdefault("edit_file", {}).setdefault("result", {}).update(edits[0])
            findings.evidence.setdefault("edit_file", []).insert(0, edits[1])
        for tool, (keys, said) in own.items():
            findings.keys.setdefault(tool, {}).setdefault("result", {}).update(keys)
            findings.evidence.setdefault(tool, []).insert(0, said)
        findings.virtual_root = virtual
        findings.absolute_only = only_absolute
        findings.server_name = getattr(adapter, "name", None)
        shell_state = shell_keeps_state(client, findings) if "bash" in mapped else None
    finally:
        adapter.close()
    return listing, mapped, absolute, findings, start, shell_state


def _own_shapes(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                listing: list[dict[str, Any]], early: list[Premise]
                ) -> dict[str, tuple[dict[str, Any], str]]:
    """Each tool's own answer shape, seen against its proven calls, put in `tables` so the
    probes read its failures as failures and its text where it is: a JSON status of its own
    (reads.own_statuses), a read's text inside its JSON. The keys and evidence, per tool."""
    own = own_statuses(session_client(adapter, tables, ws, listing),
                       [rule for rule in REFUSALS if rule.tool not in ("bash", "exec")],
                       {p.tool: p.text for p in early if p.proven and p.text}, str(ws.root))
    read = next((p.text for p in early if p.tool == "read_file" and p.proven and p.text), "")
    if (place := read_text_place(read, f"{MARK} one")) and "read_file" not in own and (
            "result" not in tables["tools"].get("read_file", {})):
        own["read_file"] = ({"text": place}, f"probe: a read answered JSON with the file's "
                            f"text at {place}: the text the model reads")
    for tool, (keys, _) in own.items():
        tables["tools"][tool].setdefault("result", {}).update(keys)
    return own


def _confirmed(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
               listing: list[dict[str, Any]], mapped: dict[str, ToolGuess]) -> list[Premise]:
    """Each mapped tool's calls proven on the live session; where the tool chosen by its name
    and arguments fails, the next candidate that proves takes its place (names mislead, what a
    tool does decides). `mapped` and `tables` are updated; the premises are returned."""
    by_name = {str(tool.get("name")): tool for tool in listing if isinstance(tool, dict)}
    found: list[Premise] = []
    for rule in CALLS:
        if rule.tool not in mapped:
            continue
        premise = prove(session_client(adapter, tables, ws, listing), rule)
        if not premise.proven:
            premise = _with_asked(adapter, tables, ws, listing, mapped[rule.tool], rule, premise)
        # One of the six outranks an optional path tool (a listing a tree could also be).
        taken = {guess.name for canonical, guess in mapped.items()
                 if canonical != rule.tool and canonical not in PATH_TOOLS}
        for other in alternatives(listing, rule.tool, taken | {mapped[rule.tool].name}):
            if premise.proven and (rule.better is None or rule.better(premise.text)):
                break
            shape_keys(other, by_name[other.name])
            kept = tables["tools"][rule.tool]
            tables["tools"][rule.tool] = _tables({rule.tool: other}, False)["tools"][rule.tool]
            tried = prove(session_client(adapter, tables, ws, listing), rule)
            if not tried.proven or (premise.proven and not (rule.better and rule.better(
                    tried.text))):
                tables["tools"][rule.tool] = kept
                continue
            other.evidence.append(
                f"confirmed by a probe: {mapped[rule.tool].name!r}, first by its name and "
                f"arguments, did not ({premise.evidence})" if not premise.proven else
                f"preferred by a probe: it {rule.better_what}, where {mapped[rule.tool].name!r}, "
                "first by its name and arguments, did not")
            mapped[rule.tool], premise = other, tried
            for lost in [name for name, guess in mapped.items()
                         if name in PATH_TOOLS and guess.name == other.name]:
                del mapped[lost]
                tables["tools"].pop(lost, None)
        found.append(premise)
    return found


def _with_asked(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                listing: list[dict[str, Any]], guess: ToolGuess, rule: Rule,
                premise: Premise) -> Premise:
    """A call refused for an argument it did not send, named in the refusal: sent again with
    a value for it, kept when the premise then holds."""
    tool = next((tool for tool in listing if tool.get("name") == guess.name), {})
    asked = asked_for(premise.text, guess, tool)
    if not asked:
        return premise
    table = tables["tools"][rule.tool]
    kept = dict(table.get("defaults") or {})
    table["defaults"] = {**kept, **{name: value for name, (value, _why) in asked.items()}}
    tried = prove(session_client(adapter, tables, ws, listing), rule)
    if not tried.proven:
        table["defaults"] = kept
        return premise
    guess.keys.setdefault("defaults", {}).update(table["defaults"])
    guess.evidence.extend(
        f"a call without {name} was refused naming it ({' '.join(premise.text.split())[:80]!r}"
        f"): sent as {value!r} ({why})" for name, (value, why) in asked.items())
    return tried


def _sharing(starts: list[float | None], mapped: dict[str, ToolGuess],
             findings: Findings, shell_state: str | None, kept: str | None = None) -> Sharing:
    """The reuse decision; when it shares and no tool could guard a read, the session features
    are written off with that reason (off, a kept server is never retired for them; one whose
    features stay unsettled is drafted "worker-stateful", retired as if they were on)."""
    capabilities = dict(findings.capabilities)
    if not {"edit_file", "write_file"} & set(mapped):
        for name in SESSION_FEATURES:
            capabilities.setdefault(name, (False, "no edit or write tool: no read to guard"))
    sharing = decide(starts, capabilities, shell_state, findings.session_state, kept)
    if sharing.share:
        for name in SESSION_FEATURES:
            if name in capabilities:
                findings.capabilities.setdefault(name, capabilities[name])
    return sharing


def _tables(mapped: dict[str, ToolGuess], absolute: bool) -> dict[str, Any]:
    tools: dict[str, Any] = {}
    for canonical, guess in mapped.items():
        if absolute:  # "." (the root, when the model leaves the path out) is refused there
            defaults = guess.keys.get("defaults") or {}
            for key in [key for key, value in defaults.items()
                        if value == "." and key in guess.args.values()]:
                defaults[key] = "{root}"
                guess.evidence = [line.replace(f'{key} = "."', f'{key} = "{{root}}" (the root: '
                                               'paths are absolute here)')
                                  for line in guess.evidence]
        table: dict[str, Any] = {"name": guess.name, "args": table_args(guess)}
        table.update(guess.keys)
        tools[canonical] = table
    return {"implementation": {"absolute_paths": absolute}, "tools": tools}


def _toml(text: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(text)


