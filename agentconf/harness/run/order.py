"""The order a run's checks are handed out in: the ones that wait by design spread over the run,
and so are the ones that need a server no other check has called.

A check marked `waits` spends most of its time waiting, not computing: a command's timeout and the
kill grace after it, a blocking read's budget. In one process those waits run one after another
(an in-process call owns the process's working folder, environment and alarm, so two cannot
overlap), so they only overlap the other checks' work when different workers do them.

pytest-xdist hands each worker a block of consecutive checks at first (a quarter of the run
between them), then more from the front as a worker runs low. Run first, as they once were, the
waits all landed in the first worker's block: against the reference with `-n 2` that worker ran
155 checks, 10 s of them waiting, while the other ran the other 1,087; with `-n 4` the first
worker's waits alone would take three times any other worker's share. Spread evenly over
the first three quarters of the run, each block holds its share of them, and no wait is left for
the run's tail, where the other workers would sit idle until it ends.

A check whose verdict depends on a fresh session (harness/target/reuse.py) costs a kept server's
worker a start, which a spare started ahead of need hides only when the checks before it take
longer than the start (harness/target/spare.py). Next to each other, the second waits nearly
the whole start; spread over the run, each finds its spare ready. Each goes at the end of its
interval, not the start: the run's first check needs no spare (its server is new), and a lone
one stays where it was.
"""

from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest

WAITS = "waits"
WAITS_HELP = ("waits: this check waits by design (a timeout, a kill grace, a blocking read's "
              "budget); such checks are spread over the run")
SPREAD_OVER = 0.75  # the share of the run, from its start, that the waiting checks spread over

Item = TypeVar("Item", bound=pytest.Item)


def spread_waits(items: Sequence[Item]) -> list[Item]:
    """`items` with the ones marked `waits` moved to even intervals over the first three quarters,
    each in its order; the others keep theirs."""
    return spread(items, lambda item: item.get_closest_marker(WAITS) is not None)


def spread_fresh(items: Sequence[Item], chosen: Callable[[Item], bool]) -> list[Item]:
    """`items` with the chosen ones (checks that need a fresh session) each moved to the end of
    its even interval over the whole run; the others keep their order."""
    return spread(items, chosen, over=1.0, at_end=True)


def spread(items: Sequence[Item], chosen: Callable[[Item], bool], over: float = SPREAD_OVER,
           at_end: bool = False) -> list[Item]:
    """`items` with the chosen ones moved to even intervals over the first `over` of the run
    (each at its interval's start, or its end), in their order; the others keep theirs."""
    marked = [(item, chosen(item)) for item in items]
    waiting = [item for item, waits in marked if waits]
    if not waiting:
        return list(items)
    rest = [item for item, waits in marked if not waits]
    step = len(rest) * over / len(waiting)
    spread: list[Item] = []
    placed = 0
    for index, item in enumerate(rest):
        while placed < len(waiting) and index >= (placed + (1 if at_end else 0)) * step:
            spread.append(waiting[placed])
            placed += 1
        spread.append(item)
    return spread + waiting[placed:]
