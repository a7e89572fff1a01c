"""A server started ahead of need: the next one a kept server's worker will want, started in a
sandbox of its own while the current check runs (harness/target/reuse.py decides when).

A check whose verdict depends on a fresh session (a read guard, a stale read, a revealed tool),
or that comes after a check that retired the kept server, needs a server no check has called.
Started then, its start is the check's wait: a Python MCP server that spends a second of CPU
importing its SDK before it answers cost a run with a read guard 40 % of its checks' time. A
spare started while the previous check runs is ready, or nearly, when it is wanted.

A spare is what a freshly started server is in every respect a verdict can see: it starts in a
full sandbox (root, canaries, HOME, TMPDIR, the profile's [setup] files and commands) under the
same paths and environment a synchronous start would get, and is handed over only when nothing
outside its root changed while it started (a canary it touched is an escape that only a start
judged by a check's own oracle may report: such a spare is discarded and the check starts its
own, as it would have). Its base is then emptied in place, as a kept server's is between checks,
and the check builds its workspace there.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from pathlib import Path

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace, empty_for_reuse, remove_tree
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import Adapter, AdapterEnv
from agentconf.harness.target.launch import (
    launch_env,
    run_setup_commands,
    state_folders,
    write_setup_files,
)
from agentconf.harness.target.spec import ImplSpec


@dataclasses.dataclass(frozen=True)
class Started:
    """A spare handed over: its server, the base its root is in, and how long the check that
    took it still waited for its start."""

    adapter: Adapter
    base: Path
    root_id: tuple[int, int]
    root_mode: int
    waited_s: float


class Spare:
    """One server starting (or started) on a thread of its own, in a base of its own."""

    def __init__(self, spec: ImplSpec, base: Path, like: AdapterEnv) -> None:
        """Builds the sandbox in `base` (here, on the caller's thread: the canary folders outside
        the sandbox are the process's to hand out) and starts the server beside it, with the
        environment `like` gave the kept server, its paths this sandbox's."""
        self.base = base
        self._spec = spec
        self._workspace = SandboxWorkspace(base=base)
        workspace = self._workspace
        self._env = dataclasses.replace(
            like, root=workspace.root, home=workspace.home, tmp=workspace.tmp,
            log_dir=workspace.logs,
            extra_env=launch_env(spec.profile, workspace.root, workspace.home, workspace.tmp,
                                 spec.mode))
        self._adapter: Adapter | None = None
        self._thread = threading.Thread(target=self._start, name="agentconf-spare", daemon=True)
        self._thread.start()

    def _start(self) -> None:
        """The start a check's `client` fixture would make, in the same order."""
        workspace, profile = self._workspace, self._spec.profile
        with contextlib.suppress(Exception):  # a spare that cannot start is only not used
            if profile.setup_state:
                workspace.oracle.own_state(state_folders(profile, workspace.root,
                                                         workspace.home, workspace.tmp))
            if profile.setup_files:
                workspace.oracle.own(write_setup_files(profile, workspace.root, workspace.home,
                                                       workspace.tmp))
                workspace.rebaseline()
            if profile.setup_commands:
                workspace.oracle.own_state(run_setup_commands(profile, workspace.root,
                                                              workspace.home, workspace.tmp))
            adapter = open_adapter(self._spec, self._env)
            adapter.list_tools()  # a start is over at its first answer
            self._adapter = adapter

    def take(self) -> Started | None:
        """The spare, once started, for a check to use; None when it could not start, died, or
        changed anything outside its root while starting (then it is discarded)."""
        began = time.monotonic()
        self._thread.join()  # a start is bounded by the adapter's start timeout
        waited = time.monotonic() - began
        adapter, workspace = self._adapter, self._workspace
        self._adapter = None
        usable = adapter is not None and adapter.alive
        if usable:
            workspace.oracle.accept_startup()  # its HOME is its own while starting
            usable = not workspace.oracle.changes()
        workspace.close_outer()
        if usable and adapter is not None:
            info = os.lstat(workspace.root)
            root_id, mode = (info.st_dev, info.st_ino), info.st_mode & 0o7777
            with contextlib.suppress(OSError):
                if empty_for_reuse(self.base, root_id, mode):
                    return Started(adapter, self.base, root_id, mode, waited)
        if adapter is not None:
            _retire(adapter)
        with contextlib.suppress(OSError):
            remove_tree(self.base)
        return None

    def discard(self) -> None:
        """Not wanted after all (the run ends): the server is killed, its sandbox removed."""
        self._thread.join()
        adapter, self._adapter = self._adapter, None
        if adapter is not None:
            _retire(adapter)
        self._workspace.close_outer()
        with contextlib.suppress(OSError):
            remove_tree(self.base)


def _retire(adapter: Adapter) -> None:
    """Killed, not waited for: no check of it is left to judge (reuse.py `_close_adapter`)."""
    getattr(adapter, "retire", adapter.close)()
