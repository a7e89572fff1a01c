"""The stable error codes: identifiers for programs, with the words for the model beside them."""

from dataclasses import dataclass

from ._data import load


@dataclass(frozen=True, slots=True)
class ErrorCode:
    name: str
    meaning: str
    recovery: str
    source: str  # a key of SOURCES


ERROR_CODES: dict[str, ErrorCode] = {
    name: ErrorCode(name=name, **fields) for name, fields in load("codes.toml").items()
}


def is_error_code(value: object) -> bool:
    return isinstance(value, str) and value in ERROR_CODES
