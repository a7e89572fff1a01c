"""Client: canonical calls -> the profile's names -> the adapter -> a normalised `Result`.

After every call the disk oracle judges everything outside the root and scans the answer for
the canaries' secret, even when the implementation then failed: an escape outranks a crash.
Arguments are shaped by session/arguments.py and JSON answers read by session/answers.py, both
as the profile says; what they change or drop is a note in the result's evidence.
"""

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agentconf.contract import CANONICAL_TOOLS, CAPABILITIES, ERROR_CODES, TOOL_CAPABILITIES, Limits
from agentconf.harness.disk.oracle import DiskOracle
from agentconf.harness.profile.model import Profile
from agentconf.harness.session.answers import marked_failed, read_answer
from agentconf.harness.session.arguments import is_virtual_outside, set_target, shape
from agentconf.harness.session.missing_capabilities import missing_argument
from agentconf.harness.session.normalise import check_envelope, classify_text
from agentconf.harness.session.reach import UnsafeCall, is_destructive, outside_contract, unsafe
from agentconf.harness.session.result import Request, Result, dump, neutralise
from agentconf.harness.session.schema_refs import inlined_listing
from agentconf.harness.session.shell_words import not_allowed, refused_by_policy
from agentconf.harness.target.adapters.base import Adapter, AdapterEnv
from agentconf.harness.target.launch import placeholder_values
from agentconf.harness.verdicts.errors import (
    LISTING,
    CancelUnsupported,
    ContractViolation,
    EscapeDetected,
    ExcludedToolCall,
    NotApplicable,
    not_judged,
)

__all__ = ["Client", "set_target"]

# The call budget of a check that waits for a hang on purpose (a FIFO read): "at once", even loaded.
AT_ONCE_S = 3.0
_GUARDED_TOOLS = ("write_file", "edit_file")  # a read-before-write guard may refuse them unread
# What a kept server (harness/target/reuse.py) cannot remember from one test to the next: no
# session feature remembers a call of these tools, nor one refused before it ran. Not bash: a
# command may leave a process running (SHELL-10) that a later test on the same root would meet.
SESSION_NEUTRAL_TOOLS = frozenset({"list_files", "grep"})
REFUSED_BEFORE_RUNNING = frozenset({"INVALID_ARGS", "TOOL_NOT_FOUND"})


