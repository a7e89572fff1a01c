"""Everything one session's tools share: the folder they work in, what they have read."""

import os

from .jail import Jail
from .ledger import Ledger


class Workspace:
    def __init__(self, root: str) -> None:
        self.jail = Jail(root)
        self.ledger = Ledger()

    def close(self) -> None:
        os.close(self.jail.root_fd)
