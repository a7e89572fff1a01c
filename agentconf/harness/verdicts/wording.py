"""Whether an answer's words refuse, whatever its envelope says.

Two readers need the one rule: `init --from`, which drafts a failure marker for a tool whose
failures come back as successes ("Error: ...", "Security violation: ..."), and the checks, which
must not fail a clause on such an answer when no marker reads it: that the refusal is recognised
is a premise the kit has not proven, so the check is "not judged" (suites/_checks.py `refused`),
and the unread refusal is RESULT-02's once.
"""

import json
import re
from collections.abc import Iterable

# Words of a refusal, in the languages real tool systems answer in.
_REFUSAL_WORDS = (
    r"errors?", r"fail(?:ed|s|ure)?", r"cannot", r"can'?t", r"could ?n[o']t", r"unable",
    r"not found", r"no such", r"does ?n[o']t exist", r"not exist", r"denied", r"not allowed",
    r"forbidden", r"refused?", r"invalid", r"not permitted", r"outside", r"exception",
    r"violation", r"timed out", r"rejected", r"disallowed", r"missing",
    # an operating system's refusal, passed on as it came (`[Errno 21] Is a directory: ...`)
    r"errno", r"is a directory", r"not a directory",
    r"fehler", r"nicht gefunden", r"existiert nicht", r"verweigert", r"ungültig",
    r"erreur", r"introuvable", r"n'existe pas", r"refusé", r"no existe", r"no encontrad[oa]",
    r"erro", r"não encontrad[oa]", r"errore", r"non trovat[oa]", r"ошибка", r"не найден",
)
_ANY_WORD = "|".join(_REFUSAL_WORDS)
_WORDS = re.compile(r"(?i)(?<!\w)(?:" + _ANY_WORD + r")(?!\w)")
# A tally of none ("Failed: 0", "0 errors") counts what went wrong and found nothing: a report
# of a success, not a refusal.
_NONE_TALLIED = re.compile(
    r"(?im)^[^\w\n]*(?:" + _ANY_WORD + r")\s*[:=]\s*0\s*$"  # a line "Failed: 0"
    r"|(?<![\w.])0\s+(?:" + _ANY_WORD + r")(?!\w)")  # "3 passed, 0 failed"
# Scripts whose words are not delimited by spaces: a refusal word anywhere in them.
_CJK_WORDS = re.compile("오류|에러|실패|찾을 수 없|없습니다|거부|"
                        "エラー|失敗|見つかりません|存在しません|"
                        "错误|失败|不存在|找不到|拒绝")
# How far into an answer a refusal word may be and still say the answer is a refusal, counted
# without its lines of no word (`worded_lines`).
_NEAR_START = 60
_DECORATION = re.compile(r"^[^\w\n]*(?:\n|\Z)", re.MULTILINE)


def worded_lines(text: str) -> str:
    """`text` without its lines that hold no word at all (a banner of `=`, a rule of `-`, a
    blank): they say nothing, and an answer framed by them keeps its words that much further
    in, past where "its first words" would be looked for."""
    return _DECORATION.sub("", text)


# A report's status line saying it failed, among its first lines ("Success: false", "成功: 否",
# "status: error"): the refusal's own words may come lines later, after fields of the call.
_STATUS_LINE = re.compile(
    r"(?im)^\s*(?:success(?:ful)?|succeeded|ok|成功|성공|erfolg(?:reich)?|succès|éxito|sucesso)"
    r"\s*[:：=]\s*(?:false|no|否|아니오|아니요|nein|non|não|失败|失敗|실패)\s*$"
    r"|^\s*(?:status|result|状态|상태)\s*[:：=]\s*(?:error|errored|failed|failure|fail|失败|"
    r"错误|실패|오류)\s*$")
_STATUS_LINES = 4


