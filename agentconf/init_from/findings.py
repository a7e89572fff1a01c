"""What `init --from`'s probes learnt (Findings), and how a probe's failure is recorded: the
implementation's own spelling of a code (a JSON field, structured content) or its text, which
the patterns module turns into an error pattern once every other answer has been seen.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agentconf.contract import CANONICAL_TOOLS, CLAUSES, ERROR_CODES
from agentconf.harness.disk.sandbox_workspace import CANARY_NAMES
from agentconf.harness.session.result import Result, neutralise
from agentconf.harness.verdicts.errors import (
    ContractViolation,
    ImplementationFailure,
    NotApplicable,
)
from agentconf.harness.verdicts.wording import says_refusal
from agentconf.init_from.flags import flagged
from agentconf.init_from.markers import draft_marker, shared_starts, widened
from agentconf.init_from.patterns import neutral
from agentconf.init_from.probe_answer import Answer, answer

_CODE_KEYS = ("code", "error_code", "errorCode", "error")
# The tool a refusal came from when it is none of the contract's (an unknown tool's name).
ANY_TOOL = "*"
# What every canary's secret starts with (harness/disk/sandbox_workspace.py): an answer holding
# it read a file outside the root, whatever words it came in.
CANARY = "agentconf-canary-"
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{2,40}")


@dataclass
class Findings:
    patterns: list[tuple[str, str, str]] = field(default_factory=list)  # code, regex, evidence
    error_codes: dict[str, tuple[str, str]] = field(default_factory=dict)  # theirs -> ours, ev.
    capabilities: dict[str, tuple[bool, str]] = field(default_factory=dict)  # name -> value, ev.
    keys: dict[str, dict[str, Any]] = field(default_factory=dict)  # canonical -> key updates
    evidence: dict[str, list[str]] = field(default_factory=dict)  # canonical -> comment lines
    todo: dict[str, list[str]] = field(default_factory=dict)  # canonical -> commented keys
    notes: list[str] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)  # failures without a code
    server_name: str | None = None
    # Per canonical tool: answers to calls that cannot succeed that came back as successes in
    # words of a refusal (markers.py drafts the tool's failure marker from them) ...
    disguised: dict[str, list[Answer]] = field(default_factory=dict)
    # ... told apart from the texts of its real successes (calls seen doing their work).
    successes: dict[str, list[str]] = field(default_factory=dict)
    # Why `/x` is taken as root/x (virtual_absolute_paths), when a probe showed it.
    virtual_root: str | None = None
    # Why paths are sent absolute when no description asks for it: a probe's evidence.
    absolute_only: str | None = None
    # Each code of its own spelling and the failures that answered it (see `ambiguous_codes`).
    spelled: dict[str, list[Answer]] = field(default_factory=dict)
    # The marker of a refusal that says success from a tool with no table of its own (an
    # unknown tool, one revealed later): [implementation].failure, and its evidence.
    any_failure: tuple[dict[str, Any], str] | None = None
    # Every refusal in words seen so far, per tool, across the rounds of draft_markers.
    worded: dict[str, list[str]] = field(default_factory=dict)
    # What a probe saw an implementation get wrong about a feature the contract judges: a
    # comment naming the clauses that will fail, never a capability switched off.
    observed: list[str] = field(default_factory=list)
    # Session state that no contract feature names but a kept server would carry from check to
    # check (a read guard on files outside the root): the evidence, for sharing.py.
    session_state: str | None = None


_T = TypeVar("_T")  # what a probe's call answers: a Result, or one with more beside it


def safely(call: Callable[[], _T], found: Findings, label: str) -> _T | None:
    try:
        return call()
    except (ImplementationFailure, ContractViolation) as error:
        found.notes.append(f"{label}: {type(error).__name__}: {str(error)[:200]}")
        return None
    except NotApplicable as why:  # the mapped tool cannot take the probe's call: none was sent
        found.notes.append(f"{label}: not sent: {why.reason}")
        return None


def failure(found: Findings, code: str, label: str, *calls: Callable[[], Result]) -> None:
    """Calls that must fail with `code`: one provocation and its twins, what is incidental to
    it varied (another name, another number), so a pattern learns the message, not the probe."""
    for call in calls:
        result = safely(call, found, label)
        if result is not None:
            learn(found, code, label, result)


def learn(found: Findings, code: str, label: str, result: Result,
          did_nothing: bool = False, clauses: tuple[str, ...] = ()) -> None:
    """What one answer to a call that must fail with `code` teaches: a failure's wording, or a
    success's (a refusal in words, or one that `did_nothing`). `clauses`: those that judge
    this refusal, named where an ordinary success shows the departure they will fail."""
    if result.success:
        succeeded(found, code, label, result, did_nothing, clauses)
    else:
        record(found, code, label, result)


def succeeded(found: Findings, code: str, label: str, result: Result,
              did_nothing: bool = False, clauses: tuple[str, ...] = ()) -> None:
    """A call that should have failed answered success: a refusal in words, or one the disk
    shows did nothing (`did_nothing`: an edit that left the file as it was), kept for the tool's
    failure marker and the patterns; else a plain success (a departure, judged)."""
    if CANARY in result.data:  # it read a canary: an escape the run judges, no refusal
        found.notes.append(f"{label}: succeeded and read a canary outside the root")
        return
    if sum(name in result.data for name in CANARY_NAMES) >= 2:  # it listed the canary folder
        found.notes.append(f"{label}: succeeded and listed the canary folder outside the root")
        return
    if flagged(found.keys, found.evidence, code, label, result,
               found.successes.get(result.request.tool, [])):
        return  # a refusal shaped as a success: its flag says so (flags.py)
    if says_refusal(result.data) or (did_nothing and not _SAYS_DONE.match(result.data)):
        tool = result.request.tool if result.request.tool in CANONICAL_TOOLS else ANY_TOOL
        found.disguised.setdefault(tool, []).append(
            answer(code, label, result.data, result.request))
    elif clauses:
        found.notes.append(f"{label}: succeeded where it must refuse, so no {code} was learned: "
                           f"a departure {', '.join(clauses)} will fail")
    else:
        found.notes.append(f"{label}: succeeded, so no {code} was learned")


# An answer that opens saying it did the work ("Success: Applied patch ... No changes
# detected"): where the disk shows it did nothing, a departure its clause judges, not a refusal
# in other words (a marker of it read the tool's real successes as failures).
_SAYS_DONE = re.compile(r"(?i)\W*(?:success(?:ful(?:ly)?)?|ok|done|applied|updated|wrote|written|"
                        r"saved|created|edited|modified|replaced)\b")


def record(found: Findings, code: str, label: str, result: Result) -> None:
    """A failure of kind `code`: its own spelling of the code, or its text for the patterns."""
    theirs = result.raw.get("error") if isinstance(result.raw, dict) else None
    if isinstance(theirs, str) and re.search(r"\s", theirs):  # a message, not a code
        found.answers.append(answer(code, label, theirs, result.request))
        return
    if isinstance(theirs, str) and theirs:  # a code of its own: a JSON field, structured content
        if theirs in ERROR_CODES:
            if theirs != code:
                found.notes.append(f"{label}: answered {theirs}, the contract expects {code}")
            return
        found.error_codes.setdefault(theirs, (code, f"{label} answered error {theirs!r}"))
        found.spelled.setdefault(theirs, []).append(answer(code, label, result.data,
                                                           result.request))
        return
    if result.error is not None:  # the adapter settled it (an MCP protocol error)
        return
    structured = result.raw.get("structured_content") if isinstance(result.raw, dict) else None
    # Else in its text's JSON (mcp-code-editor's {"success": false, "error": "FileNotFoundError"})
    located = _code_locator(structured) or _code_locator(_json_text(result), structured=False)
    if located is not None and result.request.tool in CANONICAL_TOOLS:
        _learn_locator(found, code, label, result.request.tool, *located)
        found.spelled.setdefault(located[1], []).append(answer(code, label, result.data,
                                                               result.request))
        return
    found.answers.append(answer(code, label, result.data, result.request))


def _json_text(result: Result) -> Any:
    text = result.raw.get("data") if isinstance(result.raw, dict) else None
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _code_locator(value: Any, structured: bool = True) -> tuple[str, str] | None:
    """Where structured content (`structuredContent.failures[0].error.code`) or, not
    `structured`, a text's JSON (the pointer `/failures/0/error/code`, which reaches into a
    top-level list too) spells a failure's code, shallowest first, and the code there."""
    found = _code_steps(value, [])
    if found is None:
        return None
    steps, code = found
    dotted = "".join(f"[{step}]" if step.isdigit() else f".{step}" for step in steps)
    if structured:
        return f"structuredContent{dotted}", code
    if steps[0].isdigit() or not all(_KEY.fullmatch(step) or step.isdigit() for step in steps):
        # A top-level list or a key no dotted path can spell: a JSON pointer reaches them.
        return "/" + "/".join(step.replace("~", "~0").replace("/", "~1") for step in steps), code
    return dotted.lstrip("."), code


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _code_steps(value: Any, steps: list[str]) -> tuple[list[str], str] | None:
    if len(steps) > 5:
        return None
    if isinstance(value, dict):
        for key in sorted(value, key=lambda k: k not in _CODE_KEYS):
            if key in _CODE_KEYS and isinstance(value[key], str) and _CODE.fullmatch(value[key]):
                return [*steps, key], value[key]
        for key, inner in value.items():
            found = _code_steps(inner, [*steps, key])
            if found:
                return found
    if isinstance(value, list) and value:
        return _code_steps(value[0], [*steps, "0"])
    return None


