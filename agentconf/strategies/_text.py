"""Texts with every line-ending mix and one edit inside them; unicode outputs around a
truncation limit."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

# ---------------------------------------------------------------- line endings

#: The line endings a file may mix.
EOLS: tuple[str, ...] = ("\n", "\r\n", "\r")
#: The UTF-8 byte-order mark, as bytes.
BOM = b"\xef\xbb\xbf"

# Text for lines: no line-ending characters, no quotes (curly-quote matching would widen a match),
# and no guillemets, which mark the edited span.
_LINE_ALPHABET = st.characters(
    codec="utf-8",
    categories=("L", "N", "P", "S", "Zs"),
    exclude_characters="\r\n\x85\u2028\u2029'\"‘’“”«»",
)


def line_text(max_size: int = 12) -> st.SearchStrategy[str]:
    """The text of one line: unicode letters, digits, punctuation, spaces; no EOL or quote."""
    return st.text(alphabet=st.one_of(_LINE_ALPHABET, st.just("\t")), max_size=max_size)


TRAILING_BLANKS = ("", " ", "\t", "  ")


@dataclass(frozen=True, slots=True)
class EolEdit:
    """A file, one edit inside it, and the bytes the file must hold after the edit.

    `old_text` occurs exactly once and holds no line ending, so the only correct result is the
    original bytes with that span replaced by `new_text`'s UTF-8 bytes (EOL-06).
    """

    original: bytes
    old_text: str
    new_text: str
    expected: bytes
    eols: tuple[str, ...]
    bom: bool
    final_newline: bool


@st.composite
def eol_texts_with_edit(draw: st.DrawFn, max_lines: int = 8) -> EolEdit:
    """Texts with random CRLF/LF/CR mixes, an optional BOM and final newline, and a unique edit.

    >>> case = eol_texts_with_edit().example()
    >>> case.original.replace(case.old_text.encode(), case.new_text.encode()) == case.expected
    True
    """
    lines = draw(st.lists(line_text(), min_size=1, max_size=max_lines))
    # Trailing blanks are bytes an editor likes to "fix"; an edit elsewhere must keep them.
    lines = [line + draw(st.sampled_from(TRAILING_BLANKS)) for line in lines]
    eols = tuple(draw(st.lists(st.sampled_from(EOLS), min_size=len(lines), max_size=len(lines))))
    final_newline = draw(st.booleans())
    bom = draw(st.booleans())
    target = draw(st.integers(0, len(lines) - 1))
    needle = "«" + draw(line_text(max_size=6)) + "»"
    cut = draw(st.integers(0, len(lines[target])))
    lines[target] = lines[target][:cut] + needle + lines[target][cut:]
    new_text = draw(line_text(max_size=8))
    if not final_newline and not lines[-1]:
        lines[-1] = "end"  # an empty last line would end the text with its predecessor's EOL
    body = ""
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        body += line + ("" if last and not final_newline else eols[index])
    prefix = BOM if bom else b""
    return EolEdit(
        original=prefix + body.encode("utf-8"),
        old_text=needle,
        new_text=new_text,
        expected=prefix + body.replace(needle, new_text).encode("utf-8"),
        eols=eols,
        bom=bom,
        final_newline=final_newline,
    )


# ---------------------------------------------------------------- outputs to truncate

# No U+FFFD: its appearance in a result is how a split UTF-8 sequence shows (TRUNCATE-04).
_OUTPUT_ALPHABET = st.characters(
    codec="utf-8", categories=("L", "N", "P", "S"), exclude_characters="\ufffd"
)


def output_text(min_size: int = 1, max_size: int = 40) -> st.SearchStrategy[str]:
    """Unicode text of 1- to 4-byte characters with no leading or trailing whitespace."""
    return st.text(alphabet=_OUTPUT_ALPHABET, min_size=min_size, max_size=max_size)


@st.composite
def outputs_around_limit(draw: st.DrawFn, limit: int, spread: float = 3.0) -> str:
    """Unicode output whose length lands just under, at, or well over `limit` characters.

    A random head and tail (to check both are kept) around a random multi-byte chunk repeated to
    the drawn length, broken into lines; no leading or trailing whitespace, so a tool that strips
    its output still returns every character.

    >>> len(outputs_around_limit(100).example()) > 0
    True
    """
    head = draw(output_text(min_size=4, max_size=24))
    tail = draw(output_text(min_size=4, max_size=24))
    chunk = draw(output_text(min_size=1, max_size=12))
    line_every = draw(st.integers(20, 200))
    total = draw(
        st.one_of(
            st.integers(max(len(head) + len(tail) + 1, limit - 40), limit),
            st.integers(limit + 1, limit + 40),
            st.integers(limit + 1, max(limit + 2, int(limit * spread))),
        )
    )
    body_size = max(1, total - len(head) - len(tail))
    body = (chunk * (body_size // len(chunk) + 1))[:body_size]
    body = "\n".join(body[i : i + line_every] for i in range(0, len(body), line_every))
    # Joining lines added characters; trim the body back so the total stays where it was drawn.
    body = body[: max(1, total - len(head) - len(tail))].strip() or chunk[:1]
    return head + body + tail
