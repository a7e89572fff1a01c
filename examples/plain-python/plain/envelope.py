"""The answer shape: `success`, `data`, `error`, and `issues` when arguments were wrong.

Tools return `done(text)` or raise `Refused`; the dispatcher turns a `Refused` into a failure
envelope, so a tool never has to build one by hand.
"""

from typing import Any

Envelope = dict[str, Any]


class Refused(Exception):
    """A call that cannot be carried out: `code` is a contract error code, `words` the data."""

    def __init__(self, code: str, words: str, issues: list[dict[str, str]] | None = None,
                 exit_code: int | None = None) -> None:
        super().__init__(words)
        self.code = code
        self.words = words
        self.issues = issues
        self.exit_code = exit_code

    def envelope(self) -> Envelope:
        answer: Envelope = {"success": False, "data": self.words, "error": self.code}
        if self.issues is not None:
            answer["issues"] = self.issues
        if self.exit_code is not None:
            answer["exit_code"] = self.exit_code
        return answer


def done(text: str, exit_code: int | None = None) -> Envelope:
    answer: Envelope = {"success": True, "data": text, "error": None}
    if exit_code is not None:
        answer["exit_code"] = exit_code
    return answer


def bad_argument(field: str, expected: str, received: str, words: str) -> Refused:
    """INVALID_ARGS about one field found by a tool itself (after the schema check passed)."""
    issue = {"path": f"$.{field}", "expected": expected, "received": received, "message": words}
    return Refused("INVALID_ARGS", f"Arguments rejected: {words}", [issue])