def _learn_locator(found: Findings, code: str, label: str, tool: str, locator: str,
                   spelled: str) -> None:
    result = found.keys.setdefault(tool, {}).setdefault("result", {})
    if "error" not in result:
        result["error"] = locator
        found.evidence.setdefault(tool, []).append(
            f"probe: {label} answered code {spelled!r} at {locator}")
    if spelled in ERROR_CODES:
        return
    ours = found.error_codes.setdefault(spelled, (code, f"{label} answered {spelled!r}"))[0]
    if ours != code:
        found.notes.append(f"{label}: answered {spelled!r} too, mapped to {ours} (its first "
                           f"probe); the contract expects {code}")


# What a code of its own spelling says by its name (FileNotFoundError, ValidationError): the
# tie-breaker when one spelling answered failures of several kinds.
_NAMED = {
    "NOT_FOUND": r"not_?found|no_?such|enoent",
    "IS_DIRECTORY": r"is_?a?_?dir|eisdir",
    "NOT_A_DIRECTORY": r"not_?a_?dir|enotdir",
    "INVALID_ARGS": r"valid|argument|param",
    "BINARY_FILE": r"binary|decode|unicode",
    "OUTSIDE_ROOT": r"outside|permission|access|denied|forbidden|eacces",
}


def _named(spelling: str) -> set[str]:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", spelling).lower()
    return {code for code, name in _NAMED.items() if re.search(name, words)}