def says_refusal(text: str, quoted: Iterable[str] = ()) -> bool:
    """Whether an answer's opening words refuse, in any of the languages above, or its status
    line says it failed. `quoted`: what the answer may say back of the call itself (a path
    named `outside/...`), never its words."""
    head = _codes_spelt_out(unwrapped(text))
    if _names_only(head):
        return False
    for value in quoted:
        if len(value) >= 3:
            head = head.replace(value, " ")
    worded = worded_lines(_NONE_TALLIED.sub(" ", head))
    if _STATUS_LINE.search("\n".join(worded.split("\n")[:_STATUS_LINES])) or json_says_failed(
            text.strip()):
        return True
    head = worded[:_NEAR_START]
    return _WORDS.search(head) is not None or _CJK_WORDS.search(head) is not None


# A code in capitals joins its words with underscores (`VALIDATION_ERROR`, `FILE_NOT_FOUND`):
# its words refuse as much as spelt apart, though `\w` counts the underscore a letter.
_CODE = re.compile(r"(?<![\w])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w])")
# An entry of a listing: one name on its line, perhaps marked as a folder or file.
_ENTRY = re.compile(r"(?:\[\w+\]\s*|[-*\u2022]\s+)?[^\s:]+/?")


def _codes_spelt_out(text: str) -> str:
    return _CODE.sub(lambda code: code.group(0).replace("_", " "), text)


def _names_only(text: str) -> bool:
    """Whether an answer is a listing of names and nothing else (`["root", "outside"]`, or one
    name a line): an entry named `outside` or `errors` is the disk's word, not the answer's."""
    try:
        value = json.loads(text)
    except ValueError:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return len(lines) >= 2 and all(_ENTRY.fullmatch(line) for line in lines)
    return isinstance(value, list) and len(value) >= 2 and all(
        isinstance(item, str) and _ENTRY.fullmatch(item) for item in value)


_STATUS_KEYS = ("success", "successful", "succeeded", "ok")
_FAILED = frozenset({"error", "errored", "failed", "failure", "fail"})


def json_says_failed(text: str) -> bool:
    """Whether a JSON answer's status says it failed, at its top or inside the objects that
    wrap it (`{"res": {"success": false, "info": ...}}`): on one line, no status line shows it."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    for _ in range(4):
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if not isinstance(value, dict):
            return False
        if any(value.get(key) is False for key in _STATUS_KEYS) or str(
                value.get("status", "")).strip().lower() in _FAILED:
            return True
        inner = [item for item in value.values() if isinstance(item, (dict, list))]
        if len(value) != 1 or len(inner) != 1:
            return False
        value = inner[0]
    return False


def unwrapped(text: str) -> str:
    """The answer as a model reads it: leading space and one layer of JSON quoting gone."""
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] == '"':
        return stripped[1:-1]
    return stripped


def unread_refusal(tool: str, data: object, arguments: object) -> str | None:
    """The "not judged" reason for an answer that came back a success in words that refuse,
    where a check expects a refusal: no failure marker of the profile reads them, so whether the
    call was refused is a premise the kit has not proven. None when the words do not refuse."""
    if not isinstance(data, str):
        return None
    quoted = [value for value in (arguments.values() if isinstance(arguments, dict) else ())
              if isinstance(value, str)]
    if not says_refusal(data, quoted):
        return None
    opening = " ".join(unwrapped(data).split())[:80]
    return (f"not judged: {tool} answered a success in words that refuse ({opening!r}), which no "
            f"failure marker of the profile reads ([implementation].failure or "
            f"[tools.{tool}].failure)")


# An answer that says it left part out ("[188914 earlier characters not shown]", "... 3 lines
# truncated"): cut, however long what it kept (a bound of its own, twice the contract's).
CUT_SAID = re.compile(r"(?i)\d[\d,_]*\s+(?:\w+\s+){0,2}(?:characters?|chars|bytes|lines?|tokens)"
                      r"\s+(?:\w+\s+)?(?:truncated|omitted|not shown|elided|removed|skipped|cut)"
                      r"|(?:truncated|omitted|elided)\W")
