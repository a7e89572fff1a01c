"""No block of six or more lines is written twice in agentconf/ and suites/ (issues 16 and 28),
nor once in each: one piece of code serves where the logic is the same (the suites share theirs
through suites/_checks.py). Lines are compared stripped of indentation; blank lines,
comments and imports do not count (an import block is not logic written twice). A category's
mutants (suites/<category>/mutants.py) are left out: each spells its one defect out whole, so that
it reads alone beside the reference it departs from."""

from collections import defaultdict
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
ROOTS = (REPOSITORY / "agentconf", REPOSITORY / "suites")
BLOCK = 6
MUTANTS = "mutants.py"


def _logic_lines(path: Path) -> list[tuple[int, str]]:
    lines = []
    in_import = False  # the names of a parenthesised `from x import (...)` are an import too
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.strip()
        if in_import:
            in_import = text != ")"
        elif text.startswith(("import ", "from ")):
            in_import = text.endswith("(")
        elif text and not text.startswith("#"):
            lines.append((number, text))
    return lines


def duplicate_blocks(*roots: Path, size: int = BLOCK) -> list[str]:
    seen: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for package, path in sorted((root, path) for root in roots or ROOTS
                                for path in root.rglob("*.py") if path.name != MUTANTS):
        lines = _logic_lines(path)
        for start in range(len(lines) - size + 1):
            window = lines[start:start + size]
            key = tuple(text for _, text in window)
            # A run of closing brackets or bare keywords is syntax, not logic.
            if sum(len(text) > 3 for text in key) < size - 1:
                continue
            seen[key].append(f"{path.relative_to(package.parent)}:{window[0][0]}")
    # Overlapping windows of one longer run name the same files: the run's first window says it.
    found: dict[tuple[str, ...], str] = {}
    for places in seen.values():
        if len(places) > 1:
            files = tuple(place.rsplit(":", 1)[0] for place in places)
            found.setdefault(files, " ~ ".join(places))
    return list(found.values())


def test_no_block_of_six_lines_is_written_twice() -> None:
    assert duplicate_blocks() == []


def test_the_check_finds_a_block_written_twice(tmp_path: Path) -> None:
    body = "".join(f"    total += step_{n}(value)\n" for n in range(6))
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(f"def f(value):\n    total = 0\n{body}    return total\n")
    assert duplicate_blocks(tmp_path) == [f"{tmp_path.name}/a.py:1 ~ {tmp_path.name}/b.py:1"]