def ambiguous_codes(found: Findings) -> None:
    """A spelling of its own that answered failures of several kinds (mcp-code-editor's
    "ValidationError" for a read of a folder, of a reversed window and of a binary file): mapped
    to the first kind probed, it turned the others into false failures. It is mapped to the one
    kind its name says, if one; else not at all, its answers' texts left to the patterns."""
    for theirs, answers in found.spelled.items():
        kinds = sorted({answer.code for answer in answers if answer.code not in ("", theirs)})
        if len(kinds) < 2 or theirs not in found.error_codes:
            continue
        named = _named(theirs) & set(kinds)
        others = " and ".join(kind for kind in kinds if kind not in named)
        if len(named) == 1:
            ours = named.pop()
            first = next(answer for answer in answers if answer.code == ours)
            found.error_codes[theirs] = (ours, f"{first.label} answered {theirs!r}, which its "
                                               f"name says; it also answered {others} failures")
            continue
        del found.error_codes[theirs]
        found.answers.extend(answers)
        found.notes.append(f"{theirs!r} answered {others} failures: one spelling for several "
                           "kinds is no code; their texts are left to the patterns")


def argument_errors(found: Findings) -> None:
    """A spelling learnt from a provocation of one kind whose every answer the INVALID_ARGS
    patterns also fit was the probe's own call refused as malformed (a timeout below the
    tool's minimum answered with zod's issue list): it says nothing of the kind provoked, so
    it is no code of that kind."""
    invalid = [re.compile(regex) for code, regex, _ in found.patterns if code == "INVALID_ARGS"]
    if not invalid:
        return
    for theirs, (ours, _) in list(found.error_codes.items()):
        answers = found.spelled.get(theirs, [])
        if ours == "INVALID_ARGS" or not answers or not all(
                any(regex.search(one.text) for regex in invalid) for one in answers):
            continue
        del found.error_codes[theirs]
        found.notes.append(f"{answers[0].label}: answered {theirs!r} in the shape of its "
                           f"invalid-argument answers: the probe's own call was refused, so no "
                           f"{ours} was learned")


