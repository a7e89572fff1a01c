"""`init --from`'s self-check: what every verdict of a run stands on, proven on the
implementation itself with the drafted profile before any check relies on it.

Two premises per mapped canonical tool, each one declarative rule below:

- **calls**: a call made as the draft makes it does what the checks take for granted: a file
  written lands in the root byte for byte, a file the kit put in the root reads back, an edit
  changes the file on the disk, a listing names a file of the root (and, preferred among
  candidates, the folder beside it: a lister, not a file finder), a search finds a line, a
  command's output comes back. It fails when a path lands elsewhere (a virtual filesystem), a
  required argument has no value that works, or the text is not where the draft reads it.
- **refusals**: a call that cannot succeed on any disk (a read of a missing file, a write under a
  regular file, an edit of text that is not there, a listing of a missing folder, a command
  that exits 3) is recognised as a failure through the drafted profile. Where such a call
  answered success *in words of a refusal* and no marker tells it from a real success, the kit
  cannot judge that tool's refusals. Where it answered an ordinary success, the implementation
  did not refuse: that is a departure its clauses will fail, and the premise holds.

A premise that fails becomes `[unproven.<tool>]` in the draft: the checks standing on it are
"not judged" with the reason (said first on the console), never failed.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.harness.session.argument_values import ANY_TEXT
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result, neutralise
from agentconf.harness.verdicts.errors import (
    ContractViolation,
    ImplementationFailure,
    NotApplicable,
)
from agentconf.harness.verdicts.wording import says_refusal
from agentconf.init_from.probe_shell import exit_command

MARK = "agentconf-premise"
_SPACE = re.compile(r"\s+")
_TEXT = f"{MARK} one\n{MARK} two\n"


@dataclass(frozen=True)
class Rule:
    """How one premise of one tool is proven: the disk prepared, the call, and what holds."""

    tool: str
    kind: str  # "calls", "refusals", "syntax" or "arguments.<canonical argument>"
    what: str  # the premise in words, for the draft's comment
    prepare: Callable[[Path], None]
    call: Callable[[Client], Result]
    holds: Callable[[Result, Path], bool]
    # What a candidate that also does this does better (a lister that names the folder beside
    # the file, where a file finder names files only): among the tools proving the premise,
    # one that does is taken over the first choice (draft.py `_confirmed`).
    better: Callable[[str], bool] | None = None
    better_what: str = ""  # `better` in words


@dataclass(frozen=True)
class Premise:
    tool: str
    kind: str
    proven: bool
    evidence: str  # what was seen, one line
    text: str = ""  # the answer's text, when the call was made (a real success's, if proven)

    @property
    def tried(self) -> bool:
        """False where nothing could be sent (a program the gate declines, an argument the
        schema lacks): no verdict stands on it, since its checks cannot send it either."""
        return not self.evidence.startswith(NOT_TRIED)


NOT_TRIED = "not tried: "


def counted(premises: list["Premise"]) -> str:
    """"N of M premises proven", with those not tried counted apart: none is proven by it."""
    tried = [premise for premise in premises if premise.tried]
    proven = [premise for premise in tried if premise.proven]
    untried = len(premises) - len(tried)
    return (f"{len(proven)} of {len(tried)} premises proven"
            + (f" ({untried} not tried: nothing of that kind can be sent, so no check sends it)"
               if untried else ""))


def _write(rel: str, text: str = _TEXT) -> Callable[[Path], None]:
    def prepare(root: Path) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    return prepare


def _writes(*rels: str) -> Callable[[Path], None]:
    def prepare(root: Path) -> None:
        for rel in rels:
            _write(rel)(root)
    return prepare


def _nothing(root: Path) -> None:
    return None


def _absent(rel: str) -> Callable[[Path], None]:
    def prepare(root: Path) -> None:  # a new file: no read guard stands in the write's way
        (root / rel).unlink(missing_ok=True)
    return prepare


def _edit(client: Client, path: str = f"{MARK}-edit.txt", old: str = f"{MARK} two") -> Result:
    if client.has("read_file"):
        client.call("read_file", path=path)  # a read guard lets the edit through
    return client.call("edit_file", path=path, old_text=old, new_text=f"{MARK} 2")


def _both_lines(result: Result, root: Path) -> bool:
    return result.success and all(line in result.data for line in _TEXT.splitlines())


CALLS: tuple[Rule, ...] = (
    Rule("write_file", "calls", f"a write of {MARK}-write.txt lands in the root byte for byte",
         _absent(f"{MARK}-write.txt"),
         lambda c: c.call("write_file", path=f"{MARK}-write.txt", content=_TEXT),
         lambda r, root: (root / f"{MARK}-write.txt").is_file()
         and (root / f"{MARK}-write.txt").read_bytes() == _TEXT.encode()),
    Rule("read_file", "calls", f"a read of {MARK}-read.txt, put in the root, answers its text",
         _write(f"{MARK}-read.txt"), lambda c: c.call("read_file", path=f"{MARK}-read.txt"),
         _both_lines),
    Rule("edit_file", "calls", f"an edit of {MARK}-edit.txt changes it on the disk",
         _write(f"{MARK}-edit.txt"), _edit,
         lambda r, root: (root / f"{MARK}-edit.txt").read_text("utf-8")
         == _TEXT.replace(f"{MARK} two", f"{MARK} 2")),
    Rule("apply_patch", "calls",
         f"a patch in the contract's format adding {MARK}-patch.txt creates it",
         _absent(f"{MARK}-patch.txt"),
         lambda c: c.call("apply_patch", patch=f"*** Begin Patch\n*** Add File: {MARK}-patch.txt"
                          "\n" + "".join(f"+{line}\n" for line in _TEXT.splitlines())
                          + "*** End Patch\n"),
         lambda r, root: (root / f"{MARK}-patch.txt").is_file()
         and (root / f"{MARK}-patch.txt").read_bytes() == _TEXT.encode()),
    Rule("list_files", "calls", f"a listing of {MARK}-list names the file in it",
         _writes(f"{MARK}-list/{MARK}-listed.txt", f"{MARK}-list/{MARK}-folder/inner.txt"),
         lambda c: c.call("list_files", path=f"{MARK}-list"),
         lambda r, root: r.success and f"{MARK}-listed" in r.data,
         better=lambda text: f"{MARK}-folder" in text,
         better_what="names the folder beside the file too"),
    Rule("grep", "calls", f"a search for '{MARK} two' finds its line",
         _write(f"{MARK}-grep.txt"), lambda c: c.call("grep", pattern=f"{MARK} two"),
         lambda r, root: r.success and f"{MARK}-grep" in r.data,
         better=lambda text: f"{MARK} two" in text,
         better_what="shows the line it found beside its file, as grep does"),
    Rule("bash", "calls", f"`echo {MARK}-shell` answers its output",
         _nothing, lambda c: c.call("bash", command=f"echo {MARK}-shell"),
         lambda r, root: r.success and f"{MARK}-shell" in r.data),
    Rule("exec", "calls", f"argv [echo, {MARK}-exec] answers its output",
         _nothing, lambda c: c.call("exec", argv=["echo", f"{MARK}-exec"]),
         lambda r, root: r.success and f"{MARK}-exec" in r.data),
)

# Calls no disk lets succeed: their answer is a refusal, whatever words it comes in.
REFUSALS: tuple[Rule, ...] = (
    Rule("read_file", "refusals", "a read of a missing file is recognised as a failure",
         _nothing, lambda c: c.call("read_file", path=f"{MARK}-missing.txt"),
         lambda r, root: not r.success),
    Rule("write_file", "refusals", "a write under a regular file is recognised as a failure",
         _write(f"{MARK}-plain.txt"),
         lambda c: c.call("write_file", path=f"{MARK}-plain.txt/inner.txt", content="x"),
         lambda r, root: not r.success),
    Rule("edit_file", "refusals", "an edit of text that is not there is recognised as a failure",
         _write(f"{MARK}-absent.txt"), lambda c: _edit(c, f"{MARK}-absent.txt", f"{MARK} absent"),
         lambda r, root: not r.success),
    Rule("list_files", "refusals", "a listing of a missing folder is recognised as a failure",
         _nothing, lambda c: c.call("list_files", path=f"{MARK}-nowhere"),
         lambda r, root: not r.success),
    Rule("grep", "refusals", "a search in a missing folder is recognised as a failure",
         _nothing, lambda c: c.call("grep", pattern=f"{MARK} two", path=f"{MARK}-nowhere"),
         lambda r, root: not r.success),
    Rule("bash", "refusals", "a command that exits 3 is told from one that worked (a failure, "
         "or its exit status read)",
         _nothing, lambda c: c.call("bash", command=exit_command(
             3, getattr(c.profile.tool("bash"), "allowed_programs", None))),
         lambda r, root: not r.success or r.exit_code == 3),
    Rule("exec", "refusals", "argv [sh, -c, exit 3] is told from one that worked (a failure, "
         "or its exit status read)",
         _nothing, lambda c: c.call("exec", argv=["sh", "-c", "exit 3"]),
         lambda r, root: not r.success or r.exit_code == 3),
)

def _timed(tool: str, call: Callable[[Client], Result]) -> Callable[[Client], Result]:
    """`call`, made only where the profile sends timeout_ms to a property of the tool's schema
    (renamed, in its unit): whether that call is accepted at all is the premise."""
    def made(client: Client) -> Result:
        mapping = client.profile.tool(tool)
        schema = client._tools().get(mapping.name, {})
        properties = (schema.get("input_schema") or schema.get("inputSchema") or {}).get(
            "properties") or {}
        if mapping.target("timeout_ms").split(".")[0] not in properties:
            raise NotApplicable(f"{tool} takes no timeout argument")
        return call(client)
    return made


# Optional arguments the checks send as the profile shapes them (renamed, in another unit): a
# call that carries one and is refused as malformed judges the kit's shaping, not the tool.
ARGUMENTS: tuple[Rule, ...] = (
    Rule("bash", "arguments.timeout_ms",
         f"`echo {MARK}-timed` with timeout_ms 5000, as the profile sends it, answers its output",
         _nothing, _timed("bash", lambda c: c.call("bash", command=f"echo {MARK}-timed",
                                                   timeout_ms=5000)),
         lambda r, root: r.success and f"{MARK}-timed" in r.data),
    Rule("exec", "arguments.timeout_ms",
         f"argv [echo, {MARK}-timed] with timeout_ms 5000, as the profile sends it, answers its "
         "output",
         _nothing, _timed("exec", lambda c: c.call("exec", argv=["echo", f"{MARK}-timed"],
                                                   timeout_ms=5000)),
         lambda r, root: r.success and f"{MARK}-timed" in r.data),
)
# A shell's own language, beyond one program and its words: a runner that splits a string into
# a program's arguments (no shell) refuses it or runs it otherwise, and a check whose command
# uses it would judge that, not its own clause.
SYNTAX: tuple[Rule, ...] = (
    Rule("bash", "syntax", f"`v=syntax; echo \"{MARK}-$v\"` (a variable, `;`) runs as a shell "
         "runs it",
         _nothing, lambda c: c.call("bash", command=f'v=syntax; echo "{MARK}-$v"'),
         lambda r, root: r.success and f"{MARK}-syntax" in r.data),
)
RULES = CALLS + REFUSALS + ARGUMENTS + SYNTAX


def prove(client: Client, rule: Rule) -> Premise:
    """One rule played on the live session: proven, or why not (the answer, neutralised)."""
    rule.prepare(client.root)
    try:
        result = rule.call(client)
    except NotApplicable as why:  # its allow-list refuses the program: nothing was sent
        return Premise(rule.tool, rule.kind, True, f"{NOT_TRIED}{why.reason}")
    except (ImplementationFailure, ContractViolation) as error:
        return Premise(rule.tool, rule.kind, rule.kind == "refusals",
                       f"{rule.what}: {type(error).__name__}: {str(error)[:120]}")
    said = _said(result)
    if rule.holds(result, client.root):
        return Premise(rule.tool, rule.kind, True, f"{rule.what}: yes ({said})", result.data)
    if rule.kind == "refusals" and not says_refusal(result.data):
        # An ordinary success: it did not refuse. A departure its clauses fail, not ours.
        return Premise(rule.tool, rule.kind, True, f"{rule.what}: it answered an ordinary "
                                                   f"success ({said}): a departure, judged")
    return Premise(rule.tool, rule.kind, False, f"{rule.what}: no ({said})", result.data)


def self_check(client: Client, mapped: set[str]) -> list[Premise]:
    """Every rule of a mapped tool, calls first (a refusal is only told apart from a call that
    works)."""
    found: list[Premise] = []
    for rule in RULES:
        if rule.tool not in mapped:
            continue
        if rule.kind != "calls" and any(not p.proven and p.tool == rule.tool
                                        and p.kind == "calls" for p in found):
            continue  # its calls are not judged at all: nothing else of it stands
        found.append(prove(client, rule))
    return found + _fillers_refused(client, found, mapped)


def _fillers_refused(client: Client, found: list[Premise], mapped: set[str]) -> list[Premise]:
    """The text the draft made up for a required argument (ANY_TEXT), quoted by a refusal of a
    call: every other mapped tool sending it stands on it too, and its calls are not proven
    where its own premise could not be tried (a listing the kit cannot address as drafted)."""
    refused = next((p for p in found if p.kind == "calls" and not p.proven
                    and ANY_TEXT in p.text), None)
    if refused is None:
        return []
    settled = {p.tool for p in found if p.kind == "calls" and (p.tried or not p.proven)}
    made_up = {tool: name for tool in sorted(mapped - settled)
               for name, value in client.profile.tool(tool).defaults.items() if value == ANY_TEXT}
    return [Premise(tool, "calls", False,
                    f"it sends {name} = {ANY_TEXT!r}, a text the draft made up, which "
                    f"{refused.tool}'s refusal quotes: map {name} by hand")
            for tool, name in made_up.items()]


def kept_fails(client: Client, premises: list[Premise]) -> str | None:
    """The calls proven on this session played again by `client` (the same session after its
    sandbox was emptied and built again in place, as a kept server's is between checks): the
    first that no longer holds, said; None when all do. A server that keeps something in its
    sandbox from its start (an editor's history in TMPDIR) fails here, and is not shared."""
    proven = {(p.tool, p.kind) for p in premises if p.proven and p.tried}
    for rule in CALLS:
        if (rule.tool, rule.kind) in proven:
            premise = prove(client, rule)
            if not premise.proven:
                return f"{rule.tool} {rule.kind}: {premise.evidence}"
    return None


def unproven_tables(premises: list[Premise]) -> dict[str, dict[str, Any]]:
    """[unproven.<tool>] tables of the premises that failed."""
    tables: dict[str, dict[str, Any]] = {}
    for premise in premises:
        if not premise.proven:
            table = tables.setdefault(premise.tool, {})
            kind, _, argument = premise.kind.partition(".")
            if argument:  # arguments.timeout_ms
                table.setdefault(kind, {})[argument] = premise.evidence
            else:
                table[kind] = premise.evidence
    return tables


def _said(result: Result) -> str:
    state = "success" if result.success else "failure"
    text = _SPACE.sub(" ", neutralise(result.data, result._replacements).strip())
    return f"{state}: {text[:100]!r}"
