"""`agentconf init --from`: `[[error_patterns]]` induced from the probe's failure answers.

A pattern is kept only when it matches an answer of its own kind and none of the answers of
another kind: each candidate is checked against every probe answer, most general first (the
message's head, then its head and next segment, then its whole first line with the variable
parts made wildcards). A head that says nothing but "error" (`Error`, `Tool`, `MCP error -32602`)
is never a pattern on its own: it would match every failure.
"""

import re
from dataclasses import dataclass

from agentconf.contract import ERROR_CODES

_CUT = re.compile(r"['\"`]")  # a quoted value: variable, never part of the pattern
_QUOTED = re.compile(r"""(['"`])(?:(?!\1).)*\1""")
# A count (256.1 in one; "found 2." at a sentence's end: fs-mcp 1.47.3); -32602 and 1.2.3 stay.
_NUMBER = re.compile(r"(?<![\d.-])\d{1,3}(?:\.\d+)?(?!\d|\.\d)")
_SEPARATOR = re.compile(r"( - |: )")
_GENERIC = {"error", "errors", "err", "tool", "failed", "failure", "exception", "warning",
            "invalid", "unable", "cannot", "result", "mcp", "the", "a", "an", "could", "not",
            "call", "request"}
_MAX_LITERAL = 80
# A code the server spells out at the start of its message: `NOT_FOUND: ...`, `ACCESS_DENIED: ...`
SPELLED_CODE = r"\A(?P<code>[A-Z][A-Z_]+):"
_SPELLED = re.compile(SPELLED_CODE)
# A variable part (a quoted old text) may span lines: the wildcard crosses them.
_WILD = "(?s:.*?)"
# A number's place in a template: `\d+` in the pattern, so "EXIT_CODE: 3" does not also match
# "EXIT_CODE: unknown" (bash-command-mcp). A private-use character no message carries.
_DIGITS = "\ue000"


@dataclass(frozen=True)
class Answer:
    """One failing probe answer whose envelope carried no code."""

    code: str  # the code the probe expects
    label: str  # what the probe did
    text: str