def findings_as_dict(found: Findings) -> dict[str, Any]:  # for tests and debugging
    return {"patterns": found.patterns, "error_codes": found.error_codes,
            "capabilities": found.capabilities, "notes": found.notes}


def draft_markers(found: Findings, variable: tuple[str, ...]) -> None:
    """A failure marker for every tool whose refusals answered success in words: the pattern
    its refusals share and none of its real successes matches (markers.py), live in the draft;
    their texts join the answers the error patterns are learnt from. Where no pattern tells
    them apart, the self-check finds its refusals unproven (premises.py)."""
    for tool, answers in found.disguised.items():
        found.worded.setdefault(tool, []).extend(answer.text for answer in answers)
    general = implementation_marker(found, variable)
    for tool, answers in list(found.disguised.items()):
        if not answers:
            continue
        found.disguised[tool] = []  # each answer taken once, whichever round it came in
        successes = (found.successes.get(tool, ()) if tool != ANY_TOOL else
                     [text for texts in found.successes.values() for text in texts])
        texts, sent = [answer.text for answer in answers], [answer.said for answer in answers]
        marked = found.keys.get(tool, {}).get("result", {}).get("failure")
        text_marker = isinstance(marked, dict) and set(marked) == {"matches"}
        if general is not None and (marked is None or text_marker) and all(
                re.search(general, text) for text in found.worded[tool]):
            regex: str | None = general  # what every tool's refusals say, not this one's words
        elif text_marker:  # widened
            regex = widened(marked["matches"], texts, successes, variable, sent)
        elif marked is not None or (tool == ANY_TOOL and found.any_failure is not None):
            continue  # a JSON status marks it (or an earlier round did)
        else:
            regex = draft_marker(texts, successes, variable, sent)
        said = "; ".join(f"{a.label} answered success: {neutral(a.text, variable)[:60]!r}"
                         for a in answers)
        if regex is None:
            found.notes.append(f"{tool}: {said}; no pattern tells these from its successes")
            continue
        found.answers.extend(answers)
        if tool == ANY_TOOL:  # an unknown tool, refused in words: [implementation].failure
            found.any_failure = ({"matches": regex}, f"probe: {said}: a success matching "
                                                     f"{regex!r} is a failure")
            continue
        if marked == {"matches": regex}:
            continue  # the marker it has already tells these apart
        found.keys.setdefault(tool, {}).setdefault("result", {})["failure"] = {"matches": regex}
        found.evidence.setdefault(tool, []).append(
            f"probe: {said}: a success matching {regex!r} is a failure")
    if general is None:
        return
    for tool, texts in found.worded.items():  # a narrower marker of an earlier round
        marked = found.keys.get(tool, {}).get("result", {}).get("failure")
        if tool != ANY_TOOL and isinstance(marked, dict) and set(marked) == {"matches"} \
                and marked["matches"] != general and all(re.search(general, t) for t in texts):
            marked["matches"] = general
            found.evidence.setdefault(tool, []).append(
                f"probe: its refusals start as every tool's do: {general!r}")
    if found.any_failure is None:
        worded = sorted(tool for tool, texts in found.worded.items() if texts)
        found.any_failure = ({"matches": general}, f"probe: the refusals in words of "
                             f"{', '.join(worded)} all start so: a success matching "
                             f"{general!r} is a failure, whichever tool answers it")


