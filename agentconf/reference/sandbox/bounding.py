"""Output bounding: keep the head and the tail, say in the middle how much was cut.

Claude Code caps a tool result at 50,000 characters, head + tail, with a
`[... truncated N chars ...]` marker, because the decisive lines of a build or a test run are at
the end. @clarvis/agent-tools bounds on a UTF-8 boundary, so a cut never produces U+FFFD or
invalid JSON.

`bound_text` bounds a string that is already in memory. `StreamBound` bounds a byte stream while it
arrives (a shell command, ripgrep; `pump` feeds it from a pipe): it keeps a fixed-size head and a
fixed-size tail and counts the rest, so memory stays bounded whatever the stream's length.
"""

import asyncio
import codecs

READ_CHUNK_BYTES = 64 * 1024  # how much of a pipe or a file is read at once


def marker(cut: int) -> str:
    """The line that replaces the middle of a bounded output; it states the count cut."""
    return f"\n[... truncated {cut} chars ...]\n"


def split_limit(limit: int) -> tuple[int, int]:
    """How many characters of head and of tail a bounded output of `limit` characters keeps."""
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    head = (limit + 1) // 2
    return head, limit - head


def bound_text(text: str, limit: int) -> str:
    """`text` itself when it fits in `limit` characters, else its head + marker + tail.

    A Python str is a sequence of code points, so slicing it can never split a UTF-8 sequence.
    The result is at most `limit` characters plus the marker.
    """
    if len(text) <= limit:
        return text
    head, tail = split_limit(limit)
    return text[:head] + marker(len(text) - limit) + text[len(text) - tail :]


class StreamBound:
    """Bounds a byte stream fed chunk by chunk to `capacity` characters, head and tail kept.

    Bytes are decoded incrementally, so a multi-byte sequence split across two chunks is joined
    before it is counted or cut; bytes that are not UTF-8 at all become U+FFFD (that is the
    stream's own content, not the cut's doing). Memory: `capacity` characters plus one chunk.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._head_size, self._tail_size = split_limit(capacity)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._head = ""
        self._tail = ""
        self._total = 0
        self._finished = False

    def feed(self, chunk: bytes) -> None:
        if self._finished:
            raise RuntimeError("StreamBound fed after finish()")
        self._take(self._decoder.decode(chunk))

    def finish(self) -> None:
        """Flushes a trailing incomplete sequence: it becomes U+FFFD, the stream ended inside it."""
        if not self._finished:
            self._take(self._decoder.decode(b"", final=True))
            self._finished = True

    def _take(self, text: str) -> None:
        if not text:
            return
        self._total += len(text)
        room = self._head_size - len(self._head)
        if room > 0:
            self._head += text[:room]
            text = text[room:]
        if text and self._tail_size:
            self._tail = (self._tail + text)[-self._tail_size :]

    @property
    def total_chars(self) -> int:
        """Characters seen so far, kept or cut."""
        return self._total

    def render(self, limit: int | None = None) -> str:
        """The stream bounded to `limit` (at most `capacity`) characters, plus a marker if cut.

        A smaller limit lets a caller share one budget between several streams (stdout and
        stderr) after the fact: head and tail are a prefix and a suffix of the whole stream, so a
        shorter head and tail are too, and the count stays exact.
        """
        self.finish()
        limit = self.capacity if limit is None else min(limit, self.capacity)
        if self._total <= self.capacity:
            # Nothing was dropped while streaming: head + tail is the whole stream.
            return bound_text(self._head + self._tail, limit)
        # The tail ring is full, so it holds the stream's last tail_size characters.
        head, tail = split_limit(limit)
        tail_text = self._tail[len(self._tail) - tail :]
        return self._head[:head] + marker(self._total - limit) + tail_text


async def pump(stream: asyncio.StreamReader, bound: StreamBound) -> None:
    """Feeds everything `stream` yields into `bound`, until its end of input."""
    while chunk := await stream.read(READ_CHUNK_BYTES):
        bound.feed(chunk)
