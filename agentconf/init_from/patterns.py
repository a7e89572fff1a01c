"""`agentconf init --from`: `[[error_patterns]]` induced from the probe's failure answers.

A pattern is kept only when it matches an answer of its own kind and none of the answers of
another kind: each candidate is checked against every probe answer, most general first (the
message's head, its head and next segment, its first line with the variable parts wildcards).
A head saying nothing but "error" (`Error`, `Tool`, `MCP error -32602`) is never a pattern.
"""

import re

from agentconf.contract import ERROR_CODES
from agentconf.harness.session.answers import document_of, strings_in
from agentconf.harness.verdicts.wording import worded_lines
from agentconf.init_from.probe_answer import Answer, message, same_message, unquoted
from agentconf.init_from.words import says_kind

_CUT = re.compile(r"['\"`]")  # a quoted value: variable, never part of the pattern
_QUOTED = re.compile(r"""(['"`])(?:(?!\1).)*\1""")
# Any count or size (524313), a signed status (-15), a signal, a duration; -32602, 1.2.3 stay.
_NUMBER = re.compile(r"(?<![\d.-])(?:\d+|-\d{1,3})(?:\.\d+)?(?!\d|\.\d)"
                     r"|\bSIG[A-Z]{3,}\b|\d+(?= ?m?s\b)")
_SEPARATOR = re.compile(r"( - |: )")
_GENERIC = {"error", "errors", "err", "tool", "failed", "failure", "exception", "warning",
            "invalid", "unable", "cannot", "result", "mcp", "the", "a", "an", "could", "not",
            "call", "request"}
# A status alone (`false`, `{"success": false}`) says that a call failed, never why: a failure
# marker may be one (markers.py), a code's pattern never.
STATUS_WORDS = frozenset({"false", "true", "null", "none", "nil", "undefined", "success",
                          "successful", "status", "ok", "fail", "no", "yes"})
_MAX_LITERAL = 80
# Codes a probe only guesses at (a link loop is answered as a missing file as often as an I/O
# error): learnt only from words that say it; where another kind's words, that kind keeps them.
GUESSED = frozenset({"IO_ERROR"})
# A code the server spells out at the start of its message: `NOT_FOUND: ...`, `ACCESS_DENIED: ...`
SPELLED_CODE = r"\A(?P<code>[A-Z][A-Z_]+):"
# ... or after a head its failures open with, one per tool ("Error editing file: NOT_READ: ..."):
# the first word of capitals followed by a colon on the first line.
HEADED_CODE = r"\A[^\n]{0,80}?(?<!\w)(?P<code>[A-Z][A-Z_]+):"
_SPELLED = re.compile(SPELLED_CODE)
# A variable part (a quoted old text) may span lines: the wildcard crosses them.
_WILD = "(?s:.*?)"
# A number's place in a template (a private-use character no message carries): a number or a
# signal's name in the pattern, so "EXIT_CODE: 3" never matches "EXIT_CODE: unknown".
_DIGITS = "\ue000"