def implementation_marker(found: Findings, variable: tuple[str, ...]) -> str | None:
    """The start the refusals in words of two tools or more share, where no real success of any
    tool matches it: how the implementation says "failed" (a framework's "Error: " before every
    failure), not what one tool says of one failure. A tool's own samples fit its own probes
    ("Error: `path` ..."), and its refusals of another kind (an argument the schema rejects,
    worded "Error: Invalid arguments ...") would not match them. It also marks the tools no
    probe made fail, revealed ones included ([implementation].failure)."""
    tools = [tool for tool, texts in found.worded.items() if texts and tool != ANY_TOOL]
    if len(tools) < 2:
        return None
    successes = [text for texts in found.successes.values() for text in texts]
    return next((shared for shared in shared_starts(
        [text for tool in tools for text in found.worded[tool]], variable)
        if not any(re.search(shared, text) for text in successes)), None)


def settle(found: Findings, name: str, label: str, call: Callable[[], Result],
            present: Callable[[Result], bool],
            unsettled: Callable[[Result], bool] | None = None) -> Result | None:
    """The feature `name` on or off as the probe shows it; off with a TODO when it cannot."""
    result = safely(call, found, label)
    if result is None:
        found.capabilities[name] = (False, f"TODO: {label} raised (see the notes); off until "
                                           "checked by hand")
    elif unsettled is not None and unsettled(result):
        found.capabilities[name] = (False, f"TODO: {label} cannot tell ({short(result)}); off "
                                           "until checked by hand")
    else:
        found.capabilities[name] = (present(result), f"{label}: {short(result)}")
    return result


def observe(found: Findings, name: str, label: str, call: Callable[[], Result],
             right: Callable[[Result], bool], mapped: set[str]) -> Result | None:
    """A feature the contract judges rather than one an implementation declares: a probe that
    saw it go wrong never switches it off (its clauses would read n/a where they must fail); it
    leaves a comment naming the clauses that will judge it, those whose tools are `mapped`."""
    result = safely(call, found, label)
    if result is not None and not right(result):
        judged = [clause.id for clause in CLAUSES.values()
                  if name in clause.requires and clause.retired is None
                  and {need for need in clause.requires if need in CANONICAL_TOOLS} <= mapped]
        found.observed.append(f"{label}: {short(result)}; {name} stays on: " + (
            f"{', '.join(judged)} {'judges' if len(judged) == 1 else 'judge'} it" if judged
            else "no clause of its mapped tools judges it"))
    return result


def unsettled(found: Findings, names: tuple[str, ...], why: str) -> None:
    for name in names:
        found.capabilities.setdefault(name, (False, f"TODO: not probed ({why}); off until "
                                                    "checked by hand"))


def short(result: Result) -> str:
    state = "succeeded" if result.success else "failed"
    return f"{state}: {neutralise(result.data, result._replacements)[:80]!r}"
