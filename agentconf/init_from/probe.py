"""`agentconf init --from`: harmless calls in a scratch sandbox that teach the draft what the
implementation's failures look like (error patterns, or its own spelling of codes) and which
optional features it has. Only canonical tools are called, through the draft's mapping; nothing
outside the scratch sandbox is written.

Every feature it probes gets a value: what the probe showed, or, when the probe could not settle
it, off with a TODO. A feature left on without a probe would turn into false failures.
"""

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.harness.verdicts.wording import says_refusal
from agentconf.init_from.findings import (
    Findings,
    ambiguous_codes,
    argument_errors,
    draft_markers,
    failure,
    observe,
    safely,
    settle,
    short,
)
from agentconf.init_from.patterns import Answer, induce, spelled_codes
from agentconf.init_from.probe_cases import drawn, names_in, play_drawn
from agentconf.init_from.probe_edits import failures_of_edits, features_of_edits
from agentconf.init_from.probe_shell import probe_shell
from agentconf.init_from.read_bound import own_read_bound
from agentconf.init_from.reads import shown_text, text_place
from agentconf.init_from.schemas import flat_properties, schema_of
from agentconf.init_from.words import ONE_BASED, ZERO_BASED

_PROBE_MARK = "agentconf-probe"
_KIT_NAMES = "agentconf-"  # the probes' and the premises' files: an answer may list them
_LINES = ("first-line", "second-line", "third-line")


def probe(client: Client, ws: SandboxWorkspace, mapped: set[str], max_output_chars: int,
          successes: dict[str, list[str]] | None = None,
          marked: Callable[[Findings], Client] | None = None) -> Findings:
    """`successes`: per tool, the texts of calls seen doing their work (the self-check's).
    `marked`: a client of the same session that reads the failure markers drafted so far: the
    features are probed through it, so a refusal that says success is never taken for one."""
    found = Findings(successes={tool: list(texts) for tool, texts in (successes or {}).items()})
    cases = drawn(client, mapped)  # the golden cases marked probe (probe_cases.py)
    # What a message may quote back of the probe itself: never part of a pattern.
    variable = (str(client.root.parent), str(client.root), _KIT_NAMES, "12345", "a.txt",
                "twice.txt", "unread.txt", *names_in(cases),
                *(mapping.name for mapping in client.profile.tools.values()))
    # First: a case's tree may name a scratch file (a.txt), which the probes below rely on.
    play_drawn(client, ws, found, cases, late=False)
    _scratch_files(client)
    _failures(client, found, mapped)
    draft_markers(found, variable)
    client = marked(found) if marked is not None else client
    _features(client, found, mapped, max_output_chars)
    # Last: answers a server may crash or hang on, which would cost every probe after them.
    play_drawn(client, ws, found, cases, late=True)
    _late_failures(client, found, mapped)
    if "bash" in mapped:
        probe_shell(client, found)
    draft_markers(found, variable)  # the tools whose refusals only the last probes showed
    ambiguous_codes(found)
    spelled = spelled_codes(found.answers)
    if spelled is not None:  # `NOT_FOUND: ...`: the code comes from the text
        theirs, why, regex = spelled
        found.patterns.append(("", regex, why))
        for spelling, ours in theirs.items():
            found.error_codes.setdefault(spelling, (ours, f"answered as {spelling}: ..."))
    # A real success is no kind of failure: a pattern it matches says only what every answer
    # of the tool says (a banner, a report's title), and would give every failure that code.
    succeeded = tuple(Answer("a success", f"a success of {tool}", text, tool)
                      for tool, texts in found.successes.items() for text in texts)
    patterns, notes = induce(found.answers, variable, found.patterns,
                             others=(*(one for group in found.spelled.values() for one in group),
                                     *succeeded))
    found.patterns = patterns
    found.notes.extend(notes)
    argument_errors(found)
    return found


