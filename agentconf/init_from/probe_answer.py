"""One failing probe answer of `agentconf init --from`, and what its words say apart from what
its call sent: the strings it quotes back and the paths it names are incidental."""

import re
from dataclasses import dataclass
from typing import Any

from agentconf.harness.session.answers import strings_in

# What a call sent is quoted back only from this length on: a one-letter new_text would
# otherwise make every such letter of a message a wildcard.
MIN_SAID = 3


@dataclass(frozen=True)
class Answer:
    """One failing probe answer whose envelope carried no code."""

    code: str  # the code the probe expects
    label: str  # what the probe did
    text: str
    tool: str = ""  # the canonical tool it called
    said: tuple[str, ...] = ()  # the strings the call sent: an answer may quote them back


def answer(code: str, label: str, text: str, request: Any) -> Answer:
    """An Answer of a request (Result.request): its tool and the strings it sent."""
    return Answer(code, label, text, str(getattr(request, "tool", "")),
                  tuple(text for text in strings_in(getattr(request, "arguments", None))
                        if len(text.strip()) >= MIN_SAID))


def same_message(one: Answer, other: Answer) -> bool:
    """The two texts alike but for what each call said, the paths they quote (`tmp/…/x.txt` for
    `/tmp/…/x.txt`) and one word in place (the answering tool's name: "Error executing tool
    read: FileNotFoundError" and "... tool edit: ...")."""
    mine, theirs = (re.sub(r"\W+", " ", PATH_TOKEN.sub(" ", _unsaid_parts(unsaid(a.text, a),
                                                                           a))).split()
                    for a in (one, other))
    return len(mine) == len(theirs) and sum(a != b for a, b in zip(mine, theirs, strict=True)
                                            ) <= (1 if len(mine) >= 3 else 0)


def message(answer: Answer) -> str:
    """What the answer says in its own words: unquoted, without what its call said and without
    any path it quotes (`../escape.txt`, `tmp/…/outside/secret.txt`: a path names a place, it
    says nothing of a refusal's kind)."""
    return PATH_TOKEN.sub(" ", unsaid(unquoted(answer.text)[0], answer))


# A path starts after a space or a sign gluing it to a word (`exists:/x`), never with the word.
PATH_TOKEN = re.compile(r"(?:(?<=[:=\"'`(\[])|(?<!\S))[^\s:=\"'`(\[]*/\S*")


def _unsaid_parts(text: str, answer: Answer) -> str:
    """Without the parts of a path the call sent, each where it stands whole (`inner.txt` of
    `a.txt/inner.txt` in a hint `find(pattern='*inner.txt*')`): only to compare two messages,
    since a part may be a word too (`dir`)."""
    for said in answer.said:
        for part in {part for part in said.split("/") if len(part) >= 2} if "/" in said else ():
            text = re.sub(rf"(?<![\w.-]){re.escape(part)}(?![\w.-])", " ", text)
    return text


def unsaid(text: str, answer: Answer) -> str:
    for said in sorted(answer.said, key=len, reverse=True):
        text = text.replace(said, "") if len(said) >= 2 else text
    return text


def unquoted(text: str) -> tuple[str, bool]:
    """The text inside one layer of JSON string quoting, and whether it had one."""
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] == '"':
        return stripped[1:-1], True
    return text, False
