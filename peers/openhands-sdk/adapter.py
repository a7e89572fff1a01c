"""OpenHands Software Agent SDK 1.58.2's tools (openhands-tools), as an OpenHands agent runs them.

create(workspace) builds what a user of the SDK builds: `Agent(llm=..., tools=[Tool(name=...)])`
over the registered TerminalTool, FileEditorTool (the tools of `get_default_tools`, the browser
left out as in CLI mode), GrepTool, GlobTool (the planning preset's) and ApplyPatchTool (the GPT-5
preset's), and a `LocalConversation(agent, workspace=root)` whose ConversationState makes each
tool with its `Tool.create(conv_state)`: every argument at its default (the terminal picks tmux
when it is on PATH, as it is here, else a subprocess shell; the file editor's workspace_root is
the root). The agent's LLM is the SDK's own scripted `TestLLM`, never asked anything: no model,
no key. The tools the model is shown are the agent's whole `tools_map` (the SDK's built-in
`finish`, `think`... too), each as `to_openai_tool(add_security_risk_prediction=True)` gives it,
as `Agent.step` sends them, with the ToolAnnotations each tool declares (readOnlyHint...: what
`to_mcp_tool` publishes; the model's function schema does not carry them).

A call goes where a tool call the LLM answered goes (`_handle_tool_calls` in
openhands/sdk/agent/response_dispatch.py): under the conversation's state lock, as
`LocalConversation.run` holds it for a step, `Agent._get_action_event` parses, normalises and
validates the arguments into an Action (its AgentErrorEvent for an unknown tool or a bad
argument), and `Agent._execute_actions` runs the tool's executor through the agent's
ParallelToolExecutor (its resource locks). The event the model reads is the last one emitted:
its `to_llm_message()` text is `data`; success is an ObservationEvent whose Observation has no
`is_error` (an AgentErrorEvent or a rejection is a failure). Nothing is added or converted.
"""

import json
import uuid
from typing import Any

from openhands.sdk import Agent, LocalConversation, Tool
from openhands.sdk.event import ActionEvent, ObservationEvent
from openhands.sdk.llm import MessageToolCall, TextContent
from openhands.sdk.testing import TestLLM
from openhands.tools.apply_patch import ApplyPatchTool
from openhands.tools.file_editor import FileEditorTool
from openhands.tools.glob import GlobTool
from openhands.tools.grep import GrepTool
from openhands.tools.terminal import TerminalTool

_TOOLS = [TerminalTool, FileEditorTool, GrepTool, GlobTool, ApplyPatchTool]


class OpenHandsTools:
    name = "openhands-tools (OpenHands Software Agent SDK)"

    def __init__(self, root: str) -> None:
        agent = Agent(llm=TestLLM.from_messages([]), tools=[Tool(name=t.name) for t in _TOOLS])
        self._conversation = LocalConversation(agent=agent, workspace=root, visualizer=None)
        self._conversation._ensure_agent_ready()
        self._agent = self._conversation.agent

    def list_tools(self) -> list[dict[str, Any]]:
        listed = []
        for tool in self._agent.tools_map.values():
            function = tool.to_openai_tool(add_security_risk_prediction=True)["function"]
            entry = {"name": function["name"], "description": function.get("description"),
                     "input_schema": function.get("parameters", {})}
            if tool.annotations is not None:  # its ToolAnnotations, as to_mcp_tool publishes them
                entry["annotations"] = tool.annotations.model_dump(exclude_none=True)
            listed.append(entry)
        return listed

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        events: list[Any] = []
        call = MessageToolCall(id=f"call_{uuid.uuid4().hex}", name=name,
                               arguments=json.dumps(arguments), origin="completion")
        conversation = self._conversation
        with conversation._state:
            state = conversation.state
            action_event = self._agent._get_action_event(
                call, conversation=conversation, llm_response_id="agentconf",
                on_event=events.append, security_analyzer=state.security_analyzer)
            if action_event is not None and not self._agent._requires_user_confirmation(
                    state, [action_event], events.append):
                self._agent._execute_actions(conversation, [action_event], events.append)
        answer = [e for e in events if not isinstance(e, ActionEvent)][-1]
        message = answer.to_llm_message()
        data = "".join(c.text for c in message.content if isinstance(c, TextContent))
        success = isinstance(answer, ObservationEvent) and not answer.observation.is_error
        return {"success": success, "data": data}

    def close(self) -> None:
        self._conversation.close()


def create(workspace: Any) -> OpenHandsTools:
    return OpenHandsTools(str(workspace.root))