def induce(answers: list[Answer], variable: tuple[str, ...],
           first: list[tuple[str, str, str]] | None = None
           ) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(code, regex, evidence) patterns and the notes of what could not be kept.

    `variable`: strings an answer may quote back of the probe itself (paths, tool names).
    `first`: patterns already settled (code "": the code is spelled in the text).
    """
    kept: list[tuple[str, str, str]] = list(first or [])
    refusals: dict[int, str] = {}
    # Patterns apply in order, so a second round may keep a general pattern after a specific
    # one: "Exit code" for NONZERO_EXIT once "Exit code ... Command timed out" is TIMEOUT's.
    # It is a second round alone: in the first, a head many kinds share ("Tool X input is
    # invalid") would be kept for the last of them and classify every other answer it meets.
    for relaxed in (False, True):
        for index, answer in enumerate(answers):
            if any(re.search(regex, answer.text) for code, regex, _ in kept
                   if code in ("", answer.code)):
                refusals.pop(index, None)
                continue  # its code is spelled out, or a pattern of its own kind covers it
            refusals[index] = _keep_one(answer, answers, variable, kept, relaxed)
    notes = [f"TODO: no pattern kept for {answers[index].code} from {answers[index].label} "
             f"({neutral(answers[index].text, variable)[:80]!r}): {why}"
             for index, why in sorted(refusals.items()) if why]
    return kept, notes


def _keep_one(answer: Answer, answers: list[Answer], variable: tuple[str, ...],
              kept: list[tuple[str, str, str]], relaxed: bool) -> str:
    """Appends the most general candidate that no answer of another kind reaches (`relaxed`:
    none but those an earlier pattern already gives their own code); "" when kept, else why."""
    refused: list[str] = []
    for candidate in candidates(answer.text, variable):
        clash = [other for other in answers if other.code != answer.code
                 and re.search(candidate, other.text)
                 and not (relaxed and _first_code(kept, other) == other.code)]
        if clash:
            refused.append(f"{_literal(candidate)!r} also matches {clash[0].label} "
                           f"({clash[0].code})")
            continue
        kept.append((answer.code, candidate, f"{answer.label} answered "
                                              f"{neutral(answer.text, variable)!r}"))
        return ""
    return "; ".join(refused) or "its text has no stable start"


def _first_code(kept: list[tuple[str, str, str]], answer: Answer) -> str | None:
    """The code the first kept pattern that matches gives the answer (a spelled one: its own)."""
    for code, regex, _ in kept:
        if re.search(regex, answer.text):
            return code or answer.code
    return None


def spelled_codes(answers: list[Answer]) -> tuple[dict[str, str], str] | None:
    """Codes the server spells out as a text prefix, when it does so consistently: their
    spelling -> ours (for [error_codes]) and the evidence; None when it does not (a prefix that
    stands for several kinds, `ERROR:`, is no code; nor is Node's `ENOENT:` alone: at least one
    spelling must be a contract code)."""
    kinds: dict[str, set[str]] = {}
    for answer in answers:
        found = _SPELLED.search(answer.text)
        if found:
            kinds.setdefault(found.group("code"), set()).add(answer.code)
    # A contract code is the server's word even where the probe expected another (a write of a
    # folder answered NOT_FOUND: a departure the run judges); its own spellings must be one kind.
    if not kinds or any(len(ours) > 1 for spelled, ours in kinds.items()
                        if spelled not in ERROR_CODES):
        return None
    if not set(kinds) & set(ERROR_CODES):
        return None
    theirs = {spelled: next(iter(ours)) for spelled, ours in kinds.items()
              if spelled not in ERROR_CODES}
    return theirs, f"its failures start with a code: {', '.join(sorted(kinds))}"


def candidates(message: str, variable: tuple[str, ...]) -> list[str]:
    """Anchored regexes for a message, most general first; none that says only "error". A
    message whose first line says nothing but "error" (zod's `Error: [` and its issues as JSON on
    the next lines) is read over its first lines too, any whitespace between words."""
    lines = message.strip().split("\n")
    out: list[str] = []
    for text, flexible in ((lines[0], False), (" ".join(line.strip() for line in lines[:4]),
                                               True)):
        segments = _segments(_template(text, variable))
        for count in range(1, len(segments) + 1):
            regex = _regex(segments[:count], flexible)
            if regex is not None and regex not in out:
                out.append(regex)
        if len(lines) == 1:
            break
    return out


def _template(line: str, variable: tuple[str, ...]) -> list[str | None]:
    """The line as literal pieces and None for each variable part (a path, a tool name, a
    quoted value, a number), cut after _MAX_LITERAL literal characters."""
    spans: list[tuple[int, int, str | None]] = []  # (start, end, None or _DIGITS)
    for value in sorted({v for v in variable if v}, key=len, reverse=True):
        word = r"(?<![A-Za-z0-9_])" + re.escape(value)
        for found in re.finditer(word + r"[^\s'\"`,]*", line):
            spans.append((*found.span(), None))  # the whole path it starts
    for quoted in _QUOTED.finditer(line):  # a quoted value; a JSON key ("code": ...) stays
        if not (quoted.group(1) == '"' and re.match(r"\s*:", line[quoted.end():])):
            spans.append((*quoted.span(), None))
    quote = _CUT.search(_QUOTED.sub(lambda found: " " * len(found.group(0)), line))
    if quote:  # from a quote left open on, anything may be quoted back
        spans.append((quote.start(), len(line), None))
    spans.extend((*found.span(), _DIGITS) for found in _NUMBER.finditer(line))
    pieces: list[str | None] = []
    at = 0
    for start, end, kind in sorted(spans, key=lambda span: span[:2]):
        if start < at:
            at = max(at, end)
            continue
        pieces.extend([line[at:start], kind])
        at = end
    pieces.append(line[at:])
    literal, out = 0, list[str | None]()
    for piece in pieces:
        if piece is not None and piece != _DIGITS:
            if literal + len(piece) > _MAX_LITERAL:
                out.append(piece[:_MAX_LITERAL - literal].rsplit(" ", 1)[0])
                break
            literal += len(piece)
        out.append(piece)
    return out


def _segments(pieces: list[str | None]) -> list[list[str | None]]:
    """The template cut after each " - " or ": " separator (Node's "ENOENT: no such file...",
    "Access denied - path outside..."): the message's head, then more of it."""
    segments: list[list[str | None]] = [[]]
    for piece in pieces:
        if piece is None or piece == _DIGITS:
            segments[-1].append(piece)
            continue
        parts = _SEPARATOR.split(piece)
        for index, part in enumerate(parts):
            if index % 2 == 1:  # a separator: it ends a segment
                segments[-1].append(part)
                segments.append([])
            elif part:
                segments[-1].append(part)
    return [segment for segment in segments if segment]


def _regex(segments: list[list[str | None]], flexible: bool = False) -> str | None:
    pieces = [piece for segment in segments for piece in segment]
    while pieces and (pieces[-1] is None or not str(pieces[-1]).strip(" :-,")):
        pieces.pop()
    if not pieces:
        return None
    if pieces[-1] != _DIGITS:
        pieces[-1] = str(pieces[-1]).rstrip(" :-,") if pieces[-1] is not None else None
    text = "".join(" " if piece in (None, _DIGITS) else str(piece) for piece in pieces)
    # Words in any script: mcp-filesystem-server 1.0.3 words its failures in Korean.
    meaningful = [w for w in re.findall(r"[^\W\d]+", text) if w.lower() not in _GENERIC]
    if not meaningful or len("".join(meaningful)) < 4:
        return None  # "Error", "Tool", "MCP error -32602": it would match every failure
    body = "".join(_WILD if piece is None else r"\d+" if piece == _DIGITS
                   else _escape(piece, flexible) for piece in pieces)
    return r"\A" + body


def _escape(piece: str, flexible: bool = False) -> str:
    """Regex specials escaped; spaces and `-` left readable in the drafted pattern (any
    whitespace, `\\s*`, where the text came from several lines)."""
    return re.escape(piece).replace("\\ ", r"\s*" if flexible else " ").replace("\\-", "-")


def _literal(regex: str) -> str:
    return regex.removeprefix(r"\A").replace("\\", "")


def neutral(text: str, variable: tuple[str, ...]) -> str:
    """The message for a comment: the scratch sandbox's paths made neutral, cut short."""
    return text.replace(variable[1], "<ROOT>").replace(variable[0], "<SANDBOX>")[:100]
