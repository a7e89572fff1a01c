"""What one call came to, as the suites read it: the request (canonical and as sent) and the
normalised `Result`, with the evidence a failing check quotes."""

import json
from dataclasses import dataclass, field
from typing import Any

from agentconf.harness.session.answers import strings_in
from agentconf.harness.verdicts.wording import unread_refusal

_EVIDENCE_FIELD_CHARS = 3000


@dataclass(frozen=True, slots=True)
class Request:
    tool: str  # canonical (or, for call_raw, the name sent)
    arguments: Any  # canonical
    name: str  # as sent
    sent: Any  # as sent
    notes: tuple[str, ...] = ()  # what shaping the arguments changed or dropped

    @property
    def said(self) -> tuple[str, ...]:
        """The strings the call sent, as sent, nested ones too (what an answer may echo back:
        `{"paths": ["a.txt"]}` said `a.txt`)."""
        return tuple(strings_in(self.sent))


@dataclass(frozen=True)
class Result:
    success: bool
    data: str
    error: str | None
    summary: str | None
    diff: str | None
    issues: list[dict[str, Any]] | None
    denial: dict[str, Any] | None
    exit_code: int | None
    raw: dict[str, Any]
    request: Request
    _replacements: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    # What the profile's `result` table read out of a JSON answer, for the evidence.
    notes: tuple[str, ...] = ()
    # Why a success of this tool cannot be told from an unrecognised refusal ([unproven.<tool>]
    # refusals): a check that expects a refusal and gets this success is not judged.
    refusal_unproven: str | None = None

    @property
    def shown(self) -> str:
        """The answer's whole text, as the model sees it: `data` before a profile's `result`
        table read a part of it (`content` of `{"content": "", "size": 0}`)."""
        whole = self.raw.get("data")
        return whole if isinstance(whole, str) else self.data

    def unproven_refusal(self) -> str | None:
        """Why this success cannot be judged as one where a check expects a refusal: the draft
        could not tell the tool's refusals from its successes, or the answer's words refuse and
        no marker of the profile reads them (verdicts/wording.py). None for a plain success."""
        tool = self.request.tool
        if not self.success:
            return None
        if self.refusal_unproven is not None:
            return f"not judged: {tool}'s refusals: {self.refusal_unproven} ([unproven.{tool}])"
        # The sandbox's paths as short names: an answer opening with the path it refuses
        # (`<ROOT>/folder: [Errno 21] ...`) keeps its words near its start, as a model reads it.
        return unread_refusal(tool, neutralise(self.data, self._replacements),
                              self.request.arguments)

    def evidence(self) -> str:
        """Request and response for an assertion message, with the sandbox paths made neutral."""
        lines = [f"request: {self.request.tool} {dump(self.request.arguments)}"]
        if (self.request.name, self.request.sent) != (self.request.tool, self.request.arguments):
            lines.append(f"sent as: {self.request.name} {dump(self.request.sent)}")
        lines.extend(f"note: {note}" for note in self.request.notes)
        lines.append(f"response: {dump(self.raw)}")
        lines.extend(f"note: {note}" for note in self.notes)
        if self.error is not None and self.raw.get("error") != self.error:
            lines.append(f"error code (classified by the profile): {self.error}")
        return neutralise("\n".join(lines), self._replacements)


def neutralise(text: str, replacements: tuple[tuple[str, str], ...]) -> str:
    for old, new in replacements:
        text = text.replace(old, new)
    return text


def dump(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _EVIDENCE_FIELD_CHARS:
        half = _EVIDENCE_FIELD_CHARS // 2
        text = f"{text[:half]} …[{len(text) - 2 * half} chars cut]… {text[-half:]}"
    return text
