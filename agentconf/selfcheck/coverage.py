"""`agentconf selftest --coverage`: which lines of the reference does the contract reach?

The conformance suites alone (not the kit's unit tests) run against the in-process reference under
coverage.py. A line of `agentconf/reference` no suite test executes is a line no clause
exercises: either the contract lacks a clause, or the line is deliberately outside it. The latter
are named, with a reason, in `agentconf/contract/data/out_of_contract.toml`; the report leaves
them out of the percentage and lists them apart, so the number measures the contract alone.

pytest runs serially in a child process (no xdist: coverage would need a hook in every worker)
with plugin autoloading off and a config of our own, like `agentconf run` (harness/run/runner.py).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import agentconf.reference
from agentconf.harness.resources import suites_dir

DEFAULT_FAIL_UNDER = 95.0
# Only to turn a hang into an error; the full suites take a few minutes on a shared machine.
RUN_TIMEOUT_S = 3600
_PLUGINS = ("agentconf.harness.plugin", "syrupy", "_hypothesis_pytestplugin")
_SCRUBBED_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "HYPOTHESIS_PROFILE", "COVERAGE_PROCESS_START")
_REFERENCE = Path(agentconf.reference.__file__).resolve().parent
_TOP = _REFERENCE.parent.parent  # paths are shown from here: agentconf/reference/...


class CoverageError(Exception):
    """The measurement could not be made, or out_of_contract.toml is wrong: one line to show."""


# ---------------------------------------------------------------- out_of_contract.toml


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Lines named as outside the contract: a whole file, a function or class, or a line range."""

    file: str
    reason: str
    function: str | None = None
    lines: tuple[int, int] | None = None

    @property
    def label(self) -> str:
        if self.function is not None:
            return f"{self.file}:{self.function}"
        if self.lines is not None:
            return f"{self.file}:{self.lines[0]}-{self.lines[1]}"
        return self.file

    def span(self) -> range:
        """The source lines this entry covers (CoverageError if it names nothing that exists)."""
        path = _TOP / self.file
        if not path.is_file():
            raise CoverageError(f"out_of_contract.toml: {self.file} does not exist")
        source = path.read_text(encoding="utf-8")
        if self.function is not None:
            found = _definition(ast.parse(source), self.function)
            if found is None:
                raise CoverageError(
                    f"out_of_contract.toml: {self.file} defines no {self.function!r}"
                )
            return found
        length = len(source.splitlines())
        if self.lines is not None:
            if self.lines[1] > length:
                raise CoverageError(
                    f"out_of_contract.toml: {self.label} runs past the end of the file "
                    f"({length} lines)"
                )
            return range(self.lines[0], self.lines[1] + 1)
        return range(1, length + 1)


def _definition(tree: ast.Module, qualified: str) -> range | None:
    """The lines of `Class.method` or `function`, decorators included."""
    scope: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for name in qualified.split("."):
        node = next(
            (
                item for item in scope
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and item.name == name
            ),
            None,
        )
        if node is None:
            return None
        scope = node.body
    assert node is not None and node.end_lineno is not None
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return range(first, node.end_lineno + 1)


def load_exclusions(text: str | None = None) -> list[Exclusion]:
    """The entries of out_of_contract.toml (or of `text`), checked for shape."""
    if text is None:
        text = files("agentconf.contract").joinpath("data", "out_of_contract.toml").read_text(
            "utf-8"
        )
    try:
        entries = tomllib.loads(text).get("out_of_contract", [])
    except tomllib.TOMLDecodeError as error:
        raise CoverageError(f"out_of_contract.toml: {error}") from None
    found = []
    for index, entry in enumerate(entries, start=1):
        where = f"out_of_contract.toml entry {index}"
        if not isinstance(entry.get("file"), str) or not str(entry.get("reason", "")).strip():
            raise CoverageError(f"{where}: needs a `file` and a non-empty `reason`")
        unknown = set(entry) - {"file", "reason", "function", "lines"}
        if unknown:
            raise CoverageError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        lines = entry.get("lines")
        if lines is not None and not (
            isinstance(lines, list) and len(lines) == 2 and all(isinstance(n, int) for n in lines)
            and 1 <= lines[0] <= lines[1]
        ):
            raise CoverageError(f"{where}: `lines` must be [first, last]")
        if lines is not None and "function" in entry:
            raise CoverageError(f"{where}: name a `function` or `lines`, not both")
        found.append(Exclusion(
            file=entry["file"], reason=" ".join(entry["reason"].split()),
            function=entry.get("function"), lines=tuple(lines) if lines else None,
        ))
    return found


