"""`agentconf init --from`: the shell's harmless probes. A command that prints one line to
stdout and one to stderr shows where a JSON answer keeps its output (`[tools.bash.result] text`:
Claude Code's Bash answers {"stdout", "stderr", "interrupted", ...}); `exit 3` shows how a
non-zero exit is worded (NONZERO_EXIT) and `sleep 5` under a timeout of 300 ms how a timeout is
(TIMEOUT), each only where the shell's failures carry no code of their own.

Every command runs in the scratch sandbox's root and writes nothing.
"""

import json
from typing import Any

from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.init_from.findings import Findings, failure, safely

_OUT, _ERR = "agentconf-probe-out", "agentconf-probe-err"


def probe_shell(client: Client, found: Findings) -> None:
    said = safely(lambda: client.call("bash", command=f"echo {_OUT}; echo {_ERR} >&2"), found,
                  "a command printing a line to stdout and one to stderr")
    _output_places(found, said)
    failure(found, "NONZERO_EXIT", "a command that exits 3",
            lambda: client.call("bash", command="exit 3"))
    if _takes_timeout(client):
        failure(found, "TIMEOUT", "sleep 5 with a timeout of 300 ms",
                lambda: client.call("bash", command="sleep 5", timeout_ms=300))


def _takes_timeout(client: Client) -> bool:
    mapping = client.profile.tool("bash")
    tool = client._tools().get(mapping.name, {})
    schema = tool.get("input_schema") or tool.get("inputSchema") or {}
    return mapping.target("timeout_ms") in (schema.get("properties") or {})


def _output_places(found: Findings, result: Result | None) -> None:
    """Where a JSON answer keeps the command's stdout and stderr: the text the checks read."""
    if result is None or not result.success:
        return
    try:
        value = json.loads(result.data)
    except ValueError:
        return
    places = list(dict.fromkeys(place for text in (_OUT, _ERR)
                                if (place := _place_of(value, text)) is not None))
    if not places:
        return
    found.keys.setdefault("bash", {}).setdefault("result", {}).setdefault(
        "text", places[0] if len(places) == 1 else places)
    found.evidence.setdefault("bash", []).append(
        "probe: a command printing a line to stdout and one to stderr answered JSON with its "
        f"output at {' and '.join(places)}")


def _place_of(value: Any, text: str, path: str = "", depth: int = 0) -> str | None:
    """The dotted place of the string field that holds `text` as a line, shallowest first."""
    if not isinstance(value, dict) or depth > 3:
        return None
    for key, inner in value.items():
        if isinstance(inner, str) and text in inner.splitlines():
            return f"{path}{key}"
    for key, inner in value.items():
        place = _place_of(inner, text, f"{path}{key}.", depth + 1)
        if place is not None:
            return place
    return None
