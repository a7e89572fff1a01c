"""docs/ARCHITECTURE.md maps every module of the package: a module added without a line there
fails here, so the map a newcomer reads stays whole."""

from pathlib import Path

import agentconf

PACKAGE = Path(agentconf.__file__).resolve().parent
ARCHITECTURE = PACKAGE.parent / "docs" / "ARCHITECTURE.md"


def test_the_architecture_document_names_every_module() -> None:
    text = ARCHITECTURE.read_text("utf-8")
    modules = sorted(path.relative_to(PACKAGE.parent).as_posix()
                     for path in PACKAGE.rglob("*.py"))
    assert len(modules) > 100
    missing = [module for module in modules if f"`{module}`" not in text]
    assert not missing, f"docs/ARCHITECTURE.md, Module map, lacks: {missing}"


def test_every_module_in_the_map_exists() -> None:
    listed = [line.split("`")[1] for line in ARCHITECTURE.read_text("utf-8").splitlines()
              if line.startswith("- `agentconf/")]
    gone = [module for module in listed if not (PACKAGE.parent / module).is_file()]
    assert not gone, f"docs/ARCHITECTURE.md maps modules that no longer exist: {gone}"
