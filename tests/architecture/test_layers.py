"""The layers of docs/ARCHITECTURE.md, held by their imports: the harness never imports the
reference (it reaches it only through the `reference` implementation spec, a string the adapters
resolve like any other `python:` spec), the contract imports neither, nothing shipped (the
package, the suites with their mutants) comes from tests/, and the harness's top level stays a
short list of folders, each named for the question it answers (issue 28)."""

import ast
from pathlib import Path

import agentconf

PACKAGE = Path(agentconf.__file__).resolve().parent
HARNESS = PACKAGE / "harness"
MOST_TOP_LEVEL_ENTRIES = 12


def _imported_modules(path: Path, tree: ast.Module | None = None) -> set[str]:
    """Every module `path` imports, at any depth (a late import inside a function counts too),
    relative imports resolved against the module's package (a module outside the package: its
    folder)."""
    where = path.relative_to(PACKAGE.parent) if path.is_relative_to(PACKAGE.parent) else path
    parts = list(where.with_suffix("").parts)
    package = parts if path.name == "__init__.py" else parts[:-1]
    if path.name == "__init__.py":
        package = parts[:-1]
    found: set[str] = set()
    for node in ast.walk(tree or ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return found


def _reaches_reference(module: str) -> bool:
    return module == "agentconf.reference" or module.startswith("agentconf.reference.")


def test_the_harness_never_imports_the_reference() -> None:
    offenders = sorted(
        f"{path.relative_to(PACKAGE.parent).as_posix()}: {module}"
        for path in HARNESS.rglob("*.py")
        for module in _imported_modules(path)
        if _reaches_reference(module)
    )
    assert not offenders, f"the harness imports the reference: {offenders}"


def test_the_check_sees_a_late_and_a_relative_import(tmp_path: Path) -> None:
    module = PACKAGE / "harness" / "session" / "client.py"
    assert "agentconf.harness.session.answers" in _imported_modules(module)
    late = ast.parse("def f():\n    from agentconf.reference import create\n")
    names = {node.module for node in ast.walk(late) if isinstance(node, ast.ImportFrom)}
    assert any(_reaches_reference(name or "") for name in names)


def test_the_contract_imports_neither_the_harness_nor_the_reference() -> None:
    offenders = sorted(
        f"{path.relative_to(PACKAGE.parent).as_posix()}: {module}"
        for path in (PACKAGE / "contract").rglob("*.py")
        for module in _imported_modules(path)
        if module.startswith(("agentconf.harness", "agentconf.reference", "agentconf.selfcheck"))
    )
    assert not offenders, f"the contract imports a layer above it: {offenders}"


REPOSITORY = PACKAGE.parent
SHIPPED = (PACKAGE, REPOSITORY / "suites")


def _test_modules(tests: Path) -> set[str]:
    """The names tests/ would offer an import once on sys.path: its modules and folders."""
    return {"tests"} | {path.stem for path in tests.glob("*.py")} | {
        path.name for path in tests.iterdir() if path.is_dir() and path.name != "__pycache__"}


def _reaches_tests(path: Path, names: set[str]) -> list[str]:
    """The imports of `path` that come from tests/, and the paths it builds into a tests/."""
    tree = ast.parse(path.read_text("utf-8"))
    found = [f"imports {name}" for name in sorted(_imported_modules(path, tree))
             if name.split(".")[0] in names]
    found += [f"line {node.lineno}: / \"tests\"" for node in ast.walk(tree)
              if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
              and isinstance(node.right, ast.Constant) and node.right.value == "tests"]
    return found


def test_nothing_shipped_comes_from_tests() -> None:
    names = _test_modules(REPOSITORY / "tests")
    offenders = {str(path.relative_to(REPOSITORY)): found for root in SHIPPED
                 for path in sorted(root.rglob("*.py"))
                 if (found := _reaches_tests(path, names))}
    assert not offenders, f"shipped modules reach into tests/: {offenders}"


def test_the_check_sees_an_import_from_tests_and_a_path_into_it(tmp_path: Path) -> None:
    module = tmp_path / "shipped.py"
    module.write_text("import sys\nfrom pathlib import Path\nfrom reference_run import x\n"
                      'sys.path.insert(0, str(Path(__file__).parent / "tests"))\n', "utf-8")
    assert _reaches_tests(module, _test_modules(REPOSITORY / "tests")) == [
        "imports reference_run", "imports reference_run.x", 'line 4: / "tests"']


def test_the_harness_top_level_is_a_short_list_of_folders() -> None:
    entries = [path.name for path in HARNESS.iterdir() if path.name != "__pycache__"]
    assert len(entries) <= MOST_TOP_LEVEL_ENTRIES, sorted(entries)


MOST_LINES = 400


def test_no_module_is_longer_than_a_newcomer_reads_at_once() -> None:
    # A module over this is split along its jobs (issue 28), not trimmed of its comments.
    long = sorted(f"{path.relative_to(PACKAGE.parent).as_posix()}: {lines}"
                  for path in PACKAGE.rglob("*.py")
                  if (lines := len(path.read_text("utf-8").splitlines())) > MOST_LINES)
    assert not long, f"modules over {MOST_LINES} lines: {long}"