def induce(answers: list[Answer], variable: tuple[str, ...],
           first: list[tuple[str, str, str]] | None = None, others: tuple[Answer, ...] = ()
           ) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(code, regex, evidence) patterns and the notes of what could not be kept.

    `variable`: strings an answer may quote back of the probe itself (paths, tool names).
    `first`: patterns already settled (code "": the code is spelled in the text).
    `others`: answers whose code was read elsewhere (a field, structured content): no pattern
    is learnt from them, and none is kept that fits one of another kind ("The request could not
    be completed." for every failure, its kind in structured content alone)."""
    kept: list[tuple[str, str, str]] = list(first or [])
    refusals: dict[int, str] = {}
    # Patterns apply in order, so a second round may keep a general pattern after a specific
    # one: "Exit code" for NONZERO_EXIT once "Exit code ... Command timed out" is TIMEOUT's.
    # It is a second round alone: in the first, a head many kinds share ("Tool X input is
    # invalid") would be kept for the last of them and classify every other answer it meets.
    for relaxed in (False, True):
        for index, one in enumerate(answers):
            if any(re.search(regex, one.text) for code, regex, _ in kept
                   if code in ("", one.code)):
                refusals.pop(index, None)
                continue  # its code is spelled out, or a pattern of its own kind covers it
            if (claimed := _first_code(kept, one)) not in (None, one.code):
                # Read as that kind first, whatever is kept after: a pattern of its own would
                # reach only answers no probe showed ("outside allowed directories").
                refusals[index] = f"a pattern of {claimed} reads it first, in that kind's words"
                continue
            refusals[index] = _keep_one(one, answers, variable, kept, relaxed, others)
    said: dict[tuple[str, str], str] = {}  # one note per provocation: its twins say no more
    for index, why in sorted(refusals.items()):
        one = answers[index]
        if why and (one.code, one.label) not in said:
            said[one.code, one.label] = (f"TODO: no pattern kept for {one.code} from {one.label} "
                                         f"({neutral(one.text, variable)[:80]!r}): {why}")
    notes = list(said.values())
    return kept, notes


def _keep_one(answer: Answer, answers: list[Answer], variable: tuple[str, ...],
              kept: list[tuple[str, str, str]], relaxed: bool, others: tuple[Answer, ...] = ()
              ) -> str:
    """Appends the best candidate that no answer of another kind reaches (`relaxed`: none but
    those an earlier pattern already gives their own code); "" when kept, else why.

    Best: one that also matches its twins (a pattern that fits one of them alone has learnt the
    probe, not the message); else the most general, where its words say what its kind is."""
    refused: list[str] = []
    fitting: list[str] = []
    # Its twins (what is incidental varied): a pattern of the message fits them too.
    siblings = [other for other in answers if other.code == answer.code
                and other.label == answer.label and other is not answer]
    # Its words say what the probe expected: else one answer of another kind (a read guard's
    # "read it first" to a probe of a folder) would teach a code it does not have.
    plausible = says_kind(answer.code, message(answer))
    # Words of no kind ("Missing arguments") only where every probe of the kind says them.
    kindred = [o for o in answers if _kin(o, answer)] if not plausible else []
    if answer.code in GUESSED and not plausible:  # a guess is learnt from words saying it only
        return f"its words say nothing of {answer.code}, which this probe only guesses"
    candidates = [c for c in _all_candidates(answer, variable) if re.search(c, answer.text)]
    if plausible:  # of those that fit as many answers of its kind, its opening words run on
        # to its kind's first: "Write error: EISDIR", not the "Write error" every failed write
        # may start with (a pattern that reads a refusal's code wrong fails its clause)
        kind = [message(other) for other in answers if other.code == answer.code]
        candidates.sort(key=lambda candidate: (
            -sum(1 for text in kind if re.search(candidate, text)),
            not (candidate.startswith(r"\A") and "(?s:.*?)" not in candidate
                 and says_kind(answer.code, literal(candidate)))))
    # First, one no answer of another kind reaches, however its code was guessed.
    for candidate in candidates if siblings else ():
        if all(re.search(candidate, twin.text) for twin in (*siblings, *kindred)) and not any(
                re.search(candidate, o.text) for o in (*answers, *others)
                if o.code != answer.code):
            return _keep(kept, answer, candidate, variable, len(siblings))
    for candidate in candidates:
        # Another kind's answer in words that say this kind, not that one ("File not found"
        # to a path under a file too) is no clash: a departure its own clause judges.
        clash = [other for other in (*answers, *others) if other.code != answer.code
                 and re.search(candidate, other.text)
                 and not (relaxed and _first_code(kept, other) == other.code)
                 and not (other.code in GUESSED and answer.code not in GUESSED)
                 and not (plausible and same_message(answer, other)
                          and not says_kind(other.code, message(other)))]
        if clash:
            refused.append(f"{literal(candidate)!r} also matches {clash[0].label} "
                           f"({clash[0].code})")
            continue
        if siblings and all(re.search(candidate, other.text) for other in (*siblings, *kindred)):
            return _keep(kept, answer, candidate, variable, len(siblings))
        fitting.append(candidate)
    if fitting and plausible:  # the most general of its own: the others' words differ
        return _keep(kept, answer, fitting[0], variable, 0)
    if fitting:
        return (f"{literal(fitting[0])!r} fits this answer alone"
                + (f", not its {len(siblings)} sibling(s)," if siblings else ",")
                + f" and says nothing of {answer.code}")
    # The first three say why (a draft once listed thirty on one line); the rest, how many.
    more = f"; and {len(refused) - 3} more alike" if len(refused) > 3 else ""
    return "; ".join(refused[:3]) + more or "its text has no stable part"


# Kinds of one cause: every probe of one is the same provocation whatever else it sends (a
# tool is unknown for its name alone), so words one probe alone gets are that probe's call's.
_ONE_CAUSE = frozenset({"TOOL_NOT_FOUND"})


def _kin(one: Answer, other: Answer) -> bool:
    return one.code == other.code and one.code in _ONE_CAUSE


def _keep(kept: list[tuple[str, str, str]], answer: Answer, regex: str,
          variable: tuple[str, ...], held_out: int) -> str:
    also = f" (and {held_out} more probe(s) of its kind)" if held_out else ""
    kept.append((answer.code, regex, f"{answer.label} answered "
                                     f"{neutral(worded_lines(answer.text), variable)!r}{also}"))
    return ""


def _all_candidates(answer: Answer, variable: tuple[str, ...]) -> list[str]:
    """Its starts, its phrases, then a JSON answer's strings' (a message is a quoted value), every
    variable part left out (paths, what the call sent, quoted values, numbers), past one quoting."""
    variable = (*variable, *answer.said)
    text, quoted = unquoted(answer.text)
    starts = candidates(text, variable)
    if quoted:
        starts = [r"""\A\s*"?""" + regex.removeprefix(r"\A") for regex in starts]
    inner = [r for said in strings_in(document_of(text)) for r in phrases(said, variable)]
    return list(dict.fromkeys([*starts, *phrases(text, variable), *inner]))


def _first_code(kept: list[tuple[str, str, str]], answer: Answer) -> str | None:
    """The code the first kept pattern that matches gives the answer (a spelled one: its own)."""
    for code, regex, _ in kept:
        if re.search(regex, answer.text):
            return code or answer.code
    return None


def spelled_codes(answers: list[Answer]) -> tuple[dict[str, str], str, str] | None:
    """Codes the server spells out in its text, when it does so consistently: their spelling
    -> ours (for [error_codes]), the evidence and the pattern that reads them (at the start,
    else after a head); None when it does not (a prefix that stands for several kinds, `ERROR:`,
    is no code; nor is Node's `ENOENT:` alone: at least one spelling must be a contract code)."""
    for regex in (SPELLED_CODE, HEADED_CODE):
        found = _spelled_by(re.compile(regex), answers)
        if found is not None:
            return (*found, regex)
    return None


def _spelled_by(spelled: re.Pattern[str], answers: list[Answer]
                ) -> tuple[dict[str, str], str] | None:
    kinds: dict[str, set[str]] = {}
    for answer in answers:
        found = spelled.search(answer.text)
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
    return theirs, f"its failures {'start with' if spelled.pattern == SPELLED_CODE else 'name'} " \
        f"a code: {', '.join(sorted(kinds))}"


def candidates(message: str, variable: tuple[str, ...], status: bool = False) -> list[str]:
    """Anchored regexes for a message, most general first; none that says only "error". A
    message whose first line says nothing but "error" (zod's `Error: [` and its issues as JSON on
    the next lines) is read over its first lines too, any whitespace between words."""
    lines, out = message.strip().split("\n"), []
    lead = r"\A\s*" if message[:1].isspace() else r"\A"  # where it starts: blank lines too
    for text, flexible in ((lines[0], False), (" ".join(line.strip() for line in lines[:4]),
                                               True)):
        segments = _segments(_template(text, variable))
        for count in range(1, len(segments) + 1):
            regex = _regex(segments[:count], flexible, status)
            if regex is not None and (regex := lead + regex.removeprefix(r"\A")) not in out:
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


def _regex(segments: list[list[str | None]], flexible: bool = False, status: bool = False
           ) -> str | None:
    pieces = [piece for segment in segments for piece in segment]
    while pieces and (pieces[-1] is None or not str(pieces[-1]).strip(" :-,")):
        pieces.pop()
    if not pieces:
        return None
    if pieces[-1] != _DIGITS:
        pieces[-1] = str(pieces[-1]).rstrip(" :-,") if pieces[-1] is not None else None
    text = "".join(" " if piece in (None, _DIGITS) else str(piece) for piece in pieces)
    # Words in any script: a server may word its failures in Korean.
    said_nothing = _GENERIC if status else _GENERIC | STATUS_WORDS
    meaningful = [w for w in re.findall(r"[^\W\d]+", text) if w.lower() not in said_nothing]
    if not meaningful or len("".join(meaningful)) < 4:
        return None  # "Error", "Tool", "MCP error -32602": it would match every failure
    body = "".join(_WILD if piece is None else r"(?:-?\d+|SIG[A-Z]+)" if piece == _DIGITS
                   else _escape(piece, flexible) for piece in pieces)
    return r"\A" + body


def _escape(piece: str, flexible: bool = False) -> str:
    """Regex specials escaped; spaces and `-` left readable in the drafted pattern (any
    whitespace, `\\s*`, where the text came from several lines)."""
    return re.escape(piece).replace("\\ ", r"\s*" if flexible else " ").replace("\\-", "-")


def literal(regex: str) -> str:
    r"""A pattern as a reader reads it in a note: escaped punctuation shown plain (`\.` as `.`),
    character classes kept (`\W+`, `\w`, `\s`)."""
    return re.sub(r"\\([^A-Za-z0-9])", r"\1", regex.removeprefix(r"\A").removeprefix(r"\s*"))


def neutral(text: str, variable: tuple[str, ...]) -> str:
    """The message for a comment: the scratch sandbox's paths made neutral, cut short."""
    return text.replace(variable[1], "<ROOT>").replace(variable[0], "<SANDBOX>")[:100]


_MAX_PHRASE = 5


def phrases(message: str, variable: tuple[str, ...]) -> list[str]:
    """Runs of words of the first lines that hold words (a banner says none), searched anywhere
    (`'x.txt' is a directory`), longest first, any non-word characters between; none that says
    only "error". Then each later line's: a report may list the call's fields first, its error
    lines down (`成功: 否`, `文件路径: ...`, then `错误: ...`)."""
    lines = worded_lines(message).strip().split("\n")
    found = _phrases_of(" ".join(line.strip() for line in lines[:_FIRST_LINES]), variable)
    later = [regex for line in lines[_FIRST_LINES:_LATER_LINES]
             for regex in _phrases_of(line.strip(), variable)]
    return [*found, *sorted(dict.fromkeys(r for r in later if r not in found),
                            key=lambda regex: -regex.count(r"\W+"))]


_FIRST_LINES, _LATER_LINES = 4, 12  # the lines read together, and the last one read at all


def _phrases_of(text: str, variable: tuple[str, ...]) -> list[str]:
    runs: list[list[str]] = []
    for piece in _template(text, variable):  # words of a literal piece, never across a variable
        if piece is not None and piece != _DIGITS:
            runs.append(re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", piece))
    found: list[tuple[int, str]] = []
    for words in runs:
        for size in range(min(_MAX_PHRASE, len(words)), 0, -1):
            for start in range(len(words) - size + 1):
                chosen = words[start:start + size]
                meaningful = [w for w in chosen if w.lower() not in _GENERIC | STATUS_WORDS]
                if not meaningful or len("".join(meaningful)) < 4:
                    continue
                regex = (r"(?<!\w)" + r"\W+".join(re.escape(w) for w in chosen) + r"(?!\w)")
                if regex not in (r for _, r in found):
                    found.append((size, regex))
    found.sort(key=lambda item: -item[0])
    return [regex for _, regex in found]
