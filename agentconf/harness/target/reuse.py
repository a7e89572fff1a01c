"""One server per pytest worker, kept from test to test (profile `[implementation] reuse`).

Starting a server per test is most of a run against a real peer (Node loads server-filesystem in
about 0.4 s of CPU; a run has hundreds of applicable tests), and of a run against a Python MCP
server (the MCP SDK's imports cost about a second a start). A profile whose server keeps no
state between calls but what the contract's session features are about may opt in with
`reuse = "worker"`. An in-process implementation is kept the same way: its factory builds one
object per worker instead of one per test (a framework whose tools take half a second to build
spent most of its run building them), and everything below holds for that object as for a
server ("started" is "built"; it is alive until a call of it timed out).

The session features (read-before-edit, stale-read) and revealed tools (tool_search) are state
kept across calls: a file read in one test counts as read in the next. A server is therefore
shared by what a test needs, not by what the server might remember: a test whose verdict depends
on a fresh session (it requires read_before_edit, stale_read or tool_search: SESSION_DEPENDENT)
gets a server no earlier test shaped, and every other test keeps the one it finds. A test that
writes an existing file reads it first (suites/_checks.py `read_first`), so what an earlier test
left in the session never decides its verdict. A server has "shaped" its session once it served
a call its session may remember (session/client.py: all but listings, calls of list_files and
grep, and calls refused before they ran, INVALID_ARGS or TOOL_NOT_FOUND). With the session
features off (and reuse "worker") nothing is shaped. `reuse = "worker-stateful"` takes the
session features to be on whatever [capabilities] say: for a server whose session no probe could
settle, which then costs a start only where a test needs a fresh session, never the whole run.
`reuse = "worker-fresh-shell"` also retires it after any test that ran a command (or cancelled a
call): for a shell that keeps a `cd` or an `export` from one call to the next, so no later test
meets that shell. In every mode, tools that tool_search revealed are listed and callable from
then on, whatever the session features: a kept server whose session revealed tools is replaced
for a test whose verdict depends on a session that revealed none (one requiring tool_search, and
a message scenario, whose exact text may name the tools: an unknown tool's message does), never
for the others (the path tools' checks reveal the tools they call: retiring the server after each
doubled a run's starts).

Each test still gets a fresh sandbox, at the *same* place: a passed (or not applicable) test's
base is emptied in place, the root folder itself kept and emptied, and the next workspace is
built there with new canaries and a new secret. The server therefore sees what a freshly started
one would: the same root on its command line, its cwd that root, HOME and TMPDIR the current
sandbox's, so `~` still lands on this test's canaries and the disk oracle judges every write.
(Re-rooting one server through MCP roots was the alternative; its HOME and cwd would stay those
of the first sandbox, outside every later test's oracle.)

A failed test keeps the server too when its failure is a plain departure and nothing of it can
still be at work: every call answered, none was a command or a cancelled call, nothing changed
on disk after the last answer, and the server still runs. Its sandbox (with the server's stderr
so far) is copied to a folder of its own for inspection first, then the base is emptied as
after a pass. A departure leaves a server as a pass does: it answered, just not as the contract
says; starting a new one after each of a peer's hundred departures was half of its run.

Anything else retires the server and its base: a test that ran a command or cancelled a call
and failed, one that hung, died or met a bug of the kit keeps its sandbox and the server's
stderr where they are, a dead or killed server is never handed out again, and a root that is
no longer the folder the server started in is not reused.

Once a worker has had to start a server again, it starts the next one ahead of need: a spare,
in a sandbox of its own, while the current check runs (harness/target/spare.py). The next check
that needs a fresh server takes it (when it started well) and builds its workspace in the
spare's base; another spare starts. A server that is never replaced never gets a spare, and a
spare left over at the end is killed with the kept server. Only a server over a pipe gets one: an
in-process object's build runs under the same interpreter lock as the checks.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from agentconf.harness.disk.sandbox_workspace import copy_sandbox, empty_for_reuse, remove_tree
from agentconf.harness.profile.tables import SESSION_FEATURES
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import Adapter, AdapterEnv
from agentconf.harness.target.spare import Spare, Started
from agentconf.harness.target.spec import ImplSpec
from agentconf.harness.verdicts.errors import CancelUnsupported

# The capabilities whose checks judge what a session remembers: a file read or not, a read gone
# stale, a tool revealed. A check that requires one is given a server no earlier check shaped.
SESSION_DEPENDENT = frozenset({*SESSION_FEATURES, "tool_search"})


def needs_fresh_session(required: Iterable[str]) -> bool:
    """Whether a check requiring these capabilities depends on a session no other check shaped."""
    return not SESSION_DEPENDENT.isdisjoint(required)


class _Lease:
    """The kept adapter as one test sees it: closing it leaves the server running."""

    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter
        self.name = adapter.name
        self.version = adapter.version

    def list_tools(self) -> list[dict[str, Any]]:
        return self.adapter.list_tools()

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return self.adapter.call_tool(name, arguments)

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        return self.adapter.call_many(calls)

    def set_call_timeout(self, seconds: float) -> float:
        return self.adapter.set_call_timeout(seconds)

    def call_and_cancel(self, name: str, arguments: Any, ready: Callable[[], bool]
                        ) -> dict[str, Any] | None:
        """The kept server's own cancel (CANCEL): a lease that hid it made every reused peer's
        cancel checks n/a. A cancel that leaves the server unwell fails its test, which retires
        the server."""
        cancel = getattr(self.adapter, "call_and_cancel", None)
        if cancel is None:
            raise CancelUnsupported(f"the {type(self.adapter).__name__} cannot cancel a call")
        result: dict[str, Any] | None = cancel(name, arguments, ready)
        return result

    @property
    def alive(self) -> bool:
        return self.adapter.alive

    @property
    def stdout_noise(self) -> list[str] | None:
        """The kept server's stdout lines that were no protocol message (RESULT-09), since it
        started; None when its adapter has no channel to judge (in process)."""
        noise = getattr(self.adapter, "stdout_noise", None)
        return noise if isinstance(noise, list) else None

    def close(self) -> None:
        """The test is done with it; WorkerServer.release decides whether it is kept."""


class WorkerServer:
    """The kept server and the base folder its sandboxes are built in, for one pytest process."""

    def __init__(self, spec: ImplSpec, new_base: Callable[[], Path]) -> None:
        self._spec = spec
        self._new_base = new_base
        self._base: Path | None = None
        self._adapter: Adapter | None = None
        self._root_id: tuple[int, int] | None = None
        self._root_mode = 0o755
        # The server keeps a session a later test could see (module docstring).
        self._keeps_session = spec.profile.reuse == "worker-stateful" or any(
            spec.profile.capabilities.get(name) is not False for name in SESSION_FEATURES)
        self._keeps_shell = spec.profile.reuse == "worker-fresh-shell"  # a cd, an export
        self._shaped = False  # the kept server served a call its session may remember
        self._revealed = False  # ... or revealed tools (tool_search), whatever its features
        self._ahead = spec.target_kind.over_pipe  # spares (module docstring)
        self._spare: Spare | None = None
        self._last_env: AdapterEnv | None = None  # what a spare is started like
        self.started = 0  # servers started, for the kit's own tests (spares included)
        self.taken: Started | None = None  # the spare the current check took, if it took one

    def base(self, fresh_session: bool = False, unrevealed: bool = False) -> Path:
        """Where the next workspace is built: the kept base, a started spare's when the check
        needs a new server and one is ready, or a new one. `fresh_session`, `unrevealed` as for
        `open`."""
        self.taken = None
        if self._spare is not None and self._needs_start(fresh_session, unrevealed):
            spare, self._spare = self._spare, None
            taken = spare.take()
            if taken is not None:
                self._close_adapter()
                if self._base is not None:  # clean (else release dropped it): not needed now
                    with contextlib.suppress(OSError):
                        remove_tree(self._base)
                self._base, self._adapter = taken.base, taken.adapter
                self._root_id, self._root_mode = taken.root_id, taken.root_mode
                self._shaped = self._revealed = False
                self.taken = taken
                self._start_spare()
        if self._base is None:
            self._base = self._new_base()
        return self._base

    def open(self, env: AdapterEnv, fresh_session: bool = False,
             unrevealed: bool = False) -> Adapter:
        """The kept server when it still runs in this root, else a new one (kept from now on).
        `fresh_session`: the test's verdict depends on a session no earlier test shaped.
        `unrevealed`: on a session in which no tool was revealed (tool_search)."""
        self._last_env = env
        if self._adapter is not None and self._needs_start(fresh_session, unrevealed):
            self._close_adapter()
        if self._adapter is None:
            again = self.started > 0
            self._adapter = open_adapter(self._spec, env)
            self.started += 1
            self._shaped = self._revealed = False
            info = os.lstat(env.root)
            self._root_id = (info.st_dev, info.st_ino)
            self._root_mode = info.st_mode & 0o7777
            if again:  # a worker that had to start one again will likely have to once more
                self._start_spare()
        return _Lease(self._adapter)

    def _needs_start(self, fresh_session: bool, unrevealed: bool = False) -> bool:
        """Whether the check about to run cannot use the kept server: there is none (the last
        one was retired), it died, or the check needs a session no check has shaped, or one
        that revealed no tool."""
        if self._adapter is None:
            return self.started > 0
        return not self._adapter.alive or (fresh_session and self._shaped) or (
            unrevealed and self._revealed)

    def _start_spare(self) -> None:
        if self._ahead and self._spare is None and self._last_env is not None:
            self._spare = Spare(self._spec, self._new_base(), self._last_env)
            self.started += 1

    def release(self, clean: bool, remembered: bool = False, settled: bool = True,
                commanded: bool = False, revealed: bool = False, beyond: bool = False) -> None:
        """After a test: keep the server and empty the base for the next, or retire both.
        `remembered`: the test made a call the server's session may remember. `settled`: the
        test left nothing at work and its failure, if any, was a plain departure. `commanded`:
        it ran a command or cancelled a call. `revealed`: it called tool_search. `beyond`: it
        called a tool the contract does not describe, whose effect on the server is unknown."""
        if self._base is None:
            return
        self._shaped |= remembered and self._keeps_session
        self._revealed |= revealed
        if (commanded and self._keeps_shell) or beyond:
            self._close_adapter()  # retired: a clean test's base goes as if it started none
        if not clean and settled and self._adapter is not None and self._adapter.alive \
                and self._set_aside(self._base):
            clean = True  # the failure's sandbox lives on in its copy
        if clean and self._adapter is not None and self._root_id is not None \
                and self._emptied(self._base, self._root_id):
            return
        self._close_adapter()
        if clean:  # a clean test that started no server, or a root that cannot be reused
            with contextlib.suppress(OSError):
                remove_tree(self._base)
        self._base = None  # else left as it is: a failure's sandbox and the server's stderr

    def close(self) -> None:
        self._close_adapter()
        spare, self._spare = self._spare, None
        if spare is not None:
            spare.discard()

    def _set_aside(self, base: Path) -> bool:
        """Copies a failed test's base to a new folder beside it; False when it cannot be
        copied whole (an unreadable file, a full disk): the base then stays, server retired."""
        copy = self._new_base()
        try:
            copy_sandbox(base, copy)
        except OSError:
            with contextlib.suppress(OSError):
                remove_tree(copy)
            return False
        return True

    def _emptied(self, base: Path, root_id: tuple[int, int]) -> bool:
        try:
            return empty_for_reuse(base, root_id, self._root_mode)
        except OSError:  # something in it could not be removed: start afresh elsewhere
            return False

    def _close_adapter(self) -> None:
        """Retires the kept server. Every check it served was judged before this (the end of
        the session included), so it is killed, not waited for: what it would do on its way
        out is no check's business, and a fresh server's polite exit was a fifth of a run."""
        adapter, self._adapter, self._root_id = self._adapter, None, None
        if adapter is not None:
            getattr(adapter, "retire", adapter.close)()
