"""Line endings: match with LF, write back with the file's own endings (dskcode, `eol.ts`).

A model writes `old_text` with LF whatever the file uses. Matching happens on an LF view of the
file; the match is then mapped back to the original text and only that span is replaced, so every
character outside it (CRLF, lone LF, a BOM, a missing final newline) is left exactly as it was.
"""

from bisect import bisect_left

CRLF = "\r\n"
LF = "\n"


def detect(text: str) -> str:
    """The dominant line ending: CRLF when CRLF lines outnumber LF-only ones, else LF."""
    crlf = text.count(CRLF)
    return CRLF if crlf > text.count(LF) - crlf else LF


def to_lf(text: str) -> str:
    return text.replace(CRLF, LF)


def with_eol(text: str, eol: str) -> str:
    """`text` (any endings) with every line break spelled `eol`."""
    lf = to_lf(text)
    return lf if eol == LF else lf.replace(LF, eol)


class LfView:
    """The LF view of a text, and the way back from view positions to original positions."""

    def __init__(self, original: str) -> None:
        self.original = original
        self.text = to_lf(original)
        # View positions of the "\n"s that were "\r\n": each one shifts later positions by one.
        self._crlf_at: list[int] = []
        position = original.find(CRLF)
        while position != -1:
            self._crlf_at.append(position - len(self._crlf_at))
            position = original.find(CRLF, position + 2)

    def original_index(self, view_index: int) -> int:
        """The original position of view position `view_index`.

        A span starting on a "\\n" that was "\\r\\n" starts at its "\\r"; a span ending just
        after it ends after its "\\n", so a CRLF is never split by a splice.
        """
        return view_index + bisect_left(self._crlf_at, view_index)

    def splice(self, spans: list[tuple[int, int]], replacement: str) -> str:
        """The original text with each view span (start, end) replaced by `replacement`.

        Spans must be sorted and must not overlap; text outside them is copied unchanged.
        """
        return self.splice_each([(start, end, replacement) for start, end in spans])

    def splice_each(self, edits: list[tuple[int, int, str]]) -> str:
        """The original text with each view span (start, end) replaced by its own text.

        Edits must be sorted and must not overlap; text outside them is copied unchanged.
        """
        pieces: list[str] = []
        done = 0
        for start, end, replacement in edits:
            original_start, original_end = self.original_index(start), self.original_index(end)
            pieces.append(self.original[done:original_start])
            pieces.append(replacement)
            done = original_end
        pieces.append(self.original[done:])
        return "".join(pieces)
