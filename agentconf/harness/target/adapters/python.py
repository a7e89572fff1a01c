"""In-process adapter: `FACTORY(workspace)` -> an object with `list_tools()` and `call_tool()`.

`call_tool` may be sync or async. The session's event loop runs in the caller's own thread, so
a call costs no thread hand-over (two wake-ups per call were most of the harness's overhead, and
on a loaded machine each one waits for a time slice). `call_many` still has several calls in
flight at once, which the CONCUR clauses need (Claude Code: concurrency-safe tools run together):
async calls are gathered on the loop, sync ones go to worker threads.

Every call has a deadline: a SIGALRM timer, when the caller is the main thread and nobody else
uses SIGALRM, stops whatever runs then (a coroutine, a sync tool, an async tool that blocks the
loop by forgetting to await), and the session is stopped, as a timed-out cmd: process is killed:
its loop may be broken. An asyncio timeout per call was not used: it tripled the cost of a cheap
call. Without the alarm (another thread, pytest-timeout's signal method) the loop's own wait
bounds the call and sync tools run in worker threads, which can be abandoned when they hang.

An exception escaping `call_tool` is itself a contract failure (RESULT-04: dskcode's dispatcher
wraps every exception into EXECUTION_ERROR), so it is raised as a ContractViolation.
"""

import asyncio
import contextlib
import copy
import inspect
import os
import secrets
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from agentconf.contract import Workspace
from agentconf.harness.profile.model import Profile
from agentconf.harness.target.adapters.base import (
    SESSION_VARIABLE,
    AdapterEnv,
    CallTimeout,
    kill_marked,
    sandbox_variables,
)
from agentconf.harness.verdicts.errors import (
    CRASH,
    CancelUnsupported,
    ContractViolation,
    ImplementationFailure,
)

# How long a timed-out coroutine gets to wind down after it is cancelled.
_CANCEL_GRACE_S = 0.5
# How often call_and_cancel asks whether the call is ready to be cancelled.
_POLL_S = 0.02


class _Expired(BaseException):
    """Raised by the SIGALRM handler inside whatever code runs when the deadline passes.

    A BaseException so that an implementation's `except Exception` cannot swallow it.
    """


