"""The process under a `cmd:` adapter: a child on non-blocking pipes in a process group of its
own, read and written by one `selectors` loop in the caller's thread, its stdout split into
bounded lines and its stderr kept in a bounded log, and stopped with its whole group.

What the lines say (the JSON-RPC protocol) is cmd.py's: `PipedProcess._take` is its hook.
"""

import contextlib
import os
import secrets
import selectors
import signal
import subprocess
import time
from pathlib import Path
from typing import IO

from agentconf.harness.target.adapters.base import (
    SESSION_VARIABLE,
    AdapterEnv,
    CallTimeout,
    kill_marked,
    sandbox_variables,
)
from agentconf.harness.target.launch import bytecode_env
from agentconf.harness.verdicts.errors import (
    ImplementationFailure,
)

_STDERR_TAIL = 2000
_TERM_GRACE_S = 1.0
_CHUNK = 1 << 16
# An answer is an envelope: tools bound their output far below this. Longer is a flood.
MAX_LINE_BYTES = 32 * 1024 * 1024
STDERR_KEEP_BYTES = 4 * 1024 * 1024


class _StderrLog:
    """The implementation's stderr: the first STDERR_KEEP_BYTES on disk, the tail in memory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[bytes] = path.open("wb")
        self.kept = 0
        self.dropped = 0
        self._tail = b""

    def take(self, chunk: bytes) -> None:
        room = STDERR_KEEP_BYTES - self.kept
        if room > 0:
            self._file.write(chunk[:room])
            self.kept += min(room, len(chunk))
        self.dropped += max(0, len(chunk) - max(room, 0))
        self._tail = (self._tail + chunk)[-_STDERR_TAIL:]

    def tail(self) -> str:
        text = self._tail.decode("utf-8", "replace").strip()
        if self.dropped:
            text += f"\n[{self.dropped} more bytes of stderr were not kept]"
        return text

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._file.close()


class _Lines:
    """Splits stdout into lines without ever holding more than MAX_LINE_BYTES of one line."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._size = 0
        self._skipping = False
        self.skipped = 0
        self.unfinished = 0  # bytes since the last newline, kept or not

    def feed(self, chunk: bytes) -> list[bytes]:
        lines = []
        while chunk:
            head, newline, chunk = chunk.partition(b"\n")
            self.unfinished = 0 if newline else self.unfinished + len(head)
            if not self._skipping:
                self._parts.append(head)
                self._size += len(head)
            if self._size > MAX_LINE_BYTES:
                self._skipping, self._parts, self._size = True, [], 0
            if newline:
                if self._skipping:
                    self.skipped += 1
                else:
                    lines.append(b"".join(self._parts))
                self._skipping, self._parts, self._size = False, [], 0
        return lines


