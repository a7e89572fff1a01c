"""Files an answer names: what an implementation tells the model it made beside the target (a
backup, a version it keeps) is a product of the call the model knows of, not a temporary file
left behind. EDIT-16 judges the files nobody was told about.

A path is named when an answer's text holds it whole, as the root's relative path (`./` or not)
or absolute, with no path character on either side: `f.txt` does not name `f.txt.tmp`. A folder
is named with a file it holds that is named.
"""

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from agentconf.harness.session.answers import strings_in
from agentconf.harness.session.result import Result

_PATH_CHAR = r"[\w./\\-]"
V = TypeVar("V")


def _key(path: str) -> str:
    """A tree's key as a relative path: `dir/` and `link@` (SandboxWorkspace.tree) without
    their marks."""
    return path.removesuffix("/").removesuffix("@")


def named_in(texts: Iterable[str], paths: Iterable[str], root: Path) -> set[str]:
    """The `paths` (keys of a tree of `root`) that one of `texts` names, with the folders of
    those it names."""
    whole = "\n".join(texts)
    named = set()
    for path in paths:
        rel = _key(path)
        spelled = (rel, f"./{rel}", f"{root}/{rel}")
        if any(re.search(rf"(?<!{_PATH_CHAR}){re.escape(s)}(?!{_PATH_CHAR})", whole)
               for s in spelled):
            named.add(rel)
    folders = {"/".join(rel.split("/")[:depth]) for rel in named
               for depth in range(1, rel.count("/") + 1)}
    return {path for path in paths if _key(path) in named | folders}


def unreported(tree: Mapping[str, V], results: Iterable[Result], root: Path,
               expected: Iterable[str] = ()) -> dict[str, V]:
    """`tree` without the paths an answer of `results` names, except `expected` ones (the
    target is named too, and judged)."""
    texts = [text for result in results for text in strings_in(result.raw)]
    judged = {_key(path) for path in expected}
    told = {path for path in named_in(texts, tree, root) if _key(path) not in judged}
    return {path: value for path, value in tree.items() if path not in told}
