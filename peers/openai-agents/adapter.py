"""The OpenAI Agents SDK 0.24.0's local sandbox tools, as its Runner runs them, in process.

What the SDK ships for work on local files and a shell is its sandbox (`agents.sandbox`): a
`SandboxAgent` gets its tools from its capabilities, by default `Filesystem()`, `Shell()` and
`Compaction()` (`Capabilities.default()`), bound to a sandbox session. The local session is
`UnixLocalSandboxClient().create(manifest=Manifest(root=<root>))`, the SDK's own backend for the
host's files and shell (no Docker). Every option is left at its default: the session inherits
the host's environment (HOME set to the root), commands run through `sh -c` in the root, and the
shell is not confined on Linux (the client's docstring says so: only macOS gets sandbox-exec).

Its tools are `view_image` (a function tool), `apply_patch` (a Responses *custom* tool: freeform
text in Codex's patch grammar, no JSON), `exec_command` and `write_stdin` (function tools; the
local session supports a PTY). They are listed as the SDK sends them to a model: the tools the
Runner hands the model in a real run, converted by the Responses model's own
`Converter.convert_tools`. A freeform tool has no JSON schema: it is listed here with one string
argument `patch`, the text the model writes; any other arguments the kit sends are passed as their
JSON text (what a model writing JSON there would send; the SDK's parser takes JSON operations too).

A call runs the way the SDK's Runner runs it: `Runner.run` of a fresh `SandboxAgent` (one agent
may not run concurrently) on the one live session, with `RunConfig(sandbox=SandboxRunConfig(
session=...))`, and the SDK's own deterministic test model (`agents.testing.ScriptedModel`)
answering one tool call and then a final message. No model, no network, no API key. The output
item's text is the data, exactly what the model would read; a non-text output (an image) is
given as the JSON of what the model would get. The model sees no failure flag at all; the
Runner records a tool's failure on its trace span (an exception inside the tool: the custom
tool's text is then the exception's message), so the envelope's success is "no error recorded on
the tool's span" (a trace processor of our own, installed with the SDK's
`set_trace_processors`, replaces the default exporter, so nothing leaves the machine). Failures
the tools report in words ("Process exited with code 3", "Invalid tool arguments ...") are
classified by the profile. An exception out of `Runner.run` (an unknown tool is the SDK's
ModelBehaviorError) is not caught: the agent run fails, and so does the call.
"""

import asyncio
import json
import uuid
from typing import Any

import agents
from agents import RunConfig, Runner
from agents.models.openai_responses import Converter
from agents.run_config import SandboxRunConfig
from agents.sandbox import Manifest, SandboxAgent
from agents.sandbox.sandboxes.unix_local import UnixLocalSandboxClient
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool import CustomTool
from agents.tracing import TracingProcessor, set_trace_processors, set_tracing_disabled
from openai.types.responses import ResponseCustomToolCall


class _SpanErrors(TracingProcessor):
    """Errors the Runner records on tool spans, by trace id."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def on_trace_start(self, trace: Any) -> None:
        pass

    def on_trace_end(self, trace: Any) -> None:
        pass

    def on_span_start(self, span: Any) -> None:
        pass

    def on_span_end(self, span: Any) -> None:
        if getattr(span.span_data, "type", None) == "function" and span.error:
            self.errors[span.trace_id] = span.error

    def shutdown(self) -> None:
        pass

    def force_flush(self) -> None:
        pass


_SPANS = _SpanErrors()
set_trace_processors([_SPANS])
# The spans are where the failure flag is read: on even where OPENAI_AGENTS_DISABLE_TRACING is
# set (the only processor is the one above; nothing is exported).
set_tracing_disabled(False)


class OpenAIAgentsSandbox:
    name = "OpenAI Agents SDK sandbox tools (UnixLocalSandboxClient)"
    version = agents.__version__

    def __init__(self, root: str) -> None:
        self._root = root
        self._session: Any = None
        self._starting: asyncio.Lock | None = None
        self._custom: set[str] = set()

    async def _live(self) -> Any:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._session is None:
                session = await UnixLocalSandboxClient().create(manifest=Manifest(root=self._root))
                await session.start()  # what `async with session:` does
                self._session = session
        return self._session

    async def _run(self, output: list[Any]) -> tuple[Any, ScriptedModel, str]:
        session = await self._live()
        model = ScriptedModel([output, [assistant_message("done")]] if output else
                              [[assistant_message("done")]])
        trace_id = f"trace_{uuid.uuid4().hex}"
        result = await Runner.run(
            SandboxAgent(name="agentconf"), "Use the tools.",
            run_config=RunConfig(model=model, trace_id=trace_id,
                                 sandbox=SandboxRunConfig(session=session)),
        )
        return result, model, trace_id

    async def list_tools(self) -> list[dict[str, Any]]:
        _, model, _ = await self._run([])
        converted = Converter.convert_tools(list(model.calls[0].tools), []).tools
        listed = []
        for tool, param in zip(model.calls[0].tools, converted, strict=True):
            param = dict(param)
            if isinstance(tool, CustomTool):
                self._custom.add(tool.name)
                schema = {"type": "object", "properties": {"patch": {
                    "type": "string",
                    "description": "the freeform text the model writes (a custom tool: "
                                   f"format {json.dumps(param.get('format'))[:200]}...)"}},
                    "required": ["patch"], "additionalProperties": False}
            else:
                schema = param.get("parameters") or {"type": "object", "properties": {}}
            listed.append({"name": param["name"], "description": param.get("description"),
                           "input_schema": schema})
        return listed

    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        if not self._custom:
            await self.list_tools()
        call_id = f"call_{uuid.uuid4().hex}"
        if name in self._custom:
            text = arguments.get("patch") if isinstance(arguments, dict) else None
            if not (isinstance(text, str) and set(arguments) == {"patch"}):
                text = json.dumps(arguments)
            item: Any = ResponseCustomToolCall(type="custom_tool_call", call_id=call_id,
                                               name=name, input=text)
        else:
            item = function_call(name, json.dumps(arguments), call_id=call_id)
        result, _, trace_id = await self._run([item])
        for entry in result.new_items:
            raw = entry.raw_item
            if getattr(entry, "type", None) == "tool_call_output_item" and (
                    raw.get("call_id") if isinstance(raw, dict) else getattr(raw, "call_id", None)
            ) == call_id:
                output = entry.output
                if not isinstance(output, str):
                    seen = raw.get("output") if isinstance(raw, dict) else raw
                    output = json.dumps(seen, default=str)
                return {"success": _SPANS.errors.pop(trace_id, None) is None, "data": output}
        raise RuntimeError(f"the run answered no output for {name}: {result.new_items!r}")

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.pty_terminate_all()
            await self._session.aclose()


def create(workspace: Any) -> OpenAIAgentsSandbox:
    return OpenAIAgentsSandbox(str(workspace.root))