class Client:
    """One session of the implementation under test, spoken to in canonical names."""

    def __init__(
        self,
        adapter: Adapter,
        profile: Profile,
        root: Path,
        oracle: DiskOracle | None = None,
        sandbox: Path | None = None,
        known_tools: list[dict[str, Any]] | None = None,
    ) -> None:
        self.adapter = adapter
        self.profile = profile
        self.root = root
        self.oracle = oracle
        # A listing taken earlier in this process (listings are deterministic, REGISTRY-02):
        # schemas for shaping arguments without asking again in every session.
        self._known = known_tools
        # Implementation tool name -> canonical, to read any answer of a mapped tool.
        self._canonical_of = {mapping.name: name for name, mapping in profile.tools.items()}
        env = getattr(adapter, "env", None)  # placeholders of [tools.X] defaults
        self._places = {"root": str(root)} if not isinstance(env, AdapterEnv) else \
            placeholder_values(profile, root, env.home, env.tmp)
        # Destructive tools are sent only paths inside this folder (harness/session/reach.py).
        self.sandbox = sandbox if sandbox is not None else root
        self._replacements = ((str(root), "<ROOT>"),) + (
            ((str(sandbox), "<SANDBOX>"),) if sandbox is not None else ()
        )
        self._listing: list[dict[str, Any]] | None = None
        # Requests sent, and those of them that carried a `path`: counted for the run's stats.
        self.calls = 0
        self.paths = 0
        # Play every write and edit as a model would after reading first: a read-before-write
        # guard that refuses unread files must not hide an escape a model gets by reading.
        self.read_first = False
        # A program the profile's allow-list refuses makes a check n/a; a command the policy
        # refused (the suites turn it on) leaves it not judged: it never ran. EXEC-07 turns
        # both off to judge such a refusal; the draft's probes never have the second.
        self.checks_programs = True
        self.policy_refusal_not_judged = False
        # A call this session may remember was made (SESSION_NEUTRAL_TOOLS says which may not).
        self.may_remember = False
        # A call that may leave work running after its answer was made: a command (its
        # background children) or a cancelled call (the tool may go on with it).
        self.may_leave_running = False
        # tool_search revealed tools to this session, whatever its features; a tool declared
        # under [tools.extra] was called, whose effect on the server (a default working folder,
        # say) no probe settled: a kept server is replaced where that matters (target/reuse.py).
        self.revealed = self.called_beyond = False

    # ---- what the implementation offers -------------------------------------------------------

    @property
    def limits(self) -> Limits:
        return self.profile.limits

    def limits_for(self, tool: str) -> Limits:
        """The limits a canonical tool is judged by: its own output bound, if it declares one."""
        return self.profile.limits_for(tool)

    def may_call(self, name: str) -> bool:
        """False for a tool the profile excludes, and for an advertised tool outside the contract
        the profile neither declares nor opts in to (session/reach.py): the kit never calls it."""
        return (name not in self.profile.exclude_tools
                and not outside_contract(self.profile, name, self._tools()))

    def destructive(self, name: str) -> bool:
        """A tool driven only with paths inside the sandbox (harness/session/reach.py)."""
        return is_destructive(self.profile, name, self._tools())

    def judged_virtually(self, path: Any) -> bool:
        """An absolute path outside the root, sent to an implementation that maps `/x` to
        `root/x` by design: judged on the disk, not by OUTSIDE_ROOT."""
        return is_virtual_outside(path, self.profile, self.root)

    @property
    def listing(self) -> list[dict[str, Any]] | None:
        """The last tools/list answer, or None if none was asked for yet."""
        return self._listing

    def tool_name(self, canonical: str) -> str:
        return self.profile.tool(canonical).name

    def list_tools(self) -> list[dict[str, Any]]:
        """A fresh listing each time (REGISTRY-02 compares two); its shape is checked."""
        try:
            tools = inlined_listing(self.adapter.list_tools())
        except BaseException:
            self.judge("tools/list", "")
            raise
        problems = [f"tool #{index} is {dump(tool)[:120]}" for index, tool in enumerate(tools)
                    if not isinstance(tool, dict) or not isinstance(tool.get("name"), str)]
        if not isinstance(tools, list) or problems:
            raise ContractViolation("tools/list must give a list of objects with a string `name`: "
                                    + "; ".join(problems[:5]), **LISTING)
        if self._listing is None and self.oracle is not None:
            # The session's first listing marks the end of its start: what it wrote into its
            # own HOME until now is its own (state, config), not an escape of a call.
            self.oracle.accept_startup()
        self.judge("tools/list", json.dumps(tools, default=str))
        self._listing = tools
        return tools

    def _tools(self) -> dict[str, dict[str, Any]]:
        if self._listing is None:
            self.list_tools()
        return {tool["name"]: tool for tool in self._listing or ()}

    def contract_tool_names(self, leave_out: tuple[str, ...] = ()) -> list[str]:
        """The advertised names of the contract's tools (canonical ones, as the profile maps
        them), in listing order, without `leave_out` (canonical) and the profile's
        exclude_tools: the only tools a check may call with arbitrary arguments."""
        wanted = {self.tool_name(name) for name in CANONICAL_TOOLS if name not in leave_out}
        return [name for name in self._tools()
                if name in wanted and name not in self.profile.exclude_tools]

    def advertises(self, canonical: str) -> bool:
        return self.tool_name(canonical) in self._tools()

    def schema(self, tool: str) -> dict[str, Any]:
        """The implementation's input schema for a canonical tool."""
        listed = self._tools().get(self.tool_name(tool))
        if listed is None:
            raise LookupError(f"the implementation does not advertise {tool} "
                              f"(as {self.tool_name(tool)!r})")
        schema = listed.get("input_schema", listed.get("inputSchema"))
        if not isinstance(schema, dict):
            raise ContractViolation(f"{tool}'s input_schema is not an object: {dump(schema)}",
                                    **LISTING)
        return schema

    def has(self, capability: str) -> bool:
        return self.why_missing(capability) is None

    def why_missing(self, capability: str) -> str | None:
        """None when the implementation has the capability, else why not (naming what to set)."""
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {capability!r}")
        switched = self.profile.capabilities.get(capability)
        if switched is not None:
            return None if switched else f"[capabilities].{capability} = false"
        unproven = self.profile.unproven_calls(capability)
        if unproven is not None:
            return not_judged(capability, unproven)
        if capability in TOOL_CAPABILITIES:
            if excluded := self.profile.excluded(capability):
                return excluded
            if self.advertises(capability):
                return None
            return f"{self.tool_name(capability)!r} is not advertised"
        return missing_argument(capability, self.profile, self._tools())

    def missing(self, capabilities: list[str]) -> list[str]:
        return [name for name in capabilities if not self.has(name)]

    # ---- calls ---------------------------------------------------------------------------------

    def call(self, tool: str, **arguments: Any) -> Result:
        refusal = not_allowed(self.profile, tool, arguments) if self.checks_programs else None
        if refusal is not None:
            raise NotApplicable(refusal)
        if self.read_first and tool in _GUARDED_TOOLS and isinstance(arguments.get("path"), str):
            self.prime(arguments["path"])
        result = self._finish([self._request(tool, arguments)])[0]
        if self.policy_refusal_not_judged and (why := refused_by_policy(tool, result)):
            raise NotApplicable(why)
        return result

    def prime(self, path: str) -> None:
        """Reads `path` first to set up the check's call: what it answers, a secret included, is
        the read clauses' business (CONFINE-08), but the disk is judged after it as always."""
        if not self.has("read_file"):
            return
        request = self._request("read_file", {"path": path})
        self.calls += 1
        self.may_remember = True
        try:
            self.adapter.call_tool(request.name, request.sent)
        finally:
            self.judge("read_file (read before writing)", "")

    def call_raw(self, name: str, arguments: Any) -> Result:
        """No mapping at all: for unknown tools and arguments that are not objects."""
        self.called_beyond |= name in self.profile.path_tools
        return self._finish([Request(name, arguments, name, arguments)])[0]

    def call_concurrently(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Result]:
        return self._finish([self._request(tool, arguments) for tool, arguments in calls])

    def call_cancelled(
        self, tool: str, ready: Callable[[], bool], **arguments: Any
    ) -> Result | None:
        """Makes the call and cancels it once `ready()` holds (CANCEL): the Result of what the
        implementation answered, or None when the cancelled call answered nothing (MCP, and a
        cancelled task in process). CancelUnsupported when it offers no way to cancel."""
        cancel = getattr(self.adapter, "call_and_cancel", None)
        if cancel is None:
            raise CancelUnsupported(f"the {type(self.adapter).__name__} cannot cancel a call")
        request = self._request(tool, arguments)
        self._refuse_unsafe([request])
        self.calls += 1
        self.may_remember |= tool not in SESSION_NEUTRAL_TOOLS  # whatever it answers: cut short
        self.may_leave_running = True
        self.revealed |= tool == "tool_search"
        try:
            raw = cancel(request.name, request.sent, ready)
        except BaseException:
            self.judge(f"{request.name} (cancelled)", "")
            raise
        self.judge(f"{request.name} (cancelled)", json.dumps(raw, default=str, ensure_ascii=False))
        return None if raw is None else self._result(request, raw)

    def close(self) -> None:
        self.adapter.close()

    @contextlib.contextmanager
    def budget(self, seconds: float) -> Iterator[None]:
        """A shorter per-call timeout for a check that waits for a hang on purpose (a FIFO read
        must answer at once: waiting the full timeout for it would only slow every run)."""
        previous = self.adapter.set_call_timeout(seconds)
        if previous <= seconds:
            self.adapter.set_call_timeout(previous)
            yield
            return
        try:
            yield
        finally:
            self.adapter.set_call_timeout(previous)

    def _request(self, tool: str, arguments: dict[str, Any]) -> Request:
        unproven = self.profile.unproven_call(tool, arguments)
        if unproven is not None:  # a premise the draft could not prove: nothing to judge on
            raise NotApplicable(not_judged(tool, unproven))
        mapping = self.profile.tool(tool)
        shaped = shape(tool, arguments, self.profile, self.root, self._schema_of(mapping.name),
                       self._places)
        return Request(tool, dict(arguments), mapping.name, shaped.sent, shaped.notes)

    def _schema_of(self, name: str) -> dict[str, Any] | None:
        listing = self._listing if self._listing is not None else self._known
        if listing is None:
            listing = self.list_tools()
        for tool in listing:
            if tool.get("name") == name:
                schema = tool.get("input_schema", tool.get("inputSchema"))
                return schema if isinstance(schema, dict) else None
        return None

    def _finish(self, requests: list[Request]) -> list[Result]:
        excluded = [r.name for r in requests if r.name in self.profile.exclude_tools]
        if excluded:  # a suite's bug, never sent: the profile says these must not run
            raise ExcludedToolCall(f"the kit tried to call {', '.join(excluded)}, which the "
                                   "profile's [implementation].exclude_tools forbids")
        self._refuse_unsafe(requests)
        self.calls += len(requests)
        self.may_leave_running |= any(request.tool == "bash" for request in requests)
        self.revealed |= any(request.tool == "tool_search" for request in requests)
        self.paths += sum(isinstance(r.arguments, dict) and "path" in r.arguments
                          for r in requests)
        what = ", ".join(request.name for request in requests)
        try:
            if len(requests) == 1:
                raws = [self.adapter.call_tool(requests[0].name, requests[0].sent)]
            else:
                raws = self.adapter.call_many([(req.name, req.sent) for req in requests])
        except BaseException:
            self.may_remember |= any(r.tool not in SESSION_NEUTRAL_TOOLS for r in requests)
            self.judge(what, "")  # an escape, if there was one, is the finding that matters
            raise
        self.judge(what, json.dumps(raws, default=str, ensure_ascii=False))
        return [self._result(request, raw) for request, raw in zip(requests, raws, strict=True)]

    def _refuse_unsafe(self, requests: list[Request]) -> None:
        """The safety rules of harness/session/reach.py, for every request before any is sent."""
        for request in requests:
            why = unsafe(self.profile, self._tools(), request.name, request.sent, self.root,
                         self.sandbox)
            if why is not None:
                raise UnsafeCall(neutralise(why, self._replacements))

    def _result(self, request: Request, raw: Any) -> Result:
        try:
            envelope = check_envelope(raw)
        except ContractViolation as error:
            self.may_remember |= request.tool not in SESSION_NEUTRAL_TOOLS
            raise ContractViolation(neutralise(
                f"{error}\nrequest: {request.tool} {dump(request.arguments)}", self._replacements
            )) from None
        success, data, code = envelope.success, envelope.data, envelope.error
        # Only the implementation's own code says it refused before running (never its text).
        self.may_remember |= request.tool not in SESSION_NEUTRAL_TOOLS and (
            success or code not in REFUSED_BEFORE_RUNNING)
        exit_code = envelope.exit_code
        notes: tuple[str, ...] = ()
        # The call's own tool (file_ops may be write and delete, each with its shape); raw: by name
        canonical = request.tool if request.tool in self.profile.tools else self._canonical_of.get(
            request.name, request.name)
        mapping = self.profile.tools.get(canonical)  # only a tool with a table has a shape
        answer_shape = mapping.result if mapping is not None else None
        if answer_shape is not None and answer_shape.model_fields_set:
            reading = read_answer(answer_shape, data, raw.get("structured_content"),
                                  self._codes)
            where = f"[tools.{canonical}].result"
            if reading.text is not None:
                data = reading.text
                notes += (f"text read at {where}.text: {dump(data)}",)
            if reading.failed and success:
                success = False
                notes += (f"a failure by {where}.failure",)
                if canonical == "bash" and reading.exit_code not in (None, 0):  # a status, or
                    code = code or reading.flagged or "NONZERO_EXIT"  # a flag, said why
            if not success and reading.error_message and reading.text is None:
                data = reading.error_message
            code = code or (None if success else reading.flagged or reading.error_code)
            if reading.exit_code is not None:
                exit_code = reading.exit_code
            if not success and code is None and reading.error_message:
                code = classify_text(reading.error_message, self.profile)
        marker = self.profile.implementation.failure
        if success and marker is not None and marked_failed(
                marker, envelope.data, raw.get("structured_content")):
            success = False  # refused in words every tool of it shares, beside its own marker
            notes += ("a failure by [implementation].failure",)
        return Result(
            success=success,
            data=data,
            error=classify_text(data, self.profile, code, success, envelope.data),
            summary=envelope.summary,
            diff=envelope.diff,
            issues=envelope.issues,
            denial=envelope.denial,
            exit_code=exit_code,
            raw=raw,
            request=request,
            _replacements=self._replacements,
            notes=notes,
            refusal_unproven=self.profile.unproven_refusals(canonical) if success else None,
        )

    @property
    def _codes(self) -> frozenset[str]:
        return frozenset(ERROR_CODES) | frozenset(self.profile.error_codes)

    def judge(self, what: str, text: str = "") -> None:
        if self.oracle is None:
            return
        try:
            self.oracle.check(text, what)
        except EscapeDetected as error:
            raise EscapeDetected(neutralise(str(error), self._replacements)) from None
