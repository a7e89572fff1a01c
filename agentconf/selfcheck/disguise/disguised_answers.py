"""The reference's envelope as the disguised server answers it: the text a model reads (a success
wrapped in JSON or not; a failure reworded, with its code as a prefix or not, behind a
framework's prefix, a text marker, JSON quoting or inside a JSON status), whether MCP's isError
is set, and what structured content is left (the envelope's extras, the code where the disguise
keeps it there).

The identity disguise answers exactly as `agentconf serve --mcp` does: the whole envelope as
structured content, its `data` as the text, isError for a failure.
"""

import json
from dataclasses import dataclass
from typing import Any

from .calls import Call
from .dimensions import JsonStatus, TextMarker
from .messages import fill, spelled, template
from .names import Names
from .vocabulary import OPERATION_HEADS

_EXTRAS = ("summary", "diff", "issues", "denial", "exit_code")


@dataclass(frozen=True)
class Answer:
    text: str
    is_error: bool
    structured: dict[str, Any] | None


def disguise_answer(envelope: dict[str, Any], call: Call, names: Names) -> Answer:
    disguise = names.disguise
    if not disguise.dimensions():
        return Answer(str(envelope.get("data", "")), not envelope.get("success"), envelope)
    failed = not envelope.get("success")
    text = _failure_text(envelope, call, names) if failed else _success_text(envelope, call, names)
    signal = disguise.failure_signal
    if isinstance(signal, JsonStatus):
        key = signal.message_key if failed else disguise.result_key or signal.text_key
        status = signal.failed if failed else signal.ok
        text = json.dumps({signal.key: status, key: text}, ensure_ascii=False)
    return Answer(text, failed and signal is None, _structured(envelope, call, names))


def _success_text(envelope: dict[str, Any], call: Call, names: Names) -> str:
    data = str(envelope.get("data", ""))
    if call.tool == "tool_search":  # it names the tools it finds
        data = names.rename_text(data, None, [])
    key = names.disguise.result_key
    if key is not None and not isinstance(names.disguise.failure_signal, JsonStatus):
        return json.dumps({key: data}, ensure_ascii=False)
    return data


def _failure_text(envelope: dict[str, Any], call: Call, names: Names) -> str:
    disguise = names.disguise
    message = str(envelope.get("data", ""))
    arguments = names.reference_arguments.get(call.tool, [])
    if call.refusal is None:  # the reference's own words name the canonical tools
        message = names.rename_text(message, call.tool, arguments)
    for sent, given in call.paths:
        message = message.replace(f"`{sent}`", f"`{given}`")
    code = str(envelope.get("error") or "EXECUTION_ERROR")
    if disguise.wording is not None:
        headline = names.rename_text(template(code, disguise.wording), call.tool, arguments)
        message = fill(code, headline, message, names.tool(call.tool))
    if disguise.codes == "text_prefix":
        message = f"{spelled(code, disguise.code_spelling)}: {message}"
    if disguise.operation_heads:
        message = OPERATION_HEADS.get(call.tool, "Error: ") + message
    message = (disguise.failure_prefix or "") + message
    if isinstance(disguise.failure_signal, TextMarker):
        message = disguise.failure_signal.marker + message
    return json.dumps(message, ensure_ascii=False) if disguise.json_quoted else message


def _structured(envelope: dict[str, Any], call: Call, names: Names) -> dict[str, Any] | None:
    disguise = names.disguise
    structured: dict[str, Any] = {}
    if not disguise.text_only:
        structured = {key: envelope[key] for key in _EXTRAS if envelope.get(key) is not None}
        if "issues" in structured and call.refusal is None:
            structured["issues"] = [_issue(issue, call.tool, names)
                                    for issue in structured["issues"]]
    if disguise.codes is None and envelope.get("error"):
        structured["error"] = spelled(str(envelope["error"]), disguise.code_spelling)
    return structured or None


def _issue(issue: dict[str, Any], tool: str, names: Names) -> dict[str, Any]:
    """A reference issue with its JSON pointer and message naming the disguised arguments."""
    arguments = names.reference_arguments.get(tool, [])
    path = str(issue.get("path", ""))
    head, dot, rest = path.removeprefix("$.").partition(".")
    name, bracket, index = head.partition("[")
    if tool == "edit_file" and names.nested is not None and name in ("old_text", "new_text"):
        shown = f"{names.nested[0]}[0].{names.nested[1 if name == 'old_text' else 2]}"
    else:
        shown = names.argument(tool, name) if name in arguments else name
    pointer = f"$.{shown}{bracket}{index}{dot}{rest}" if path.startswith("$.") else path
    message = names.rename_text(str(issue.get("message", "")), tool, arguments)
    return {**issue, "path": pointer, "message": message}
