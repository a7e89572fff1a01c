"""In-process adapter: `FACTORY(workspace)` -> an object with `list_tools()` and `call_tool()`.

`call_tool` may be sync or async. Calls run on a private event loop in its own thread (sync ones
through `asyncio.to_thread`), so `call_many` really has several calls in flight at once, which the
CONCUR clauses need (seed 001: concurrency-safe tools run together).

An exception escaping `call_tool` is itself a contract failure (RESULT-04: seed 000's dispatcher
wraps every exception into EXECUTION_ERROR), so it is raised as a ContractViolation.
"""

import asyncio
import copy
import inspect
import os
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from typing import Any

from agentconf.contract import Workspace

from ..errors import ContractViolation, ImplementationFailure
from ..profile import Profile
from .base import AdapterEnv


class PythonAdapter:
    def __init__(self, factory: Any, label: str, env: AdapterEnv, profile: Profile) -> None:
        self._label = label
        self._env = env
        self._environ = _SessionEnviron(env)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"agentconf:{label}",
                                        daemon=True)
        self._thread.start()
        workspace = Workspace(root=env.root, limits=profile.limits)
        try:
            with self._environ.applied():
                self._impl = factory(workspace)
        except Exception as error:
            self.close()
            raise ImplementationFailure(
                f"{label}: the factory raised {type(error).__name__}: {error}"
            ) from error
        for method in ("list_tools", "call_tool"):
            if not callable(getattr(self._impl, method, None)):
                self.close()
                raise ImplementationFailure(f"{label}: the factory's object has no {method}()")
        self.name = str(getattr(self._impl, "name", None) or label)
        version = getattr(self._impl, "version", None)
        self.version = str(version) if version is not None else None

    def list_tools(self) -> list[dict[str, Any]]:
        try:
            return self._run(self._invoke("list_tools"), "tools/list")
        except ContractViolation as error:
            raise ImplementationFailure(str(error)) from error

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return self._run(self._invoke("call_tool", name, copy.deepcopy(arguments)), "tools/call")

    def call_many(self, calls: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        async def together() -> list[Any]:
            return list(await asyncio.gather(
                *(self._invoke("call_tool", name, copy.deepcopy(args)) for name, args in calls)
            ))

        return self._run(together(), "tools/call")

    def close(self) -> None:
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        if not self._loop.is_running():
            self._loop.close()

    async def _invoke(self, method: str, *args: Any) -> Any:
        function = getattr(self._impl, method)
        try:
            if inspect.iscoroutinefunction(function):
                result = await function(*args)
            else:
                result = await asyncio.to_thread(function, *args)
                if inspect.isawaitable(result):
                    result = await result
        except Exception as error:
            raise ContractViolation(
                f"{self._label}: {method} raised {type(error).__name__}: {error} "
                "instead of answering an envelope (RESULT-04)"
            ) from error
        return result

    def _run(self, coroutine: Any, what: str) -> Any:
        if self._loop.is_closed():
            coroutine.close()
            raise ImplementationFailure(f"{self._label}: the session is closed")
        with self._environ.applied():
            future: Future[Any] = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
            try:
                return future.result(timeout=self._env.call_timeout_s)
            except FutureTimeout:
                future.cancel()
                raise ImplementationFailure(
                    f"{self._label} did not answer {what} within {self._env.call_timeout_s:g} s"
                ) from None


class _SessionEnviron:
    """HOME, TMPDIR and AGENTCONF_ROOT point into the sandbox while the implementation runs.

    In process there is no separate environment: the variables are set for the duration of each
    call and restored after, so a `bash` tool's `~` lands in the fake home, never the real one.
    """

    def __init__(self, env: AdapterEnv) -> None:
        self._values = {
            "HOME": str(env.home),
            "TMPDIR": str(env.tmp),
            "AGENTCONF_ROOT": str(env.root),
            **env.extra_env,
        }

    @contextmanager
    def applied(self) -> Iterator[None]:
        saved = {key: os.environ.get(key) for key in self._values}
        os.environ.update(self._values)
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def open_python(target: str, env: AdapterEnv, profile: Profile, factory: Any) -> PythonAdapter:
    return PythonAdapter(factory, target, env, profile)
