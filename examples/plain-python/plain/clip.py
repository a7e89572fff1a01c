"""Keeping output within a character budget: the first half and the last half, a count between.

`ByteKeeper` holds a stream's first and last bytes while it flows (memory stays bounded however
much a command prints); `clip` cuts decoded text. Cuts never fall inside a UTF-8 character.
"""

import codecs

# Bytes kept at each end of a stream per character of budget: a character is at most 4 bytes.
BYTES_PER_CHAR = 4


def clip(text: str, budget: int) -> str:
    """`text` itself when it fits, else its head and tail with the number of characters left out."""
    if len(text) <= budget:
        return text
    head = budget // 2
    tail = budget - head
    return text[:head] + gap_note(len(text) - budget, "characters") + text[len(text) - tail:]


def gap_note(count: int, unit: str) -> str:
    return f"\n[... {count} {unit} left out here ...]\n"


class ByteKeeper:
    """The first and last `keep` bytes of a stream, and how many bytes went by in all."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.keep:
                del self.tail[: len(self.tail) - self.keep]

    @property
    def complete(self) -> bool:
        return self.total == len(self.head) + len(self.tail)

    def text(self, budget: int) -> str:
        """The stream as text of at most `budget` characters plus one gap note."""
        if self.complete:
            return clip(_decode(bytes(self.head + self.tail)), budget)
        head = _decode_head(bytes(self.head))[: budget // 2]
        tail_text = _decode_tail(bytes(self.tail))
        tail = tail_text[len(tail_text) - (budget - budget // 2):] if budget else ""
        missing = self.total - len(head.encode("utf-8", "replace")) \
            - len(tail.encode("utf-8", "replace"))
        return head + gap_note(missing, "bytes") + tail


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _decode_head(data: bytes) -> str:
    """Only the whole characters: a sequence cut at the end is dropped, not replaced."""
    return codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=False)


def _decode_tail(data: bytes) -> str:
    """Skips the continuation bytes of a character whose start was cut off."""
    start = 0
    while start < min(len(data), 3) and 0x80 <= data[start] <= 0xBF:
        start += 1
    return data[start:].decode("utf-8", "replace")
