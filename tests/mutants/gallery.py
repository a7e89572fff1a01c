"""The catalogue of mutants, and the implementation spec that reaches each one."""

import importlib
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path

from ._base import Mutant

MODULES = (
    "confine",
    "symlink",
    "eol",
    "edit",
    "truncate",
    "shell",
    "grep",
    "validate",
    "registry",
    "result",
    "read",
    "protocol",
    "extra",
    "annotation",
    "patch",
    "surface",
    "permission",
    "cancel",
    "reach",
)
HERE = Path(__file__).resolve().parent
SERVE = HERE / "programs" / "serve_mutant.py"


@dataclass(frozen=True)
class Entry:
    name: str
    module: str
    defect: str
    kills: tuple[str, ...]
    known_from: str
    adapter: str
    caught_as: tuple[str, ...]
    call_timeout_s: float | None = None

    @property
    def target(self) -> str:
        return f"{__package__}.{self.module}:{self.name}"

    def spec(self) -> str:
        if self.adapter == "cmd":
            return f"cmd:{sys.executable} {SERVE} {self.target} {{root}}"
        return f"python:{self.target}"


def entries() -> list[Entry]:
    found = []
    for module_name in MODULES:
        module = importlib.import_module(f"{__package__}.{module_name}")
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, Mutant)
                and value.__module__ == module.__name__
                and not name.startswith("_")
            ):
                found.append(
                    Entry(
                        name=name,
                        module=module_name,
                        defect=inspect.cleandoc(value.__doc__ or "")
                        .split("\n\n")[0]
                        .replace("\n", " "),
                        kills=value.KILLS,
                        known_from=value.KNOWN_FROM,
                        adapter=value.ADAPTER,
                        caught_as=value.CAUGHT_AS,
                        call_timeout_s=value.CALL_TIMEOUT_S,
                    )
                )
    return found


def killed_clauses() -> set[str]:
    return {clause for entry in entries() for clause in entry.kills}