def _failures(client: Client, found: Findings, mapped: set[str]) -> None:
    """Calls that must fail where the contract leaves their code open, so that no probe case
    can expect one (probe_cases.py plays those that can): a write of a folder (IS_DIRECTORY or
    NOT_READ), a list of a file (NOT_A_DIRECTORY, or a listing of it), a path under a file
    (NOT_A_DIRECTORY or NOT_FOUND), a link out or a link loop (SYMLINK asks only that they
    fail), and the validation probes, sent through whichever tool takes text. Each teaches the
    code it most likely means, when the implementation answers one."""
    if "read_file" in mapped:
        _failures_of_reads(client, found)
    _validation(client, found, mapped)
    if "edit_file" in mapped:
        failures_of_edits(client, found)
    if "write_file" in mapped:
        failure(found, "IS_DIRECTORY", "write of a folder",
                partial(client.call, "write_file", path=f"{_PROBE_MARK}-dir", content="x"),
                partial(client.call, "write_file", path="notes", content="other text"))
        # The root itself is often refused apart; EDIT-17 expects IS_DIRECTORY of it too.
        failure(found, "IS_DIRECTORY", "write of the root itself", lambda: client.call(
            "write_file", path=".", content="x"))
    if "list_files" in mapped:  # LIST-03's other failure (a missing folder: a probe case's)
        failure(found, "NOT_A_DIRECTORY", "list of a file",
                partial(client.call, "list_files", path="a.txt"),
                partial(client.call, "list_files", path="twice.txt"))


def _features(client: Client, found: Findings, mapped: set[str], max_output_chars: int) -> None:
    """What the implementation declares by what it does: its session guards, its answers'
    shape, the features the contract makes optional."""
    if "read_file" in mapped:
        _features_of_reads(client, found, max_output_chars, mapped)
    bad = _bad_calls(client, mapped)
    if bad:
        settle(found, "validation_issues", "a call with a number for a text argument", bad[0],
               lambda r: r.issues is not None, unsettled=lambda r: r.success)
    else:  # unproven, never assumed: VALIDATE-10 is not judged on a default
        found.capabilities["validation_issues"] = (
            False, "not probed: no mapped tool takes a text argument to send a number for")
    if "edit_file" in mapped:
        features_of_edits(client, found, mapped)
    if "write_file" in mapped:
        made = client.root / f"{_PROBE_MARK}-new/sub/f.txt"
        label = "a write under a missing folder"
        said = settle(found, "create_parents", label, lambda: client.call(
            "write_file", path=f"{_PROBE_MARK}-new/sub/f.txt", content="x"),
            lambda r: r.success and made.is_file())
        if said is not None and said.success and not made.is_file() and not says_refusal(
                said.data):
            # A success that wrote nothing is a departure, not a feature it lacks: EDIT-14
            # judges it, as it does a write that makes its folders.
            found.capabilities["create_parents"] = (
                True, f"{label}: {short(said)}, and nothing was written; create_parents stays "
                      "on: EDIT-14 judges it")


def _late_failures(client: Client, found: Findings, mapped: set[str]) -> None:
    """A write into a link loop (SYMLINK-05: often refused in other words than a read of one);
    the binary and oversized reads are the probe cases' (probe_cases.LATE_CODES)."""
    root = client.root
    if "write_file" in mapped:
        for link, target in (("loop_a", "loop_b"), ("loop_b", "loop_a")):
            if not (root / link).is_symlink():
                (root / link).symlink_to(target)
        failure(found, "IO_ERROR", "write of a symbolic link loop",
                partial(client.call, "write_file", path="loop_b", content="x"),
                partial(client.call, "write_file", path="loop_a", content="other text"))


