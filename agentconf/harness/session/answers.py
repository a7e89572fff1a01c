"""Answers whose text is JSON, or that carry MCP structured content: the model-facing text, the
error, the exit code and the failure marker, found where the profile's `result` table says.

Without this, a check compares the JSON-escaped text (`gr\\u00fc\\u00dfe`, `A\\\\nB`) and takes a
failure reported inside the JSON (mcp-text-editor's `{"result": "error"}` with isError = false)
for a success. A place that is not in the answer leaves that part of the answer as it was.
"""

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from agentconf.harness.profile.tool_mapping import MISSING, STRUCTURED, FailureMarker, ResultShape

_MISSING = MISSING
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class Reading:
    """What the profile's places found; None where a place found nothing."""

    text: str | None = None
    failed: bool = False
    error_code: str | None = None
    error_message: str | None = None
    exit_code: int | None = None
    flagged: str | None = None  # the code of the first of `flags` that is true


def marked_failed(marker: FailureMarker, data: str, structured: Any) -> bool:
    """Whether a marker of its own ([implementation].failure) makes this answer a failure: by
    its text, or by the value at its path in the JSON text or the structured content
    (`{"ok": false, ...}` from every tool of a framework, revealed ones included)."""
    return read_answer(ResultShape(failure=marker), data, structured).failed


def read_answer(shape: ResultShape, data: str, structured: Any,
                codes: frozenset[str] = frozenset()) -> Reading:
    """`codes`: the strings that are error codes (the contract's and the profile's spellings);
    any other string found at `result.error` is a message."""
    structured = unwrapped(structured, data)
    parsed = document_of(data)
    documents = [doc for doc in (structured, parsed) if isinstance(doc, dict | list)]
    failed = False
    if shape.failure is not None:
        where = shape.failure.path
        failed = shape.failure.fails(
            _MISSING if where is None else _first(documents, where, structured), data)
    if not documents:
        return Reading(failed=failed)
    flagged = next((code for place, code in (shape.flags or {}).items()
                    if _first(documents, place, structured) is True), None)
    texts = [_text(found, place) for place in shape.text_places()
             if (found := _first(documents, place, structured)) is not _MISSING
             and found is not None]
    code, message = None, None
    if shape.error is not None:
        code, message = _error(_first(documents, shape.error, structured), codes)
    exit_code = None
    if shape.exit_code is not None:
        found = _first(documents, shape.exit_code, structured)
        if isinstance(found, int) and not isinstance(found, bool):
            exit_code = found
    return Reading(
        text="\n".join(text for text in texts if text) if texts else None,
        failed=failed or flagged is not None, error_code=code, error_message=message,
        exit_code=exit_code, flagged=flagged,
    )


def unwrapped(structured: Any, text: str) -> Any:
    """None for the structured content a Python MCP SDK makes of a plain answer: a tool that
    returns text blocks (or a string of JSON) gets `{"result": <those blocks or that string>}`,
    which says nothing the text does not; the text, JSON itself, is then where places look. A
    plain string (`{"result": "error"}` for the text "error") is kept: `result` finds it."""
    if not isinstance(structured, dict) or set(structured) != {"result"}:
        return structured
    inner = structured["result"]
    if isinstance(inner, str) and inner.strip() == text.strip():
        return None if document_of(text) is not None else structured
    if isinstance(inner, list) and inner and all(
            isinstance(block, dict) and block.get("type") == "text" for block in inner):
        return None
    return structured


def document_of(data: str) -> Any:
    """The object or list an answer's text is: JSON, or a Python literal of one (a Python
    server that answers `str(result)`: `{'stdout': '', 'exit_code': 3}` says what JSON would);
    None for any other text. One reading for the draft and the checks."""
    stripped = data.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    if "'" not in stripped[:3]:  # a repr opens `{'` or `['`; anything else is not parsed twice
        return None
    try:
        value = ast.literal_eval(stripped)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, dict | list) else None


def _first(documents: list[Any], place: str, structured: Any = None) -> Any:
    """The value at `place` in the first document holding one; a place starting
    `structuredContent.` looks in the structured content only."""
    if place.startswith(STRUCTURED):
        return locate(structured, place.removeprefix(STRUCTURED)) \
            if structured is not None else _MISSING
    for document in documents:
        found = locate(document, place)
        if found is not _MISSING:
            return found
    return _MISSING


def locate(document: Any, place: str) -> Any:
    """The value at a JSON pointer (`/file/content`) or a dotted path (`content[0].text`). A
    pointer's step `*` is whatever one member stands there, the first if there are more: an
    answer keyed by the file's own path (`/*/ranges/0/content`)."""
    if place.startswith("/"):
        steps: list[str | int] = [
            part.replace("~1", "/").replace("~0", "~") for part in place[1:].split("/")]
    else:
        steps = [name if name else int(index) for name, index in _STEP.findall(place)]
    node = document
    for step in steps:
        if step == "*" and isinstance(node, dict | list) and node:
            node = next(iter(node.values())) if isinstance(node, dict) else node[0]
        elif isinstance(node, dict) and str(step) in node:
            node = node[str(step)]
        elif isinstance(node, list) and str(step).isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return _MISSING
    return node


