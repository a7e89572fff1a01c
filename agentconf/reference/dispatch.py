"""The one place a call goes through: lookup -> validate -> gate -> execute -> bound -> envelope.

dskcode's dispatch, @clarvis/agent-tools' five steps, agentkit's executor. Every outcome, including
a bug in
a tool, leaves here as an `Envelope`; nothing raises to the caller. The one exception is the
caller's own cancellation of the task awaiting `call`: that CancelledError is asyncio's, and
swallowing it would break `asyncio.timeout` and task groups, so the handler is stopped and the
cancellation goes on up. A handler that is cancelled from inside answers CANCELLED.
"""

import asyncio
import dataclasses
import logging
import threading
import time
from typing import Any

from pydantic import BaseModel

from agentconf.contract import Envelope, Limits

from .context import ToolContext
from .declare import Declaration
from .permissions import PermissionGate, PermissionRequest, ask
from .registry import ToolRegistry
from .results import ToolError, fail
from .sandbox.bounding import bound_text

# Failures whose data is a command's output rather than a message about the call.
COMMAND_OUTPUT_CODES = frozenset({"NONZERO_EXIT", "TIMEOUT"})
log = logging.getLogger(__name__)

# An issue list stays readable; a call with a thousand stray keys does not need a thousand issues.
MAX_ISSUES = 25
# How long a stopped handler may take to wind down (a worker thread cannot be killed) before the
# call answers anyway.
STOP_GRACE_S = 5.0


class Dispatcher:
    def __init__(self, context: ToolContext, registry: ToolRegistry, gate: PermissionGate,
                 call_timeout_s: float) -> None:
        self._context = context
        self._registry = registry
        self._gate = gate
        self._call_timeout_s = call_timeout_s

    @property
    def limits(self) -> Limits:
        return self._context.limits

    async def call(self, name: Any, arguments: Any) -> Envelope:
        try:
            return await self._call(name, arguments)
        except Exception as error:  # the last guard: a broken gate or envelope is still answered
            log.exception("dispatch of %r failed", name)
            return fail("EXECUTION_ERROR", _bug_message("the call", error))

    async def _call(self, name: Any, arguments: Any) -> Envelope:
        declaration = self._registry.get(name, self._context.session.revealed)
        if declaration is None:
            return self._finish(None, self._unknown_tool(name))
        validated = declaration.validate(arguments, received_limit=self.limits.received_max_chars)
        if not validated.ok:
            return self._finish(declaration, _invalid(declaration, validated.issues))
        denial = await ask(self._gate, _request(declaration, validated.value))
        if denial is not None:
            hint = f" {denial.hint}" if denial.hint else ""
            message = f"{declaration.name} was not run: {denial.reason}{hint}"
            return self._finish(declaration, fail("PERMISSION_DENIED", message, denial=denial))
        return self._finish(declaration, await self._execute(declaration, validated.value))

    async def _execute(self, declaration: Declaration, value: Any) -> Envelope:
        context = dataclasses.replace(
            self._context,
            deadline=time.monotonic() + self._call_timeout_s,
            cancelled=threading.Event(),
        )
        task = asyncio.ensure_future(declaration.handler(value, context))
        try:
            return await asyncio.wait_for(asyncio.shield(task), self._call_timeout_s)
        except TimeoutError:
            await _stop(task, context)
            return fail(
                "TIMEOUT",
                f"{declaration.name} did not finish within {self._call_timeout_s:g} s and was "
                "stopped. Try a smaller request.",
            )
        except asyncio.CancelledError:
            if task.cancelled() and not _current_task_cancelling():
                return fail("CANCELLED", f"{declaration.name} was cancelled before it finished.")
            await _stop(task, context)
            raise
        except ToolError as error:
            return error.envelope()
        except Exception as error:
            log.exception("tool %s raised", declaration.name)
            return fail("EXECUTION_ERROR", _bug_message(declaration.name, error))

    def _finish(self, declaration: Declaration | None, envelope: Any) -> Envelope:
        """Bounds what the model will read: output to max_output_chars, failures to the message
        budget. A handler that returned something other than an Envelope is a bug, said so."""
        if not isinstance(envelope, Envelope):
            name = declaration.name if declaration else "the tool"
            message = f"{name} answered without a result envelope; this is a bug in the tool."
            envelope = fail("EXECUTION_ERROR", message)
        update: dict[str, str] = {}
        if envelope.error in COMMAND_OUTPUT_CODES:
            # A command's own output (RESULT-07): bounded by max_output_chars, not the budget.
            if not (declaration and declaration.bounds_own_output):
                update["data"] = bound_text(envelope.data, self.limits.max_output_chars)
        elif envelope.success and not (declaration and declaration.bounds_own_output):
            update["data"] = bound_text(envelope.data, self.limits.max_output_chars)
        elif not envelope.success:
            # The marker must fit in the budget too, so the text itself gets a little less.
            update["data"] = bound_text(envelope.data, self.limits.message_budget_chars - 60)
        if envelope.diff is not None:
            update["diff"] = bound_text(envelope.diff, self.limits.max_output_chars)
        changed = {key: value for key, value in update.items() if value != getattr(envelope, key)}
        copied: Envelope = envelope.model_copy(update=changed) if changed else envelope
        return copied

    def _unknown_tool(self, name: Any) -> Envelope:
        shown = name if isinstance(name, str) else repr(name)
        shown = shown if len(shown) <= 60 else shown[:59] + "…"
        advertised = ", ".join(
            tool.name for tool in self._registry.listed(self._context.session.revealed)
        )
        hint = " Use tool_search to find more." if self._registry.deferred() else ""
        return fail(
            "TOOL_NOT_FOUND",
            f"There is no tool named `{shown}`. Available tools: {advertised}.{hint}",
        )


def _invalid(declaration: Declaration, issues: list[Any]) -> Envelope:
    shown = issues[:MAX_ISSUES]
    lines = [f"Invalid arguments for {declaration.name}; fix each one and call again:"]
    lines += [f"- {issue.message}" for issue in shown]
    if len(issues) > len(shown):
        lines.append(f"- and {len(issues) - len(shown)} more problems.")
    return fail("INVALID_ARGS", "\n".join(lines), issues=shown)


def _request(declaration: Declaration, value: Any) -> PermissionRequest:
    arguments = value.model_dump() if isinstance(value, BaseModel) else dict(value)
    return PermissionRequest(tool=declaration.name, kind=declaration.kind, arguments=arguments)


def _bug_message(what: str, error: Exception) -> str:
    # The exception's own text is logged, not shown: it may hold absolute paths outside the root.
    return (
        f"{what} failed unexpectedly ({type(error).__name__}). This is a bug in the tool; "
        "repeating the call is unlikely to help, so try another approach."
    )


def _current_task_cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def _stop(task: asyncio.Future[Envelope], context: ToolContext) -> None:
    """Asks the handler to stop (the flag reaches worker threads, cancel reaches coroutines) and
    waits for it, so nothing it started outlives the call."""
    context.cancelled.set()
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=STOP_GRACE_S)
    if not done:
        log.warning("a stopped handler is still running after %s s", STOP_GRACE_S)
    elif not task.cancelled() and task.exception() is not None:
        log.info("a stopped handler ended with %r", task.exception())
