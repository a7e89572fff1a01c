"""Shapes of what the toy does before and after it serves."""

import atexit
import os
import time

from draft_toys.plain import Toy


class State(Toy):
    """Writes $HOME/.toystate/sessions/<pid>.key at start and removes it at exit."""

    def start(self) -> None:
        sessions = os.path.join(os.environ["HOME"], ".toystate", "sessions")
        os.makedirs(sessions, exist_ok=True)
        key = os.path.join(sessions, f"{os.getpid()}.key")
        open(key, "w").close()
        atexit.register(os.remove, key)
        super().start()


class SlowStart(Toy):
    """Sleeps 0.3 s before it reads its first request (a server that starts slowly: a Node or
    MCP SDK server, where sharing one across checks pays)."""

    def start(self) -> None:
        super().start()
        time.sleep(0.3)
