"""`init --from`: a failure marker for a tool whose failures say success.

Some tool systems answer every failure as a success whose words refuse ("Error: ...", "Security
violation: ...", "Fehler: ..."): without a marker every such refusal reads as a success and each
clause about it fails for the kit's want of a premise. The draft sees them on calls no disk lets
succeed, and tells them from the same tool's real successes (answers to calls the self-check saw
do their work): the marker is the start the refusals share, or failing that one refusal word
near the start of each, kept only when no real success matches it.
"""

import re
from collections.abc import Iterable

from agentconf.harness.verdicts.wording import says_refusal, unwrapped
from agentconf.init_from.patterns import candidates


def draft_marker(refusals: list[str], successes: Iterable[str], variable: tuple[str, ...],
                 said: list[tuple[str, ...]] | None = None) -> str | None:
    """A regular expression every refusal matches and no real success does (one alternative
    per refusal where they share no start), else None. `variable`: what an answer may quote
    back of the call itself (paths, names), never part of the marker; `said`, per refusal, what
    its own call sent (a path with no dot in it, `notes`)."""
    successes = list(successes)
    for shared in shared_starts(refusals, variable):  # "Error: " before every refusal
        if not any(re.search(shared, text) for text in successes):
            return shared
    kept: list[str] = []
    for text, sent in zip(refusals, said or [()] * len(refusals), strict=True):
        if any(re.search(regex, text) for regex in kept):
            continue
        # Not what its call sent: an answer's header ("==> notes <==") fits no success only
        # for the name in it, which is the probe's own.
        found = next((regex for regex in _candidates(text, (*variable, *sent))
                      if not any(re.search(regex, success) for success in successes)), None)
        if found is None:
            return None
        kept.append(found)
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else "|".join(one_of(regex) for regex in kept)


def shared_starts(refusals: list[str], variable: tuple[str, ...] = ()) -> list[str]:
    """`shared_start`, most general first: a marker says a call failed, not which failure, so
    where the shared start is a head and more ("Error: Unknown tool", every sample one probe's
    kind), its head alone ("Error:") comes first; a caller takes the first no success matches."""
    shared = shared_start(refusals, variable)
    if shared is None:
        return []
    head = _HEAD.match(shared.removeprefix(_OPEN))
    if head is None or not says_refusal(head.group(0)) or len(
            re.sub(r"\W", "", head.group(0))) < 4:
        return [shared]
    return [_OPEN + head.group(0), shared]


_OPEN = r"""\A\s*["']?"""
# The head of a refusal: its words up to the first colon ("Error:", "Error executing tool:").
_HEAD = re.compile(r"(?:[^:\\]|\\.){1,40}?:(?= |$)")


def shared_start(refusals: list[str], variable: tuple[str, ...] = ()) -> str | None:
    """The start every refusal shares (two at least), cut back to a whole word and to before
    anything variable (the scratch sandbox's paths), when it says it refuses: `\\AError:` for a
    framework that puts "Error: " before every failure."""
    if len(refusals) < 2:
        return None
    texts = [_before_variable(unwrapped(text), variable) for text in refusals]
    first = min(texts, key=len)
    length = 0
    while length < len(first) and all(text[length] == first[length] for text in texts):
        length += 1
    shared = first[:length]
    if any(len(text) > length and text[length].isalnum() for text in texts):
        shared = re.sub(r"\w+$", "", shared)  # never into a word
    shared = shared.rstrip(" \t`'\"‘“«([{<")  # a quote that opens what the call named
    if len(re.sub(r"\W", "", shared)) < 4 or not says_refusal(shared):
        return None
    # A number or a signal's name the samples share varies beyond them (a timeout's "exit code
    # -15 | signal SIGTERM" is "-9 | SIGKILL" the next time): any one, never the sample's own.
    pieces = _VARIES.split(shared)
    return _OPEN + _VARIABLE.join(re.escape(piece).replace("\\ ", " ") for piece in pieces)


_VARIES = re.compile(r"-?\d+|\bSIG[A-Z]{3,}\b")
_VARIABLE = r"(?:-?\d+|SIG[A-Z]+)"


def _before_variable(text: str, variable: tuple[str, ...]) -> str:
    cut = min((found for value in variable if value and (found := text.find(value)) >= 0),
              default=len(text))
    return text[:cut]


def widened(marker: str, refusals: list[str], successes: Iterable[str],
            variable: tuple[str, ...], said: list[tuple[str, ...]] | None = None) -> str | None:
    """`marker` with an alternative for the refusals it does not match yet (a timeout worded
    apart from a failed command), or None when none can be told from a real success."""
    missed = [i for i, text in enumerate(refusals) if not re.search(marker, text)]
    if not missed:
        return marker
    more = draft_marker([refusals[i] for i in missed], successes, variable,
                        [said[i] for i in missed] if said else None)
    return None if more is None else f"{one_of(marker)}|{one_of(more)}"


def one_of(regex: str) -> str:
    """`regex` as one alternative: a leading global flag (`(?m)^...`) made local (`(?m:^...)`),
    which an alternation needs."""
    flags = re.match(r"\(\?([aiLmsux]+)\)", regex)
    if flags is not None:
        return f"(?{flags.group(1)}:{regex[flags.end():]})"
    return f"(?:{regex})"


def _candidates(text: str, variable: tuple[str, ...]) -> list[str]:
    """Anchored starts of the answer, most general first, its variable parts wildcards; read
    past one layer of JSON quoting."""
    quoted = unwrapped(text) != text.strip()
    return [(r"""\A\s*["']?""" + regex.removeprefix(r"\A")) if quoted else regex
            for regex in candidates(unwrapped(text) if quoted else text, variable, status=True)]
