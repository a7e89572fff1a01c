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


class TmpHistory(Toy):
    """Makes a history folder in $TMPDIR when it starts and keeps each edit's old text there
    (openhands-sdk's file editor, `oh_editor_history_*`): kept across checks, its folder goes
    when the sandbox is emptied for the next one, and every edit after fails."""

    def start(self) -> None:
        self.history = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"toy_history_{os.getpid()}")
        os.makedirs(self.history, exist_ok=True)
        super().start()

    def edit(self, args):  # type: ignore[no-untyped-def]
        if not os.path.isdir(self.history):
            return {"success": False, "data": f"No such file or directory: {self.history}"}
        return super().edit(args)
