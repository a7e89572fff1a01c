"""`agentconf init --from`: harmless calls in a scratch sandbox that teach the draft what the
implementation's failures look like (error patterns, or its own spelling of codes) and which
optional features it shows. Only canonical tools are called, through the draft's mapping;
nothing outside the scratch sandbox is written.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentconf.contract import ERROR_CODES

from .client import Client, Result, neutralise
from .errors import ContractViolation, ImplementationFailure

_PROBE_MARK = "agentconf-probe"
_CUT = re.compile(r"['\"`\n]")  # a quoted path or the next line: not part of the pattern
# Regex specials escaped; spaces, `-` and `:` left readable in the drafted pattern.
_SPECIAL = re.compile(r"([.^$*+?{}\[\]\\|()])")
_MAX_PREFIX = 60
_SEPARATOR = re.compile(r"( - |: )")
_VAGUE = re.compile(r"(?i)(mcp )?(error|failed|failure|exception)( -?\d+)?")


@dataclass
class Findings:
    patterns: list[tuple[str, str, str]] = field(default_factory=list)  # code, regex, evidence
    error_codes: dict[str, tuple[str, str]] = field(default_factory=dict)  # theirs -> ours, ev.
    capabilities: dict[str, tuple[bool, str]] = field(default_factory=dict)  # name -> value, ev.
    notes: list[str] = field(default_factory=list)


def probe(client: Client, mapped: set[str], max_output_chars: int) -> Findings:
    found = Findings()
    ws_root = client.root
    (ws_root / f"{_PROBE_MARK}-dir").mkdir(exist_ok=True)
    (ws_root / "a.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    # Edited before any read: a.txt is read by the read probes, which would satisfy a
    # read-before-edit rule and hide it.
    (ws_root / "unread.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    (ws_root / "twice.txt").write_text("same\nsame\n", encoding="utf-8")
    (ws_root / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    (ws_root / "curly.txt").write_text("say \u201chi\u201d\n", encoding="utf-8")
    # What a message may quote back of the probe itself: never part of a pattern.
    roots = (str(ws_root.parent), str(ws_root), _PROBE_MARK, "12345", "a.txt", "twice.txt",
             "unread.txt",
             *(mapping.name for mapping in client.profile.tools.values()))

    def failure(code: str, label: str, call: Callable[[], Result]) -> None:
        result = _safely(call, found, label)
        if result is None or result.success:
            if result is not None:
                found.notes.append(f"{label}: succeeded, so no {code} was learned")
            return
        _learn(found, code, label, result, roots)

    if "read_file" in mapped:
        failure("NOT_FOUND", "read of a missing file",
                lambda: client.call("read_file", path=f"{_PROBE_MARK}-missing.txt"))
        # Some implementations word a missing folder apart from a missing file.
        failure("NOT_FOUND", "read of a file in a missing folder",
                lambda: client.call("read_file", path=f"{_PROBE_MARK}-nodir/missing.txt"))
        (ws_root / f"{_PROBE_MARK}-dangling").symlink_to(f"{_PROBE_MARK}-nowhere.txt")
        failure("NOT_FOUND", "read of a dangling link",
                lambda: client.call("read_file", path=f"{_PROBE_MARK}-dangling"))
        failure("IS_DIRECTORY", "read of a folder",
                lambda: client.call("read_file", path=f"{_PROBE_MARK}-dir"))
        failure("NOT_A_DIRECTORY", "read of a path under a file",
                lambda: client.call("read_file", path="a.txt/inner.txt"))
        (ws_root / "loop_a").symlink_to("loop_b")
        (ws_root / "loop_b").symlink_to("loop_a")
        failure("IO_ERROR", "read of a symbolic link loop",
                lambda: client.call("read_file", path="loop_a"))
        failure("OUTSIDE_ROOT", "read of ../outside/secret.txt",
                lambda: client.call("read_file", path="../outside/secret.txt"))
        # A link out of the root is often refused in other words than a path that leaves it.
        (ws_root / f"{_PROBE_MARK}-link").symlink_to(ws_root.parent / "outside" / "secret.txt")
        failure("OUTSIDE_ROOT", "read through a link to a file outside the root",
                lambda: client.call("read_file", path=f"{_PROBE_MARK}-link"))
        failure("INVALID_ARGS", "read with a number for its path",
                lambda: client.call_raw(client.tool_name("read_file"), {
                    client.profile.tool("read_file").target("path"): 12345}))
        _feature(found, "validation_issues", "read with a number for its path", client,
                 lambda: client.call_raw(client.tool_name("read_file"), {
                     client.profile.tool("read_file").target("path"): 12345}),
                 lambda r: r.success or r.issues is not None)
        _features_of_reads(client, found, max_output_chars)
    if "edit_file" in mapped:
        failure("TEXT_NOT_FOUND", "edit of text that is not there", lambda: client.call(
            "edit_file", path="a.txt", old_text=f"{_PROBE_MARK} absent", new_text="x"))
        failure("TEXT_MULTIPLE_MATCHES", "edit of text that is there twice", lambda: client.call(
            "edit_file", path="twice.txt", old_text="same", new_text="other"))
        _features_of_edits(client, found, can_read="read_file" in mapped)
    if "write_file" in mapped:
        _feature(found, "create_parents", "a write under a missing folder", client, lambda: (
            client.call("write_file", path=f"{_PROBE_MARK}-new/sub/f.txt", content="x")),
            lambda r: r.success)
    return found


def _safely(call: Callable[[], Result], found: Findings, label: str) -> Result | None:
    try:
        return call()
    except (ImplementationFailure, ContractViolation) as error:
        found.notes.append(f"{label}: {type(error).__name__}: {str(error)[:200]}")
        return None


def _learn(found: Findings, code: str, label: str, result: Result,
           roots: tuple[str, ...]) -> None:
    theirs = result.raw.get("error") if isinstance(result.raw, dict) else None
    if isinstance(theirs, str) and theirs:
        if theirs in ERROR_CODES:
            if theirs != code:
                found.notes.append(f"{label}: answered {theirs}, the contract expects {code}")
            return
        found.error_codes.setdefault(theirs, (code, f"{label} answered error {theirs!r}"))
        return
    if result.error is not None:  # the adapter settled it (an MCP protocol error)
        return
    prefix = _prefix(result.data, roots)
    if prefix is None:
        found.notes.append(f"{label}: TODO no pattern for {code} could be read from "
                           f"{result.data[:120]!r}")
        return
    regex = r"\A" + _SPECIAL.sub(r"\\\1", prefix)
    clash = [entry for entry in found.patterns if entry[1] == regex and entry[0] != code]
    if clash:
        found.patterns.remove(clash[0])
        found.notes.append(f"TODO: {clash[0][0]} and {code} answer alike ({prefix!r}); "
                           "no pattern kept for either")
        return
    if not any(entry[1] == regex for entry in found.patterns):
        found.patterns.append((code, regex, f"{label} answered {_neutral(result.data, roots)!r}"))


def _neutral(text: str, roots: tuple[str, ...]) -> str:
    """The message for a comment: the scratch sandbox's paths made neutral, cut short."""
    return text.replace(roots[1], "<ROOT>").replace(roots[0], "<SANDBOX>")[:100]


