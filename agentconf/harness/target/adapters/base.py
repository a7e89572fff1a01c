"""What every adapter offers the client. Adapters speak the implementation's own names; mapping
canonical names and classifying error codes is the client's and the profile's job.
"""

import contextlib
import dataclasses
import logging
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

# Set in the implementation's environment; inherited by everything it starts, even daemons that
# left its process group, so they can be found and killed when the session ends.
# The bound on one call unless the profile ([implementation] call_timeout_ms) or the run says
# otherwise: a call unanswered by then is a hang.
DEFAULT_TIMEOUT_S = 10.0
SESSION_VARIABLE = "AGENTCONF_SESSION"
# Set by `agentconf run` in its pytest child: whatever the run started carries it.
RUN_VARIABLE = "AGENTCONF_RUN"


@dataclass(frozen=True, slots=True)
class AdapterEnv:
    """Where and how an implementation runs for one workspace."""

    root: Path
    home: Path
    tmp: Path
    call_timeout_s: float = 10.0
    start_timeout_s: float = 20.0
    # Where a subprocess's stderr is kept, to show when it fails to start or crashes.
    log_dir: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)


class Adapter(Protocol):
    """One live session of an implementation under test.

    Every method either returns or raises `ImplementationFailure` within its timeout; a hung or dead
    implementation is killed (with its process group) before the exception is raised.
    """

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str | None: ...

    def list_tools(self) -> list[dict[str, Any]]: ...

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        """The envelope as a dict (MCP results already mapped to envelope fields)."""
        ...

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        """Several calls in flight at once, answers in the order of `calls`."""
        ...

    def set_call_timeout(self, seconds: float) -> float:
        """A new per-call timeout for the calls that follow; returns the one it replaces."""
        ...

    @property
    def alive(self) -> bool:
        """The session can take another call: a server kept across tests (reuse.py) is
        started anew when it is not."""
        ...

    def close(self) -> None: ...

    # Optional (CANCEL): `supports_cancel` and `call_and_cancel(name, arguments, ready)`, which
    # makes the call, cancels it once `ready()` holds, and returns the answer or None. An adapter
    # without them gets the CANCEL checks reported n/a (harness/session/client.py).
    # Optional: `retire()`, a close that kills without waiting for a polite exit, for a kept
    # server whose checks were all judged (target/reuse.py); `close()` otherwise.


class CallTimeout:
    """What every adapter does alike with its per-call timeout (a check may change it)."""

    _env: AdapterEnv

    @property
    def env(self) -> AdapterEnv:
        """Where this session runs (root, HOME, TMPDIR): the placeholders of defaults."""
        return self._env

    def set_call_timeout(self, seconds: float) -> float:
        """A new per-call timeout for the calls that follow; returns the one it replaces."""
        previous = self._env.call_timeout_s
        self._env = dataclasses.replace(self._env, call_timeout_s=seconds)
        return previous


# Said once per server and process: a server that writes other text on its protocol channel.
_NOISY: set[str] = set()
NOISE_ADVICE = "stdout must carry protocol messages only; log to stderr"
notices = logging.getLogger("agentconf")


def name_stdout_noise(server: str, sample: str) -> None:
    """One plain line, once per server, instead of a traceback for every line it printed."""
    if server in _NOISY:
        return
    _NOISY.add(server)
    notices.warning("%s wrote non-protocol text on stdout, e.g. %r: %s", server,
                    sample[:120], NOISE_ADVICE)


def sandbox_variables(env: AdapterEnv, marker: str) -> dict[str, str]:
    """The variables every adapter gives an implementation: its root, a fake HOME (a canary the
    oracle judges), TMPDIR and the XDG cache and state folders in the sandbox's unjudged tmp/,
    and the session marker; then the profile's own."""
    return {
        "AGENTCONF_ROOT": str(env.root),
        "HOME": str(env.home),
        "TMPDIR": str(env.tmp),
        "XDG_CACHE_HOME": str(env.tmp / ".cache"),
        "XDG_STATE_HOME": str(env.tmp / ".state"),
        SESSION_VARIABLE: marker,
        **env.extra_env,
    }


def kill_marked(variable: str, marker: str) -> list[int]:
    """SIGKILLs every process whose environment holds `variable=marker` (Linux /proc).

    A daemon that called setsid has left the process group, but not the environment it was
    started with. Returns the pids signalled; where /proc does not exist it does nothing.
    """
    needle = f"{variable}={marker}".encode()
    killed: list[int] = []
    me = os.getpid()
    try:
        names = os.listdir("/proc")
    except OSError:
        return killed
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            environ = _read_proc(f"/proc/{name}/environ")
        except OSError:  # gone, or not ours to read
            continue
        if needle in environ.split(b"\0"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(name), signal.SIGKILL)
                killed.append(int(name))
    _wait_dead(killed)
    return killed


def _read_proc(path: str) -> bytes:
    """A /proc file's bytes with bare system calls: every session's close reads the environment
    of every process on the machine, and a buffered file object cost twice as much."""
    descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        parts = []
        while chunk := os.read(descriptor, 65536):  # /proc answers a page or so per read
            parts.append(chunk)
        return b"".join(parts)
    finally:
        os.close(descriptor)


def _wait_dead(pids: list[int], within_s: float = 2.0) -> None:
    """SIGKILL is delivered asynchronously: wait until each process is gone or a zombie."""
    deadline = time.monotonic() + within_s
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    stat = handle.read()
            except OSError:
                break
            if stat[stat.rindex(")") + 2:][:1] in ("Z", "X"):
                break
            time.sleep(0.005)

