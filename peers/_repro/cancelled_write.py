"""CANCEL-02 and CANCEL-03 outside the kit: a write of a big file cancelled once the file starts
changing (notifications/cancelled), over rounds, as the kit's checks do. A conformant server
leaves the old or the new content whole (CANCEL-02) and, once it has answered the next write of
the same file, that write is what the file holds (CANCEL-03). Where the cancel lands is a race:
the result is said as "seen in k of n rounds".

    from _repro.cancelled_write import cancelled_writes
    cancelled_writes(lambda root: Server(root), "write_file", rounds=10)   # exits 0 or 1
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from _repro.mcp_stdio import Client, Departures, Sandbox

BIG = "".join(f"line {number} of the new content\n" for number in range(200_000))


def _cancel_when_changed(server: Client, tool: str, target: Path, old: bytes,
                         arguments: dict[str, Any]) -> None:
    asked = server.start("tools/call", {"name": tool, "arguments": arguments})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not target.exists() or target.stat().st_size != len(old):
            break
        time.sleep(0.002)
    server.cancel(asked)  # over for the client now, as for the MCP SDK's: nothing awaited


def cancelled_writes(start: Callable[[Path], Client], tool: str, rounds: int = 10,
                     path_key: str = "path", content_key: str = "content") -> NoReturn:
    torn = went_on = 0
    with Sandbox() as box, start(box.root) as server:  # one server for every round, as kept
        for number in range(rounds):
            old = f"the old content, round {number}\n".encode()
            target = box.write(f"big-{number}.txt", old)
            _cancel_when_changed(server, tool, target, old,
                                 {path_key: target.name, content_key: BIG})
            held = target.read_bytes() if target.exists() else b""
            torn += held not in (old, BIG.encode())
            after = f"written after the cancel, round {number}\n"
            answer = server.call_tool(tool, {path_key: target.name, content_key: after})
            time.sleep(0.5)  # a write that goes on lands in this time
            went_on += answer is not None and not answer[0] and \
                target.read_bytes() != after.encode()
    found = Departures()
    found.check("CANCEL-02", torn > 0, f"a cancelled write left a partial file in {torn} of "
                                       f"{rounds} rounds")
    found.check("CANCEL-03", went_on > 0, f"the cancelled write went on and overwrote the next "
                                          f"write in {went_on} of {rounds} rounds")
    found.finish()
