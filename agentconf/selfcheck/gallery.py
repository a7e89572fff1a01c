"""The catalogue of mutants, and the implementation spec that reaches each one.

Each category's mutants live beside its clauses, in `suites/<category>/mutants.py` (found through
the contract's categories, in a checkout and in an installed wheel). A mutant is a subclass of
`mutant_base.Mutant` defined there; its name is unique across the gallery, so this module serves
each one by name as an attribute: `python:agentconf.selfcheck.gallery:EditUnconfined` reaches it
in process, `serve_mutant.py` over `cmd:`.
"""

import importlib.util
import inspect
import sys
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from agentconf.contract.categories import categories

from .mutant_base import Mutant

SERVE_MODULE = "agentconf.selfcheck.serve_mutant"


@dataclass(frozen=True)
class Entry:
    name: str
    module: str  # the category folder it lives in: suites/<module>/mutants.py
    defect: str
    kills: tuple[str, ...]
    known_from: str
    adapter: str
    caught_as: tuple[str, ...]
    call_timeout_s: float | None = None

    @property
    def target(self) -> str:
        return f"{__name__}:{self.name}"

    def spec(self) -> str:
        if self.adapter == "cmd":
            # -P: the served program runs in the sandbox's root, which must not shadow a module.
            return f"cmd:{sys.executable} -P -m {SERVE_MODULE} {self.target} {{root}}"
        return f"python:{self.target}"


@cache
def _modules() -> tuple[ModuleType, ...]:
    """Each category's mutants module, imported from its file under a name of its own."""
    found = []
    for category in categories():
        path = category.mutants_file
        if not path.is_file():
            continue
        name = f"agentconf_mutants_{category.folder.name}"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None, path
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # a mutant's class must be findable by its module's name
        spec.loader.exec_module(module)
        found.append(module)
    return tuple(found)


def _mutants_of(module: ModuleType) -> list[type[Mutant]]:
    return [value for name, value in vars(module).items()
            if inspect.isclass(value) and issubclass(value, Mutant)
            and value.__module__ == module.__name__ and not name.startswith("_")]


def _entry(mutant: type[Mutant], module: ModuleType) -> Entry:
    return Entry(
        name=mutant.__name__,
        module=module.__name__.removeprefix("agentconf_mutants_"),
        defect=inspect.cleandoc(mutant.__doc__ or "").split("\n\n")[0].replace("\n", " "),
        kills=mutant.KILLS,
        known_from=mutant.KNOWN_FROM,
        adapter=mutant.ADAPTER,
        caught_as=mutant.CAUGHT_AS,
        call_timeout_s=mutant.CALL_TIMEOUT_S,
    )


@cache
def _classes() -> dict[str, type[Mutant]]:
    classes: dict[str, type[Mutant]] = {}
    for module in _modules():
        for mutant in _mutants_of(module):
            if mutant.__name__ in classes:
                raise ValueError(f"two mutants are named {mutant.__name__}: in "
                                 f"{inspect.getfile(classes[mutant.__name__])} and "
                                 f"{inspect.getfile(mutant)}")
            classes[mutant.__name__] = mutant
    return classes


def entries() -> list[Entry]:
    """Every mutant, category by category in the contract's order, each file in its order."""
    _classes()  # names checked unique
    return [_entry(mutant, module) for module in _modules() for mutant in _mutants_of(module)]


def killed_clauses() -> set[str]:
    return {clause for entry in entries() for clause in entry.kills}


def __getattr__(name: str) -> type[Mutant]:
    """A mutant by its name: the factory of a `python:` spec (`gallery:EditUnconfined`)."""
    mutant = None if name.startswith("__") else _classes().get(name)
    if mutant is None:
        raise AttributeError(f"module {__name__!r} has no mutant {name!r}")
    return mutant
