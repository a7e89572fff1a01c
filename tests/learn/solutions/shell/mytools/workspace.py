"""Everything one session's tools share: the jail around the root, the ledger, running shells."""

import contextlib
import os
import signal
import threading

from .jail import Jail
from .ledger import Ledger


class Workspace:
    def __init__(self, root: str) -> None:
        self.jail = Jail(root)
        self.ledger = Ledger()
        self._shells: set[int] = set()
        self._shells_guard = threading.Lock()

    def shell_started(self, group: int) -> None:
        with self._shells_guard:
            self._shells.add(group)

    def shell_ended(self, group: int) -> None:
        with self._shells_guard:
            self._shells.discard(group)

    def close(self) -> None:
        self.kill_shells()
        os.close(self.jail.root_fd)

    def kill_shells(self) -> None:
        """At the end of the session nothing a command started may outlive it."""
        with self._shells_guard:
            groups = list(self._shells)
        for group in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
