"""Building envelopes: `ok` and `fail` for handlers, `ToolError` for code deep inside a tool."""

from typing import Any

from agentconf.contract import ERROR_CODES, Envelope, ValidationIssue


class ToolError(Exception):
    """Raised anywhere below a handler to end the call with a stable code and a message.

    The dispatcher turns it into a failure envelope; any other exception becomes EXECUTION_ERROR.
    """

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"{code!r} is not a contract error code")
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def envelope(self) -> Envelope:
        return fail(self.code, self.message, **self.extra)


def ok(data: str, **extra: Any) -> Envelope:
    return Envelope(success=True, data=data, **extra)


def fail(code: str, message: str, **extra: Any) -> Envelope:
    if code not in ERROR_CODES:
        raise ValueError(f"{code!r} is not a contract error code")
    return Envelope(success=False, data=message, error=code, **extra)


def invalid_argument(field: str, expected: str, received: str, message: str) -> ToolError:
    """An argument its schema let through but the tool refuses: INVALID_ARGS with one issue,
    shaped as a schema failure's (VALIDATE), so the model learns which argument and why."""
    issue = ValidationIssue(path=f"$.{field}", expected=expected, received=received,
                            message=message)
    return ToolError("INVALID_ARGS", message, issues=[issue])
