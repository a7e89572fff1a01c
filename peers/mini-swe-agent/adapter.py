"""mini-swe-agent 2.4.6's one tool, `bash`, as its agent runs it, in process.

create(workspace) builds the LocalEnvironment of mini-swe-agent's shipped default config
(`minisweagent/config/default.yaml`: its `environment` section, the PAGER and TQDM variables)
with cwd = the root. The listing is the tool a tool-calling model is sent (BASH_TOOL of
`models/utils/actions_toolcall.py`).

A call goes the way DefaultAgent.step() runs a model's tool call: the arguments as the JSON text
a model writes, parsed by mini-swe-agent's own `parse_toolcall_actions` (an unknown tool, bad
JSON or a missing `command` is its FormatError, whose message goes back to the model: a
failure here), then `env.execute(action)`, then `format_toolcall_observation_messages` with the
default config's `observation_template`: the text the model reads
(`<returncode>N</returncode>` and `<output>...</output>`, or a head and tail with a warning past
10,000 characters). The tool message carries no status of its own, so every executed command
is a success here, as the model gets it; the profile says which texts are failures. No model and
no key are needed.
"""

import json
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import yaml
from minisweagent.config import builtin_config_dir
from minisweagent.environments.local import LocalEnvironment
from minisweagent.exceptions import FormatError, Submitted
from minisweagent.models.utils.actions_toolcall import (
    BASH_TOOL,
    format_toolcall_observation_messages,
    parse_toolcall_actions,
)


class MiniSweAgentBash:
    name = "mini-swe-agent bash"

    def __init__(self, root: Path) -> None:
        config = yaml.safe_load((builtin_config_dir / "default.yaml").read_text())
        self._model = config.get("model", {})
        self.env = LocalEnvironment(**{**config.get("environment", {}), "cwd": str(root)})

    def list_tools(self) -> list[dict[str, Any]]:
        function = BASH_TOOL["function"]
        return [{"name": function["name"], "description": function["description"],
                 "input_schema": function["parameters"]}]

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        tool_call = SimpleNamespace(
            id=f"call_{uuid.uuid4().hex}",
            function=SimpleNamespace(name=name, arguments=json.dumps(arguments)))
        try:
            actions = parse_toolcall_actions(
                [tool_call], format_error_template=self._model["format_error_template"],
                template_kwargs={"finish_reason": "stop"})
        except FormatError as error:
            return {"success": False, "data": error.messages[0]["content"]}
        try:
            outputs = [self.env.execute(action) for action in actions]
        except Submitted as submitted:  # the agent's own end: the output's first line said so
            return {"success": True, "data": submitted.messages[0]["content"]}
        message = format_toolcall_observation_messages(
            actions=actions, outputs=outputs,
            observation_template=self._model["observation_template"],
            template_vars=self.env.get_template_vars())[0]
        return {"success": True, "data": message["content"]}


def create(workspace: Any) -> MiniSweAgentBash:
    return MiniSweAgentBash(Path(workspace.root))
