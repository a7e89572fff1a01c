"""No function in agentconf/ or suites/ is over 60 lines, counted from its `def` to its last line,
docstring and comments included (issue 43): a longer one does several jobs, and is split into
named steps, so that a reader sees what each step is for before reading how it is done. Nested
functions are counted on their own and inside the function that holds them."""

import ast
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
ROOTS = (REPOSITORY / "agentconf", REPOSITORY / "suites")
MOST_LINES = 60


def long_functions(*roots: Path, most: int = MOST_LINES) -> list[str]:
    """Every function of `roots` longer than `most` lines, as `path:line name (lines)`."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > most:
                        where = path.relative_to(root.parent).as_posix()
                        found.append(f"{where}:{node.lineno} {node.name} ({lines})")
    return found


def test_no_function_is_over_sixty_lines() -> None:
    assert long_functions(*ROOTS) == []


def test_the_check_catches_a_planted_long_function(tmp_path: Path) -> None:
    body = "".join(f"    step_{n} = {n}\n" for n in range(MOST_LINES - 1))
    (tmp_path / "fits.py").write_text(f"def fits():\n{body}")  # exactly 60 lines
    (tmp_path / "long.py").write_text(
        f"class Holder:\n    async def long(self):\n{body.replace('    ', '        ')}"
        "        return None\n")
    assert long_functions(tmp_path) == [f"{tmp_path.name}/long.py:2 long (61)"]
