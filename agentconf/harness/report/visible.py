"""Text from an implementation made safe to show: control characters (NUL, ESC, a lone CR,
DEL and the C1 range) written as their escapes (`\\x00`), so that evidence never truncates a
file, drives a terminal or hides a line in report.md, report.html, the step summary or the
console. Newlines and tabs stay: they are the evidence's own layout.
"""

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    return _CONTROL.sub(lambda match: f"\\x{ord(match[0]):02x}", text)