class PythonAdapter(CallTimeout):
    def __init__(self, factory: Any, label: str, env: AdapterEnv, profile: Profile) -> None:
        self._label = label
        self._env = env
        self._environ = _SessionEnviron(env)
        self._loop = asyncio.new_event_loop()
        self._alarm = _Alarm()
        self._stopped: str | None = None
        workspace = Workspace(root=env.root, limits=profile.limits)
        try:
            with self._environ.applied():
                self._impl = factory(workspace)
        except Exception as error:
            self.close()
            raise ImplementationFailure(
                f"{label}: the factory raised {type(error).__name__}: {error}"
            ) from error
        self._is_async: dict[str, bool] = {}
        for method in ("list_tools", "call_tool"):
            function = getattr(self._impl, method, None)
            if not callable(function):
                self.close()
                raise ImplementationFailure(f"{label}: the factory's object has no {method}()")
            self._is_async[method] = inspect.iscoroutinefunction(function)
        self.name = str(getattr(self._impl, "name", None) or label)
        version = getattr(self._impl, "version", None)
        self.version = str(version) if version is not None else None

    def list_tools(self) -> list[dict[str, Any]]:
        try:
            return self._run(
                lambda inline: self._invoke("list_tools", inline), "tools/list", "list_tools"
            )
        except ContractViolation as error:
            raise ImplementationFailure(str(error)) from error

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        arguments = copy.deepcopy(arguments)  # the request's record stays as it was sent
        return self._run(
            lambda inline: self._invoke("call_tool", inline, name, arguments), "tools/call",
            "call_tool", (name, arguments),
        )

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        copies = copy.deepcopy(calls)

        async def together(inline: bool) -> list[Any]:
            # Never inline here: sync calls must overlap in threads for CONCUR to mean anything.
            return list(await asyncio.gather(
                *(self._invoke("call_tool", False, name, args) for name, args in copies)
            ))

        # One budget per call in flight: served one by one is slow, not hung (CONCUR).
        return self._run(together, "tools/call",
                         budget=self._env.call_timeout_s * len(calls))

    def call_and_cancel(
        self, name: str, arguments: Any, ready: Callable[[], bool]
    ) -> dict[str, Any] | None:
        """Starts the call, cancels its task once `ready()` holds (polled between the call's own
        awaits), and answers what the call answered, or None when it ended cancelled."""
        if not self._is_async.get("call_tool"):
            raise CancelUnsupported(f"{self._label}: call_tool is synchronous, so a running "
                                    "call cannot be cancelled")
        arguments = copy.deepcopy(arguments)
        timeout = self._env.call_timeout_s / 2  # half to get ready, half to stop: one call's worth

        async def cancelled(_inline: bool) -> Any:
            task = asyncio.ensure_future(self._invoke("call_tool", True, name, arguments))
            deadline = time.monotonic() + timeout
            while not task.done() and not ready() and time.monotonic() < deadline:
                await asyncio.sleep(_POLL_S)
            if not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=timeout)
            if not task.done():
                raise TimeoutError
            return None if task.cancelled() else task.result()

        return self._run(cancelled, "tools/call (cancelled)")

    @property
    def alive(self) -> bool:
        """Its loop still runs calls: a timed-out call stops the session (_stopped)."""
        return not self._loop.is_closed() and self._stopped is None

    def close(self) -> None:
        if self._loop.is_closed() or self._loop.is_running():
            return
        self._close_implementation()
        self._alarm.release()
        with contextlib.suppress(Exception, _Expired):
            pending = [task for task in asyncio.all_tasks(self._loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending and self._stopped is None:
                self._loop.run_until_complete(asyncio.wait(pending, timeout=_CANCEL_GRACE_S))
        # Worker threads of a hung sync tool cannot be joined; close() does not wait for them.
        # What its tools started (a background job, a tmux server, a setsid daemon) does not
        # outlive the session: it carries the session's marker.
        kill_marked(SESSION_VARIABLE, self._environ.marker)
        with contextlib.suppress(Exception):  # and the loop's selector and socket pair
            self._loop.close()

    def _close_implementation(self) -> None:
        """The implementation's own close() or aclose(), if it has one, within the timeout."""
        impl = getattr(self, "_impl", None)
        if impl is None or self._stopped is not None:
            return
        for method in ("aclose", "close"):
            function = getattr(impl, method, None)
            if not callable(function):
                continue
            is_async = inspect.iscoroutinefunction(function)

            async def closing(function: Any = function, is_async: bool = is_async) -> None:
                result = function() if not is_async else await function()
                if inspect.isawaitable(result):
                    await result

            with contextlib.suppress(Exception, _Expired):
                self._run(lambda inline: closing(), f"{method}()")
            return

    async def _invoke(self, method: str, inline: bool, *args: Any) -> Any:
        function = getattr(self._impl, method)
        try:
            if self._is_async.get(method):
                result = await function(*args)
            else:
                result = function(*args) if inline else await asyncio.to_thread(function, *args)
                if inspect.isawaitable(result):
                    result = await result
        except Exception as error:
            raise ContractViolation(
                f"{self._label}: {method} raised {type(error).__name__}: {error} "
                "instead of answering an envelope (RESULT-04)", **CRASH
            ) from error
        return result

    def _run(self, make: Any, what: str, method: str | None = None, args: tuple[Any, ...] = (),
             budget: float | None = None) -> Any:
        """Runs `make(inline)` on the session's loop within the call timeout.

        With `method` given and the guard armed, a sync method is simply called: no loop at all.
        """
        if self._stopped is not None or self._loop.is_closed():
            raise ImplementationFailure(f"{self._label}: the session is closed"
                                        + (f" ({self._stopped})" if self._stopped else ""))
        if _running_loop() is not None:  # called from async code: the loop needs a thread
            return _in_thread(lambda: self._run(make, what, budget=budget))
        timeout = budget or self._env.call_timeout_s
        with self._environ.applied(), self._alarm.armed(timeout) as guarded:
            try:
                if guarded and method is not None and not self._is_async[method]:
                    return self._direct(method, args)
                work = make(guarded) if guarded else _bounded(make(False), timeout)
                return self._loop.run_until_complete(work)
            except TimeoutError:
                raise ImplementationFailure(
                    f"{self._label} did not answer {what} within {timeout:g} s"
                ) from None
            except _Expired:
                self._stopped = f"it did not answer within the {timeout:g} s timeout"
                raise ImplementationFailure(
                    f"{self._label} did not answer {what} within {timeout:g} s; the session "
                    "was stopped"
                ) from None

    def _direct(self, method: str, args: tuple[Any, ...]) -> Any:
        try:
            result = getattr(self._impl, method)(*args)
        except Exception as error:
            raise ContractViolation(
                f"{self._label}: {method} raised {type(error).__name__}: {error} "
                "instead of answering an envelope (RESULT-04)", **CRASH
            ) from error
        if inspect.isawaitable(result):
            return self._loop.run_until_complete(result)
        return result


async def _bounded(coroutine: Any, timeout: float) -> Any:
    """Without the alarm: not asyncio.wait_for, which waits for the cancelled call to finish,
    and a call that ignores cancellation would then hang the harness."""
    task = asyncio.ensure_future(coroutine)
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if not done:
        task.cancel()
        await asyncio.wait({task}, timeout=_CANCEL_GRACE_S)
        raise TimeoutError
    return task.result()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _in_thread(function: Any) -> Any:
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = function()
        except BaseException as error:  # handed to the caller as is
            box["error"] = error

    thread = threading.Thread(target=target, name="agentconf-python-call", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


class _Alarm:
    """A SIGALRM deadline for calls on the main thread; its handler stays for the session.

    Installed once (a handler swap per call cost more than the rest of the adapter); only when
    SIGALRM is free, and given back at close. `armed(seconds)` yields whether it guards the call.
    """

    def __init__(self) -> None:
        self._previous: Any = None
        self._installed = False
        if threading.current_thread() is threading.main_thread() \
                and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None):
            self._previous = signal.signal(signal.SIGALRM, _expire)
            self._installed = True

    @contextmanager
    def armed(self, seconds: float) -> Iterator[bool]:
        usable = self._installed and threading.current_thread() is threading.main_thread()
        if not usable:
            yield False
            return
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def release(self) -> None:
        if self._installed and threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_REAL, 0)
            if signal.getsignal(signal.SIGALRM) is _expire:
                signal.signal(signal.SIGALRM, self._previous or signal.SIG_DFL)
            self._installed = False


def _expire(_signum: int, _frame: Any) -> None:
    raise _Expired


class _SessionEnviron:
    """The sandbox's variables (HOME, TMPDIR, XDG, the session marker...) and the root as the
    working folder while the implementation runs.

    In process there is no separate environment: both are set for the duration of each call and
    restored after, so a `bash` tool's `~` lands in the fake home, never the real one, a tool that
    resolves paths against the working folder resolves them in the root (never the user's
    folder, which the oracle does not see), and every process a tool starts carries the marker.
    """

    def __init__(self, env: AdapterEnv) -> None:
        self.marker = secrets.token_hex(8)
        self._root = env.root
        self._values = sandbox_variables(env, self.marker)

    @contextmanager
    def applied(self) -> Iterator[None]:
        saved = {key: os.environ.get(key) for key in self._values}
        os.environ.update(self._values)
        # tempfile reads TMPDIR once and caches the answer in tempfile.tempdir: without this, an
        # implementation's mkdtemp() (openhands-aci makes one per editor) lands in the real /tmp,
        # outside the sandbox that is removed after the check, and stays there.
        saved_tempdir = tempfile.tempdir
        tempfile.tempdir = self._values["TMPDIR"]
        try:
            folder: str | None = os.getcwd()
        except OSError:  # the folder we were in is gone: nothing to go back to
            folder = None
        os.chdir(self._root)
        try:
            yield
        finally:
            tempfile.tempdir = saved_tempdir
            if folder is not None:
                with contextlib.suppress(OSError):
                    os.chdir(folder)
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def open_python(target: str, env: AdapterEnv, profile: Profile, factory: Any) -> PythonAdapter:
    return PythonAdapter(factory, target, env, profile)