# ---------------------------------------------------------------- the measurement


def measure(data_file: Path, clauses: Sequence[str] = (), timeout_s: float = RUN_TIMEOUT_S
            ) -> tuple[int, str]:
    """Runs the suites against the reference under coverage into `data_file`.

    Returns pytest's exit status and the last line of its output (its summary).
    """
    try:
        import coverage  # noqa: F401  (only to say clearly that it is missing)
    except ImportError:
        raise CoverageError(
            "coverage.py is not installed: pip install 'coverage[toml]' (or agentconf[dev])"
        ) from None
    with tempfile.TemporaryDirectory(prefix="agentconf-coverage-") as scratch:
        folder = Path(scratch)
        (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        rc = folder / "coveragerc"
        # Threads: the reference runs blocking work in asyncio.to_thread.
        rc.write_text(
            f"[run]\ndata_file = {data_file}\nsource_pkgs = agentconf.reference\n"
            "branch = False\nconcurrency = thread\n",
            encoding="utf-8",
        )
        suites = suites_dir()
        command = [sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", "-m", "pytest",
                   "-c", str(folder / "pytest.ini"), "--rootdir", str(suites.parent),
                   "-p", "no:cacheprovider", "-q", "--agentconf-impl", "reference",
                   # Temp dirs in our scratch folder, not pytest's shared one in the system tmp.
                   "--basetemp", str(folder / "tmp")]
        for plugin in _PLUGINS:
            command += ["-p", plugin]
        if clauses:
            command += ["--agentconf-clauses", ",".join(clauses)]
        env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
        env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1")
        log = folder / "pytest.log"
        try:
            with log.open("wb") as out:
                done = subprocess.run(
                    [*command, str(suites)], cwd=folder, env=env, stdout=out,
                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout_s,
                    check=False,
                )
        except subprocess.TimeoutExpired:
            raise CoverageError(f"the suites did not finish within {timeout_s:g} s") from None
        lines = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    summary = lines[-1].strip("= ") if lines else "(no output)"
    # 0 all passed, 1 some failed: both measured something. Anything else ran nothing useful.
    if done.returncode not in (0, 1):
        tail = "; ".join(lines[-5:])
        raise CoverageError(f"the suites did not run (pytest exit {done.returncode}): {tail}")
    return done.returncode, summary


# ---------------------------------------------------------------- the analysis


@dataclass(frozen=True, slots=True)
class FileCoverage:
    path: str  # agentconf/reference/...
    statements: frozenset[int]
    executed: frozenset[int]
    out_of_contract: frozenset[int]  # statements named in out_of_contract.toml

    @property
    def counted(self) -> frozenset[int]:
        return self.statements - self.out_of_contract

    @property
    def missing(self) -> frozenset[int]:
        return self.counted - self.executed


@dataclass(frozen=True, slots=True)
class ExclusionUse:
    exclusion: Exclusion
    statements: int
    executed: int  # how many of them the suites ran all the same


@dataclass(frozen=True, slots=True)
class CoverageReport:
    files: tuple[FileCoverage, ...]
    exclusions: tuple[ExclusionUse, ...]

    @property
    def counted(self) -> int:
        return sum(len(f.counted) for f in self.files)

    @property
    def missed(self) -> int:
        return sum(len(f.missing) for f in self.files)

    @property
    def percent(self) -> float:
        return 100.0 * (self.counted - self.missed) / self.counted if self.counted else 100.0

    @property
    def raw_percent(self) -> float:
        """Of every statement, out-of-contract ones included."""
        total = sum(len(f.statements) for f in self.files)
        run = sum(len(f.statements & f.executed) for f in self.files)
        return 100.0 * run / total if total else 100.0


def analyse(data_file: Path, exclusions: Sequence[Exclusion]) -> CoverageReport:
    import coverage

    cov = coverage.Coverage(data_file=str(data_file), config_file=False)
    cov.load()
    spans: dict[str, list[tuple[Exclusion, range]]] = {}
    for exclusion in exclusions:
        spans.setdefault(exclusion.file, []).append((exclusion, exclusion.span()))
    reports, uses = [], {e: [0, 0] for e in exclusions}
    for path in sorted(_REFERENCE.rglob("*.py")):
        rel = path.relative_to(_TOP).as_posix()
        _, statements, _, missing, _ = cov.analysis2(str(path))
        executed = frozenset(statements) - frozenset(missing)
        out: set[int] = set()
        for exclusion, span in spans.get(rel, []):
            inside = {line for line in statements if line in span}
            out |= inside
            uses[exclusion][0] += len(inside)
            uses[exclusion][1] += len(inside & executed)
        reports.append(FileCoverage(rel, frozenset(statements), executed, frozenset(out)))
    return CoverageReport(
        tuple(reports), tuple(ExclusionUse(e, n, run) for e, (n, run) in uses.items())
    )


# ---------------------------------------------------------------- the report


def _ranges(lines: frozenset[int], statements: frozenset[int]) -> str:
    from coverage.results import format_lines

    return format_lines(sorted(statements), sorted(lines))


def _enclosing(path: str, lines: frozenset[int]) -> list[str]:
    """The innermost function or class around each missed line, in order, once each."""
    tree = ast.parse((_TOP / path).read_text(encoding="utf-8"))
    owners: dict[int, tuple[int, str]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + child.name
                size = (child.end_lineno or child.lineno) - child.lineno
                for line in lines:
                    if child.lineno <= line <= (child.end_lineno or child.lineno):
                        known = owners.get(line)
                        if known is None or size < known[0]:
                            owners[line] = (size, name)
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return list(dict.fromkeys(owners.get(line, (0, "<module>"))[1] for line in sorted(lines)))


def render(report: CoverageReport, fail_under: float, summary: str = "") -> str:
    width = max(len(f.path) for f in report.files)
    lines = ["agentconf/reference under the conformance suites alone (implementation: reference)"]
    if summary:
        lines.append(f"suites: {summary}")
    lines += ["", f"{'file':<{width}}  stmts  missed  cover"]
    for item in report.files:
        if not item.counted:
            continue
        share = 100.0 * (len(item.counted) - len(item.missing)) / len(item.counted)
        lines.append(f"{item.path:<{width}}  {len(item.counted):5}  {len(item.missing):6}"
                     f"  {share:4.0f}%")
    gaps = [item for item in report.files if item.missing]
    lines += ["", "lines no clause exercises:" if gaps else "every counted line is exercised."]
    for item in gaps:
        owners = ", ".join(_enclosing(item.path, item.missing))
        lines.append(f"  {item.path}: {_ranges(item.missing, item.counted)}  (in {owners})")
    if report.exclusions:
        lines += ["", "out of the contract (agentconf/contract/data/out_of_contract.toml, "
                      "not counted):"]
        for use in report.exclusions:
            # Definition lines run at import, so only "all of it ran" says an entry went stale.
            stale = use.statements and use.executed == use.statements
            anyway = ", every one run by the suites: remove this entry?" if stale else ""
            lines.append(f"  {use.exclusion.label} ({use.statements} statements{anyway}): "
                         f"{use.exclusion.reason}")
    verdict = "ok" if report.percent >= fail_under else "BELOW"
    lines += [
        "",
        f"contract coverage of agentconf/reference: {report.percent:.1f}% "
        f"({report.counted - report.missed} of {report.counted} statements; "
        f"{report.raw_percent:.1f}% counting out-of-contract lines); "
        f"required {fail_under:g}%: {verdict}",
    ]
    return "\n".join(lines) + "\n"


def run_coverage(clauses: Sequence[str] = (), fail_under: float = DEFAULT_FAIL_UNDER,
                 timeout_s: float = RUN_TIMEOUT_S) -> tuple[CoverageReport, str]:
    """Measures and analyses; returns the report and its rendering."""
    exclusions = load_exclusions()
    for exclusion in exclusions:
        exclusion.span()  # a stale entry is an error before minutes of measuring, not after
    with tempfile.TemporaryDirectory(prefix="agentconf-coverage-data-") as scratch:
        data_file = Path(scratch) / ".coverage"
        _, summary = measure(data_file, clauses, timeout_s)
        report = analyse(data_file, exclusions)
    return report, render(report, fail_under, summary)
