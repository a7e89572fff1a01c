"""One answer of a golden case against its `expect`, part by part: the outcome and its code, the
answer's text, and the envelope's other parts (harness/cases/play.py's `answer_mismatches` puts
them together, in this order). Each returns what is wrong, empty when the part meets it."""

import re
from typing import Any

from agentconf.contract import ERROR_CODES, Limits
from agentconf.harness.session.answers import readable, unmarked
from agentconf.harness.session.result import Result
from agentconf.harness.verdicts.errors import not_judged_unless_failed


def expects_failure(expect: dict[str, Any]) -> bool:
    return expect.get("error") is not None or expect.get("success") is False


def outcome_mismatches(result: Result, expect: dict[str, Any], codes_read: bool) -> list[str]:
    """Whether the call failed or succeeded as expected, and with which code."""
    wrong: list[str] = []
    codes = expect.get("error")
    if expects_failure(expect) and (unproven := result.unproven_refusal()) is not None:
        # Not proven a success nor a refusal: the answer's words and the disk are still judged;
        # a case that meets them is not judged rather than passed.
        not_judged_unless_failed(unproven)
        return wrong
    if codes is not None:
        # A refusal is judged apart from its code: the code only where one is read from the
        # answer (an unread code is RESULT-02's, once: suites/_checks.py `refused`).
        allowed = [codes] if isinstance(codes, str) else codes
        if result.success:
            wrong.append(f"expected failure {' or '.join(allowed)}, got success")
        elif (codes_read or result.error in ERROR_CODES) and result.error not in allowed:
            wrong.append(f"expected failure {' or '.join(allowed)}, read {result.error}")
    if "success" in expect and result.success is not expect["success"]:
        wrong.append(
            f"expected success={expect['success']}, "
            f"got success={result.success} error={result.error}"
        )
    elif expect.get("success") is True and result.error is not None:
        wrong.append(f"a success must carry no error code, got error={result.error}")
    return wrong


def data_mismatches(result: Result, expect: dict[str, Any], limits: Limits) -> list[str]:
    """What the answer's text should and should not hold, and how long it may be."""
    data = result.data if isinstance(result.data, str) else ""
    shown = readable(data)  # a JSON answer's strings too, its ASCII escapes decoded
    pattern = result.request.arguments.get("pattern") if isinstance(
        result.request.arguments, dict) and result.request.tool == "grep" else None
    if isinstance(pattern, str) and re.fullmatch(r"[\w ]+", pattern):  # a search's own marks
        shown = f"{shown}\n{unmarked(shown, pattern)}"
    if not result.success and result.shown != data:
        # A failure is read whole: its code or message may sit beside the text a profile reads
        # (`{"message": ..., "stdout": ..., "code": 42}`); what the call sent, quoted back, not.
        whole = readable(result.shown)
        for value in sorted(result.request.said, key=len, reverse=True):
            whole = whole.replace(value, " ") if len(value) >= 3 else whole
        shown = f"{shown}\n{whole}"
    wrong = [
        f"data should contain {text!r}"
        for text in expect.get("data_contains", [])
        if text not in shown
    ]
    wrong += [
        f"data must not contain {text!r}"
        for text in expect.get("data_not_contains", [])
        if text in shown
    ]
    # Said or not on the whole answer the model sees, not the part a profile reads as its text
    # (an empty folder's `{"entries": []}` says it is empty).
    if expect.get("data_nonempty") and not result.shown.strip():
        wrong.append("data should not be empty")
    if expect.get("data_bounded"):
        bound = limits.max_output_chars + limits.marker_budget_chars
        if len(data) > bound:
            wrong.append(
                f"data has {len(data)} characters, more than max_output_chars + marker ({bound})"
            )
    return wrong


def report_mismatches(result: Result, expect: dict[str, Any]) -> list[str]:
    """The envelope's other parts: the diff, the one-line summary, the issues' paths."""
    diff = result.diff or ""
    wrong = [
        f"diff should contain {text!r}"
        for text in expect.get("diff_contains", [])
        if text not in diff
    ]
    if expect.get("summary_nonempty") and not (result.summary or "").strip():
        wrong.append("summary should be a non-empty line")
    paths = {issue.get("path") for issue in result.issues or [] if isinstance(issue, dict)}
    named = {_dotted(str(path)) for path in paths}
    wrong += [
        f"issues should include one with path {p!r} (got {sorted(map(str, paths))})"
        for p in expect.get("issue_paths", [])
        if _dotted(p) not in named
    ]
    return wrong


# `$["target-file"]` and `$.target-file` name one field: a key in brackets, written with a dot.
_BRACKETED = re.compile(r"""\[\s*(["'])((?:(?!\1).)*)\1\s*\]""")


def _dotted(pointer: str) -> str:
    return _BRACKETED.sub(lambda found: f".{found.group(2)}", pointer)
