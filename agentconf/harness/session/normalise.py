"""Envelope normalisation: check what came back, and give it a contract error code.

The envelope's core (success, data, error, summary, diff, exit_code, issues as a list, denial as
an object) is checked strictly: a wrong shape is a `ContractViolation` (RESULT-01) with the reason.
The inner shape of issues and denials is left to the VALIDATE suites, which judge it with evidence.

A failure whose `error` is missing is classified from the profile: first `[error_codes]` (their
spelling -> ours), then the ordered `[[error_patterns]]` matched against `data`
(@clarvis/agent-tools spells `path_escape`, agentkit `NotFound`: a profile maps them onto the
contract's).
"""

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from agentconf.contract import ERROR_CODES
from agentconf.harness.profile.model import Profile
from agentconf.harness.session.answers import document_of, strings_in
from agentconf.harness.verdicts.errors import ContractViolation

# What a code looks like (NOT_FOUND, path_escape, ENOENT, E.NOT-FOUND): one word. A string with
# spaces in `error` is a message, classified like any other text.
_CODE_SHAPE = re.compile(r"[A-Za-z_][\w.-]*")


class _WireEnvelope(BaseModel):
    # strict: `"true"` is not a boolean and 1 is not a string; extra fields are allowed.
    model_config = ConfigDict(strict=True, extra="allow")

    success: bool
    data: str
    error: str | None = None
    summary: str | None = None
    diff: str | None = None
    exit_code: int | None = None
    issues: list[dict[str, Any]] | None = None
    denial: dict[str, Any] | None = None


def check_envelope(raw: Any) -> _WireEnvelope:
    if not isinstance(raw, dict):
        raise ContractViolation(
            f"the answer is not an envelope object but {type(raw).__name__}: {_short(raw)}"
        )
    try:
        return _WireEnvelope.model_validate(raw)
    except ValidationError as error:
        reasons = "; ".join(
            f"{'.'.join(map(str, issue['loc'])) or '(envelope)'}: {issue['msg']}"
            for issue in error.errors()
        )
        raise ContractViolation(f"the answer is not a valid envelope: {reasons}") from None


def classify(envelope: _WireEnvelope, profile: Profile) -> str | None:
    """The contract error code of a failure (None for a success, or when nothing matches)."""
    return classify_text(envelope.data, profile, code=envelope.error, success=envelope.success)


def classify_text(data: str, profile: Profile, code: str | None = None,
                  success: bool = False, whole: str | None = None) -> str | None:
    """`code` in the contract's spelling, or, without one, the first pattern `data` matches.

    A `code` that is a message (it has spaces: `{"error": "File not found: a.txt"}`) is not a
    code: the patterns see it, then `data`. A pattern with a named group `code` and no `code`
    key takes the code from the text (`NOT_FOUND: ...`), through `[error_codes]` first; a word
    there that is no contract code (`ERROR: ...`) leaves the text to the next patterns."""
    if success:
        return code
    if code is not None and code in profile.error_codes:
        return profile.error_codes[code]
    spelling = code if code and _CODE_SHAPE.fullmatch(code) else None
    if spelling in ERROR_CODES or (spelling is not None and whole is None):
        return spelling
    # `whole`: the answer a profile's result shape read `data` (or the spelling) out of; the
    # patterns were learnt on the whole answer, so a part of it must not hide it from them. A
    # spelling no table maps stands only where no pattern reads a code.
    texts = ([code] if code and spelling is None else []) + [data]
    texts += [whole] if whole and whole != data else []
    # A JSON answer's messages one by one, as the draft learnt them (`{"res": {"info":
    # {"message": "Parameter ... is not a regular file"}}}`): a pattern anchored at a message's
    # start reads it only there.
    texts += [leaf for text in texts for leaf in strings_in(document_of(text)) if leaf not in texts]
    for text in texts:
        for entry in profile.error_patterns:
            found = entry.pattern.search(text)
            if found is None:
                continue
            if entry.code is not None:
                return entry.code
            spelled = profile.error_codes.get(found.group("code"), found.group("code"))
            if spelled in ERROR_CODES:  # else a word that is no code (`ERROR:`): next pattern
                return spelled
    return spelling


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