def _prefix(message: str, roots: tuple[str, ...]) -> str | None:
    """The stable start of a message: up to a path, a quote, a number or the next line."""
    text = message.strip()
    cut = len(text)
    for root in roots:
        where = text.find(root)
        if where != -1:
            cut = min(cut, where)
    match = _CUT.search(text)
    if match:
        cut = min(cut, match.start())
    prefix = text[:cut]
    # The message's head, before its first " - " or ": ", names the failure; what follows says
    # where (Node's "ENOENT: no such file ..., open", "Access denied - path outside ...").
    # A head that only says "error" ("Error", "MCP error -32602") keeps its next segment.
    parts = _SEPARATOR.split(prefix, maxsplit=2)
    if len(parts) > 1 and len(parts[0]) >= 4:
        vague = _VAGUE.fullmatch(parts[0]) is not None and len(parts) > 2
        prefix = parts[0] + (parts[1] + parts[2] if vague else "")
    if len(prefix) > _MAX_PREFIX:  # at a word's end
        prefix = prefix[:_MAX_PREFIX].rsplit(" ", 1)[0]
    prefix = prefix.rstrip(" :-,")
    return prefix if len(prefix) >= 4 else None


def _feature(found: Findings, name: str, label: str, client: Client,
             call: Callable[[], Result], present: Callable[[Result], bool]) -> Result | None:
    result = _safely(call, found, label)
    if result is not None and not present(result):
        found.capabilities[name] = (False, f"{label}: {_short(result)}")
    return result


def _features_of_reads(client: Client, found: Findings, max_output_chars: int) -> None:
    _feature(found, "mention_prefix", "a read of @a.txt", client,
             lambda: client.call("read_file", path="@a.txt"),
             lambda r: r.success and "alpha" in r.data)
    _feature(found, "line_numbers", "a read of a two-line file", client,
             lambda: client.call("read_file", path="a.txt"),
             lambda r: r.success and re.search(r"(?m)^\s*1\D.*alpha", r.data) is not None)
    big = client.root / f"{_PROBE_MARK}-big.txt"
    big.write_text(("y" * 79 + "\n") * (max_output_chars // 40), encoding="utf-8")
    _feature(found, "truncation", f"a read of {big.stat().st_size} characters", client,
             lambda: client.call("read_file", path=big.name),
             lambda r: not r.success or len(r.data) < 2 * max_output_chars)


def _features_of_edits(client: Client, found: Findings, can_read: bool) -> None:
    unread = _feature(found, "read_before_edit", "an edit of a file never read", client,
                      lambda: client.call("edit_file", path="unread.txt", old_text="beta",
                                          new_text="gamma"),
                      lambda r: not r.success)
    if unread is not None and unread.success:
        found.capabilities["stale_read"] = (False, "no read_before_edit, so no stale reads")
        _feature(found, "diff", "a successful edit", client, lambda: unread,
                 lambda r: bool(r.diff))
        _feature(found, "summary", "a successful edit", client, lambda: unread,
                 lambda r: bool(r.summary))
    if can_read:  # an implementation that wants a read before an edit gets one
        _safely(lambda: client.call("read_file", path="crlf.txt"), found, "read of crlf.txt")
        _safely(lambda: client.call("read_file", path="curly.txt"), found, "read of curly.txt")
    _feature(found, "crlf_preserve", "an edit of a CRLF file", client,
             lambda: client.call("edit_file", path="crlf.txt", old_text="one", new_text="uno"),
             lambda r: (client.root / "crlf.txt").read_bytes().count(b"\r\n") == 2)
    _feature(found, "curly_quotes", "an edit with straight quotes of curly ones", client,
             lambda: client.call("edit_file", path="curly.txt", old_text='say "hi"',
                                 new_text="say bye"),
             lambda r: r.success)


def _short(result: Result) -> str:
    state = "succeeded" if result.success else "failed"
    return f"{state}: {neutralise(result.data, result._replacements)[:80]!r}"


def findings_as_dict(found: Findings) -> dict[str, Any]:  # for tests and debugging
    return {"patterns": found.patterns, "error_codes": found.error_codes,
            "capabilities": found.capabilities, "notes": found.notes}
