"""No import cycle in `agentconf/`: module-level imports, those under `if TYPE_CHECKING:`
included, form a graph without cycles (an import inside a function is a deliberate late import
and is not counted). A cycle makes import order matter and the layers blur (issue 16)."""

import ast
from pathlib import Path

import agentconf

PACKAGE = Path(agentconf.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try):
            pending += node.body + node.orelse
            pending += [s for h in getattr(node, "handlers", []) for s in h.body]
    return found


def _imported(name: str, path: Path) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: set[str] = set()
    for node in _top_level_imports(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        edges |= {target for target in targets if target in MODULES and target != name}
    return edges


def _cycle() -> list[str] | None:
    graph = {name: _imported(name, path) for name, path in MODULES.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    trail: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        trail.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return [*trail[trail.index(target):], target]
            if target not in state and (found := visit(target)):
                return found
        trail.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)):
            return found
    return None


def test_the_package_has_no_import_cycle() -> None:
    assert len(MODULES) > 100
    cycle = _cycle()
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