class PipedProcess(CallTimeout):
    """The child process and its pipes; a subclass speaks the protocol over them."""

    def __init__(self, argv: list[str], env: AdapterEnv, label: str | None = None) -> None:
        self._env = env
        self._label = label or f"cmd:{' '.join(argv)}"
        self._outgoing = bytearray()
        self._lines = _Lines()
        self._eof = False
        self._killed = False
        self.noise: list[str] = []  # lines that were not answers to anything: for diagnostics
        self._marker = secrets.token_hex(8)
        log_dir = env.log_dir or env.tmp
        log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = Path(log_dir) / f"stderr-{os.getpid()}-{id(self)}.log"
        self._stderr = _StderrLog(self.stderr_path)
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=env.root,
                env=_child_environ(env, self._marker),
                start_new_session=True,  # its own process group, so a kill reaches its children
            )
        except OSError as error:
            self._stderr.close()
            raise ImplementationFailure(f"{self._label} could not start: {error}") from None
        assert self._process.stdin and self._process.stdout and self._process.stderr
        self._selector = selectors.DefaultSelector()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector.register(self._process.stdout, selectors.EVENT_READ)
        self._selector.register(self._process.stderr, selectors.EVENT_READ)

    def _take(self, raw: bytes) -> None:
        """One line of stdout, for the protocol to read."""
        raise NotImplementedError

    def _flush(self) -> None:
        """Writes what the pipe takes now; the rest goes out while waiting (never blocks)."""
        stdin = self._process.stdin
        if not self._outgoing or stdin is None or stdin.closed:
            return
        try:
            written = os.write(stdin.fileno(), self._outgoing)
        except BlockingIOError:
            written = 0
        except OSError:
            self._outgoing.clear()
            self._eof = self._eof or self._process.poll() is not None
            return
        del self._outgoing[:written]
        watching = self._selector.get_map().get(stdin.fileno()) is not None
        if self._outgoing and not watching:
            self._selector.register(stdin, selectors.EVENT_WRITE)
        elif not self._outgoing and watching:
            self._selector.unregister(stdin)

    def _pump(self, until: float) -> bool:
        """One round of select: writes pending requests, reads answers and stderr.

        Returns whether anything was ready."""
        try:
            ready = self._selector.select(max(0.0, until - time.monotonic()))
        except (OSError, ValueError):
            self._eof = True
            return False
        for key, events in ready:
            stream = key.fileobj
            if events & selectors.EVENT_WRITE:
                self._flush()
                continue
            try:
                chunk = os.read(key.fd, _CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if stream is self._process.stderr:
                if chunk:
                    self._stderr.take(chunk)
                else:
                    self._selector.unregister(stream)
            elif chunk:
                for line in self._lines.feed(chunk):
                    self._take(line)
            else:
                self._selector.unregister(stream)
                self._eof = True
        return bool(ready)

    # ---- process -----------------------------------------------------------------------------

    def _dead(self, what: str) -> ImplementationFailure:
        code = self._process.poll()
        if code is None and self._eof:  # its output ended: give its exit status a moment
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._process.wait(timeout=_TERM_GRACE_S / 2)
        status = f" (exit status {code})" if code is not None else ""
        self._kill_group()
        return ImplementationFailure(f"{self._label} {what}{status}" + self._stderr_note())

    def _stderr_note(self) -> str:
        # Whatever stderr still holds is the likeliest explanation: read it first.
        with contextlib.suppress(OSError, ValueError):
            while self._selector.get_map() and self._drain_stderr():
                pass
        tail = self._stderr.tail()
        skipped = self._lines.skipped
        notes = []
        if tail:
            notes.append(f"\nstderr (tail, log {self.stderr_path}):\n{tail}")
        if skipped:
            notes.append(f"\n{skipped} stdout line(s) longer than {MAX_LINE_BYTES} bytes skipped")
        if self._lines.unfinished:
            notes.append(f"\n{self._lines.unfinished} bytes on stdout since the last newline "
                         f"(a line longer than {MAX_LINE_BYTES} bytes is not kept)")
        if self.noise:
            notes.append(f"\nlines that were not answers: {self.noise[:5]}")
        return "".join(notes)

    def _drain_stderr(self) -> bool:
        stream = self._process.stderr
        if stream is None or stream.closed:
            return False
        try:
            chunk = os.read(stream.fileno(), _CHUNK)
        except (BlockingIOError, OSError):
            return False
        self._stderr.take(chunk)
        return bool(chunk) and self._stderr.kept < STDERR_KEEP_BYTES

    def _kill_group(self) -> None:
        """SIGTERM to the whole group, a grace period, then SIGKILL; then the runaways."""
        if self._killed:
            return
        self._killed = True
        pgid = self._process.pid  # start_new_session: the group id is the leader's pid
        if self._process.poll() is None:
            signal_group(pgid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=_TERM_GRACE_S)
        # Children may outlive the leader in its group: they are killed either way.
        signal_group(pgid, signal.SIGKILL)
        kill_marked(SESSION_VARIABLE, self._marker)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=_TERM_GRACE_S)



def signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _child_environ(env: AdapterEnv, marker: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**inherited, **bytecode_env(), **sandbox_variables(env, marker)}
