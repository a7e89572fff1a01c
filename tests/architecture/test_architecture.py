"""docs/ARCHITECTURE.md maps every module of the package: a module added without a line there
fails here, so the map a newcomer reads stays whole; and every path it cites exists."""

import re
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


# A path is cited in backticks (`agentconf/harness/plugin.py`, `harness/session/reach.py`) or as an
# entry of the layout block. Backticked words that are paths of the repository start with one of
# its folders or one of the package's; the others (`sandbox/root`, `tools/list`) are not paths here.
_ROOTS = ("agentconf", "suites", "fixtures", "tests", "docs", "scripts", "peers", "examples",
          "benchmarks", ".github", "harness", "reference", "contract", "selfcheck", "learn",
          "init_from", "docs_gen", "commands", "session", "target", "profile", "disk", "verdicts",
          "cases", "run", "report")
_FILE = re.compile(r"\.(py|toml|json|md|yml|sh)$")


def layout_paths(text: str) -> list[str]:
    """The entries of the layout block (the tree that starts with `agentconf/`), as paths from
    the repository's top: a name ending in / opens a folder for the lines indented under it."""
    block = text.split("```\nagentconf/\n", 1)[1].split("```", 1)[0]
    stack: list[tuple[int, str]] = []
    found = []
    for line in ["agentconf/", *block.splitlines()]:
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent >= LAYOUT_NAME_COLUMN:
            continue  # a description going on under its entry
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        for name in re.split(r"\s{2,}", line.strip(), maxsplit=1)[0].split(", "):
            if "<" not in name:  # `tools/<tool>.py` names a kind of file
                found.append(parent + name)
                if name.endswith("/"):
                    stack.append((indent, parent + name))
    return found


LAYOUT_NAME_COLUMN = 16


def cited_paths(text: str) -> list[str]:
    return [token for token in re.findall(r"`([^`\s]+)`", text)
            if "/" in token and "<" not in token and token.split("/")[0] in _ROOTS
            and (token.endswith("/") or _FILE.search(token))]


def missing_paths(text: str, repository: Path) -> list[str]:
    bases = (repository, repository / "agentconf", repository / "agentconf" / "harness")
    return sorted({path for path in [*layout_paths(text), *cited_paths(text)]
                   if not any((base / path).exists() for base in bases)})


def test_every_path_the_document_cites_exists() -> None:
    text = ARCHITECTURE.read_text("utf-8")
    assert len(layout_paths(text)) > 80 and len(cited_paths(text)) > 200
    assert missing_paths(text, PACKAGE.parent) == []


def test_a_path_that_is_not_there_is_found_in_either_place() -> None:
    text = ("`harness/session/client.py` and `fixtures/profiles/` and `tools/list`\n```\n"
            "agentconf/\n  contract/  data\n    gone.py  a module\nfixtures/\n  nowhere/  x\n```\n")
    assert missing_paths(text, PACKAGE.parent) == [
        "agentconf/contract/gone.py", "fixtures/nowhere/", "fixtures/profiles/"]
