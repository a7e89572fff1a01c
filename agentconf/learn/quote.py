"""The reference's code for a clause: a function or class of agentconf/reference/, quoted with
its file and lines, found by name (so a quote follows the code when lines move)."""

import ast
from dataclasses import dataclass
from pathlib import Path

import agentconf.reference

REFERENCE = Path(agentconf.reference.__file__).resolve().parent
MAX_LINES = 40  # a longer definition is quoted up to here, with a note


class QuoteError(LookupError):
    """A course entry names code the reference does not have."""


@dataclass(frozen=True, slots=True)
class Quote:
    path: str  # "agentconf/reference/<file>", as a reader finds it
    first: int
    last: int
    lines: tuple[str, ...]
    cut: int  # lines of the definition left out after MAX_LINES

    @property
    def where(self) -> str:
        return f"{self.path}:{self.first}-{self.last}"

    def text(self) -> str:
        body = "\n".join(self.lines)
        return body + (f"\n    # ... {self.cut} more lines in {self.path}" if self.cut else "")


def quote(target: str) -> Quote:
    """`FILE:QUALNAME` (FILE under agentconf/reference/, QUALNAME like `Class.method`)."""
    file, _, qualname = target.partition(":")
    source = REFERENCE / file
    if not qualname or not source.is_file():
        raise QuoteError(f"{target!r}: no file agentconf/reference/{file}")
    text = source.read_text("utf-8")
    node = _find(ast.parse(text, str(source)), qualname.split("."))
    if node is None:
        raise QuoteError(f"{target!r}: agentconf/reference/{file} defines no {qualname}")
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    last = node.end_lineno or node.lineno
    lines = text.splitlines()[first - 1:last]
    shown = tuple(lines[:MAX_LINES])
    return Quote(f"agentconf/reference/{file}", first, first + len(shown) - 1, shown,
                 max(0, len(lines) - MAX_LINES))


Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _find(tree: ast.AST, names: list[str]) -> Definition | None:
    body = getattr(tree, "body", [])
    for node in body:
        if isinstance(node, Definition) and node.name == names[0]:
            return node if len(names) == 1 else _find(node, names[1:])
    return None
