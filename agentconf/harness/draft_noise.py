"""`agentconf init --from`: what a server wrote on stdout, its protocol channel, that was not a
protocol message (debug lines, a banner). The MCP SDK logs a traceback for every such line (42 KB
for a chatty server); while drafting they are collected instead and named once, plainly.
"""

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

_SDK_LOGGER = "mcp.client.stdio"
_KEPT = 5


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if not record.getMessage().startswith("Failed to parse JSONRPC message"):
            return
        self.count += 1
        if len(self.lines) < _KEPT:
            self.lines.append(_offending_line(record))


def _offending_line(record: logging.LogRecord) -> str:
    error: Any = record.exc_info[1] if record.exc_info else None
    errors = getattr(error, "errors", None)
    if callable(errors):
        with contextlib.suppress(Exception):
            return str(errors()[0].get("input", ""))[:120]
    return str(error)[:120]


class Noise:
    """Lines of stdout that were not protocol messages, as seen by the adapter."""

    def __init__(self) -> None:
        self.count = 0
        self.lines: list[str] = []

    def add(self, lines: list[str], count: int | None = None) -> None:
        self.count += len(lines) if count is None else count
        self.lines.extend(lines[:_KEPT - len(self.lines)])

    def message(self) -> str | None:
        if not self.count:
            return None
        first = f", the first: {self.lines[0]!r}" if self.lines else ""
        return (f"the server wrote {self.count} line(s) on stdout that are not protocol messages"
                f"{first}; stdout is its JSON-RPC channel, logs belong on stderr")


@contextlib.contextmanager
def collected() -> Iterator[Noise]:
    """The SDK's parse-error tracebacks collected, not printed, while the block runs."""
    logger = logging.getLogger(_SDK_LOGGER)
    collector = _Collector()
    noise = Noise()
    saved = logger.propagate
    logger.addHandler(collector)
    logger.propagate = False
    try:
        yield noise
    finally:
        logger.removeHandler(collector)
        logger.propagate = saved
        noise.add(collector.lines, collector.count)