def _text(value: Any, place: str) -> str:
    """A string as it is; anything else with its name, as the model reads it in the JSON
    (`exit_code: 3`, not a bare `3`)."""
    if isinstance(value, str):
        return value
    name = place.rsplit(".", 1)[-1]
    return f"{name}: {json.dumps(value, ensure_ascii=False)}"


def _error(value: Any, codes: frozenset[str]) -> tuple[str | None, str | None]:
    """(code, message) of an error value: a string is a code when it is one of `codes` or a
    single word."""
    if value is _MISSING or value is None or value is False:
        return None, None
    if isinstance(value, dict):
        code, message = value.get("code"), value.get("message")
        said = value.get("error")
        if not (isinstance(message, str) and message) and isinstance(said, str) and re.search(
                r"\s", said):  # an item's `error` in words (@shtse8/filesystem-mcp, fs-mcp)
            message = said
        return (code if isinstance(code, str) and code else None,
                message if isinstance(message, str) and message else None)
    if isinstance(value, str) and value:
        # A bare word no table maps (`custom`) is a spelling, not the words a model reads.
        return (value, None) if value in codes or not re.search(r"\s", value) else (None, value)
    return None, json.dumps(value, ensure_ascii=False)


def readable(data: str) -> str:
    """The answer, then every string inside it when it is JSON: `"caf\\u00e9.md"` (JSON's ASCII
    escape) names `café.md` as much as the raw name does, for checks that look for a name."""
    parsed = document_of(data)
    if parsed is None:
        return data
    return "\n".join([data, *strings_in(parsed, keys=True)])


def strings_in(value: Any, keys: bool = False) -> list[str]:
    """Every string in a JSON value, nested ones too, in order; with `keys`, objects' keys too
    (an answer's names may be keys: `{"a.txt": 3}`)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items()
                for text in [*(strings_in(key) if keys else []), *strings_in(item, keys)]]
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item, keys)]
    return []


def says_empty(text: str, said: tuple[str, ...] = ()) -> bool:
    """Whether an answer to a read of an empty file says it is: words of its own (text that is
    not JSON, beside the paths and what the call said: what they say is the model's to read;
    `/…/empty.txt:` alone is a heading with nothing under it) or, in JSON, a count of zero
    (`"size": 0`, `"total_lines": 0`) or a value that says empty. `{"content": ""}`, its path
    echoed, "File read successfully" or `"totalLines": 1` say nothing of it."""
    if not text.strip():
        return False
    echoes = tuple(value for value in said if len(value) >= 3)
    parsed = document_of(text)
    if parsed is not None:
        return _says_empty(parsed, echoes)
    for value in echoes:  # what the call said back, and any path, name the file: no words
        text = text.replace(value, " ")
    return _A_WORD.search(_A_PATH.sub(" ", text)) is not None


_A_PATH = re.compile(r"\S*/\S*")
_A_WORD = re.compile(r"[^\W\d_]{2,}")
_EMPTY_WORDS = re.compile(r"empty|\b0 bytes\b|no content|no lines|leer|vide|vac[ií]o", re.I)


def _says_empty(value: Any, echoes: tuple[str, ...]) -> bool:
    if isinstance(value, dict):
        return any(_says_empty(item, echoes) for item in value.values())
    if isinstance(value, list):
        return any(_says_empty(item, echoes) for item in value)
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return value == 0
    return (isinstance(value, str) and not value.endswith(echoes)
            and _EMPTY_WORDS.search(value) is not None)


# A mark a search puts around a match: an ANSI colour, or a few signs (`>>>`, `**`, `[`), not
# the colon that ends `path:line:`.
_MARK = r"(?:\x1b\[[\d;]*m|[^\w\s\x1b:]{1,4})"


def unmarked(text: str, match: str) -> str:
    """`text` with every `match` a search marked on both sides (`>>>needle<<<`, `**needle**`,
    a colour) shown bare: the marks tell the model where the match is; the line is the file's.
    Read beside the text as it is (a file's own `:needle:` is kept there)."""
    if not match:
        return text
    return re.sub(rf"{_MARK}({re.escape(match)}){_MARK}", lambda found: found[1], text)


def leaves(document: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every field of a JSON object by its path, a nested object's too (`data.timed_out`, where
    an answer wraps its result in `{"ok": ..., "data": {...}}`)."""
    if not isinstance(document, dict):
        return []
    return [pair for key, value in document.items()
            for pair in [(f"{prefix}{key}", value), *leaves(value, f"{prefix}{key}.")]]