def _scratch_files(client: Client) -> None:
    root = client.root
    (root / f"{_PROBE_MARK}-dir").mkdir(exist_ok=True)
    (root / "a.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    # Edited before any read: a.txt is read by the read probes, which would satisfy a
    # read-before-edit rule and hide it.
    (root / "unread.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    (root / "twice.txt").write_text("same\nsame\n", encoding="utf-8")
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    (root / "curly.txt").write_text("say \u201chi\u201d\n", encoding="utf-8")
    (root / "lines.txt").write_text("".join(f"{line}\n" for line in _LINES), encoding="utf-8")
    (root / "stale.txt").write_text("alpha\nbeta\n", encoding="utf-8")


def _failures_of_reads(client: Client, found: Findings) -> None:
    root = client.root
    outside = root.parent / "outside"

    def read(code: str, label: str, *paths: str) -> None:
        failure(found, code, label, *(partial(client.call, "read_file", path=p) for p in paths))

    # A missing file, one in a missing folder, a dangling link, a folder, a path out by ../:
    # the probe cases' (probe_cases.py).
    (root / "notes").mkdir(exist_ok=True)
    read("NOT_A_DIRECTORY", "read of a path under a file", "a.txt/inner.txt", "twice.txt/x.md")
    (root / "loop_a").symlink_to("loop_b")
    (root / "loop_b").symlink_to("loop_a")
    read("IO_ERROR", "read of a symbolic link loop", "loop_a", "loop_b")
    # A link out of the root is often refused in other words than a path that leaves it.
    (root / f"{_PROBE_MARK}-link").symlink_to(outside / "secret.txt")
    (root / "shortcut").symlink_to(root.parent / "home" / ".ssh" / "authorized_keys")
    read("OUTSIDE_ROOT", "read through a link to a file outside the root",
         f"{_PROBE_MARK}-link", "shortcut")


# The tools a wrong type is sent to, the first mapped one: each takes a text its checks send.
_TAKE_TEXT = ("read_file", "write_file", "edit_file", "grep", "bash", "list_files")


def _bad_calls(client: Client, mapped: set[str]) -> list[Callable[[], Result]]:
    """A number where a string belongs, twice, sent to the first tool that takes text, as the
    run's checks send it: through the profile (nested where it nests, its defaults beside it),
    so that what is learned of it is the answer they get."""
    tool = next((name for name in _TAKE_TEXT if name in mapped), None)
    if tool is None:
        return []
    first = {"grep": "pattern", "bash": "command"}.get(tool, "path")
    return [partial(client.call, tool, **{first: number}) for number in (12345, 424242)]


def _validation(client: Client, found: Findings, mapped: set[str]) -> None:
    """A number where a string belongs, and arguments that are not an object: INVALID_ARGS's
    words."""
    bad = _bad_calls(client, mapped)
    if not bad:
        return
    failure(found, "INVALID_ARGS", "a call with a number for a text argument", *bad)
    tool = next(name for name in _TAKE_TEXT if name in mapped)
    # Arguments that are null, not an object: some word it apart (VALIDATE-09).
    name = client.profile.tool(tool).name
    failure(found, "INVALID_ARGS", "a call whose arguments are null",
            partial(client.call_raw, name, None))


def _features_of_reads(client: Client, found: Findings, max_output_chars: int,
                       mapped: set[str]) -> None:
    settle(found, "mention_prefix", "a read of @a.txt",
            lambda: client.call("read_file", path="@a.txt"),
            lambda r: r.success and "alpha" in r.data)
    # Numbered lines are a design the implementation chooses, as a mention prefix is (READ-07
    # judges only how they are numbered): settled by what the read shows, not a defect kept on.
    whole = settle(found, "line_numbers", "a read of a two-line file",
                   lambda: client.call("read_file", path="a.txt"),
                   lambda r: re.search(r"(?m)^\s*1\D.*alpha", shown_text(r.data)) is not None,
                   unsettled=lambda r: not r.success)
    text_place(found, whole, "alpha\nbeta\n")
    big = client.root / f"{_PROBE_MARK}-big.txt"
    big.write_text(("y" * 79 + "\n") * (max_output_chars // 40), encoding="utf-8")
    observe(found, "truncation", f"a read of {big.stat().st_size} characters",
            lambda: client.call("read_file", path=big.name),
            lambda r: not r.success or len(r.data) < 2 * max_output_chars, mapped)
    own_read_bound(client, found, f"{_PROBE_MARK}-huge.txt")
    if client.profile.tool("read_file").window_mode == "offset_limit":
        _window_base(client, found)
    elif _takes(client, "read_file", ("start_line", "end_line")):  # READ-12's refusal
        _start_end_base(client, found)
        failure(found, "INVALID_ARGS", "a read of a window ending before it starts",
                partial(client.call, "read_file", path="lines.txt", start_line=3, end_line=1),
                partial(client.call, "read_file", path="a.txt", start_line=2, end_line=1))


def _takes(client: Client, canonical: str, arguments: tuple[str, ...]) -> bool:
    """Whether the listed schema of the tool mapped to `canonical` has these arguments' targets."""
    mapping = client.profile.tool(canonical)
    properties = schema_of(_listed(client, canonical)).get("properties")
    return isinstance(properties, dict) and all(
        mapping.target(argument).split(".")[0] in properties for argument in arguments)


def _listed(client: Client, canonical: str) -> dict[str, Any]:
    """The listing's entry of the tool mapped to `canonical` ({} when it lists none)."""
    name = client.profile.tool(canonical).name
    return next((tool for tool in client.listing or () if tool.get("name") == name), {})


def _window_base(client: Client, found: Findings) -> None:
    """Line 2 alone, asked for with the drafted offset_base: which line came back says the base."""
    mapping = client.profile.tool("read_file")
    base = mapping.first_offset
    label = f"a read of line 2 of 3 (offset {1 + base}, limit 1)"
    result = safely(lambda: client.call("read_file", path="lines.txt", start_line=2,
                                         end_line=2), found, label)
    seen = [line for line in _LINES if result is not None and line in result.data]
    # offset = 1 + base: the line after (0-based read as 1-based) or before (the other way)
    answers: dict[tuple[str, ...], int | None] = {
        ("second-line",): base, ("third-line",): 0 if base == 1 else None,
        ("first-line",): 1 if base == 0 else None}
    settled = answers.get(tuple(seen))
    if result is None or not result.success or settled is None:
        found.capabilities["line_window"] = (False, f"TODO: {label} did not tell its base "
                                             f"({short(result) if result else 'no answer'}); "
                                             "off until offset_base is checked by hand")
        return
    found.keys.setdefault("read_file", {})["offset_base"] = settled
    found.evidence.setdefault("read_file", []).append(
        f"probe: {label} answered {seen[0]!r}: offset_base {settled}")
    found.capabilities["line_window"] = (True, f"{label} answered {seen[0]!r}")


def _start_end_base(client: Client, found: Findings) -> None:
    """A start/end window counted from 0 (a Python list of lines, both ends inclusive): offset_base
    0 where its schema says so and line 2 alone, asked for as the contract counts, answers the
    third line. Only both together: a window off by one that says nothing of its base is
    READ-06's to fail, and a schema's word alone may describe another count."""
    declared = _counted_from_zero(client)
    if declared is None:
        return
    label = "a read of line 2 of 3 (start_line 2, end_line 2, as the contract counts)"
    result = safely(lambda: client.call("read_file", path="lines.txt", start_line=2,
                                         end_line=2), found, label)
    seen = [line for line in _LINES if result is not None and line in result.data]
    if result is None or not result.success or seen != ["third-line"]:
        return
    found.keys.setdefault("read_file", {})["offset_base"] = 0
    found.evidence.setdefault("read_file", []).append(
        f"probe: {label} answered 'third-line', and its schema counts from 0 ({declared}): "
        "offset_base 0")


def _counted_from_zero(client: Client) -> str | None:
    """What the read tool's listing says of its window's start when it counts from 0: a start
    whose default is 0 (a line number from 1 has no line 0), or words that say so."""
    tool = _listed(client, "read_file")
    target = client.profile.tool("read_file").target("start_line")
    start = flat_properties(schema_of(tool)).get(target, {})
    default = start.get("default")
    if default == 0 and not isinstance(default, bool):
        return f"{target} defaults to 0"
    text = f"{start.get('description', '')} {tool.get('description', '')}"
    zero = ZERO_BASED.search(text)
    return repr(zero.group(0)) if zero and not ONE_BASED.search(text) else None
