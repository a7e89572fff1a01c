"""The pytest plugin of a gallery session: every target checked in one pytest session.

A run's fixed cost (an interpreter, the kit's imports, collecting the 1,200 checks of the suites:
about 3 s of CPU) used to be paid once per mutant, 140 times, for about ten checks each. Here the
suites are collected once and each check is parametrized by the mutants it concerns
(`gallery=<Name>` in its id): a mutant gets exactly the checks `agentconf run --clauses <its
clauses>` would have run, and the plugin's run state is pointed at it before each of them
(`RunState.retarget`), so nothing learnt of one implementation carries over to the next. The
verdict per mutant is the same aggregation of the same events `agentconf run` makes.

Loaded by name in the child (`-p agentconf.selfcheck.gallery_plugin`) with
`--agentconf-gallery FILE`, a JSON list of targets; nothing happens without that option.
selfcheck/gallery_session.py starts such a session and reads its verdicts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from agentconf.harness.run.plugin_state import run_state

PARAMETER = "agentconf_gallery_target"
_ID = re.compile(r"gallery=(\w+)")
_TARGETS = pytest.StashKey[dict[str, "Target"]]()


@dataclass(frozen=True)
class Target:
    """One implementation of the session: its name, spec, the clauses it is checked at, and its
    per-call timeout when not the default (a mutant whose defect is a hang)."""

    name: str
    spec: str
    clauses: tuple[str, ...]
    timeout_s: float | None = None


def write_targets(targets: Sequence[Target], path: Path) -> None:
    path.write_text(json.dumps([asdict(target) for target in targets]), encoding="utf-8")


def read_targets(path: Path) -> dict[str, Target]:
    records = json.loads(path.read_text("utf-8"))
    return {record["name"]: Target(record["name"], record["spec"], tuple(record["clauses"]),
                                   record.get("timeout_s")) for record in records}


def target_of(nodeid: str) -> str | None:
    """The target a check of the session was played against, from its id."""
    found = _ID.search(nodeid)
    return found.group(1) if found else None


# ---- the plugin ----------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("agentconf").addoption(
        "--agentconf-gallery", metavar="FILE", default=None,
        help="check every target of this JSON list in one session (the mutant gallery)")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("agentconf_gallery")
    if path:
        config.stash[_TARGETS] = read_targets(Path(path))


def _tags(marks: Any) -> set[str]:
    """Clause ids and their categories, as `--agentconf-clauses` selects a check."""
    tags = {str(arg) for mark in marks for arg in mark.args}
    return tags | {tag.split("-")[0] for tag in tags}


def _selects(item_or_definition: Any) -> set[str]:
    clauses = _tags(item_or_definition.iter_markers("clause"))
    return clauses or _tags(item_or_definition.iter_markers("scenario"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    targets = metafunc.config.stash.get(_TARGETS, None)
    if not targets or not {"ws", "client"} & set(metafunc.fixturenames):
        return
    own = _selects(metafunc.definition)
    # A check whose clause comes with its parameters (a golden case) is offered to every target;
    # collection then keeps the pairs whose clauses meet.
    names = [name for name, target in targets.items() if not own or own & set(target.clauses)]
    if names:
        metafunc.fixturenames.append(PARAMETER)
        metafunc.parametrize(PARAMETER, names, ids=[f"gallery={name}" for name in names])


@pytest.hookimpl(trylast=True)  # after the kit's own selection and its waiting-first order
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    targets = config.stash.get(_TARGETS, None)
    if not targets:
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        name = _param(item)
        wanted = set(targets[name].clauses) if name in targets else set()
        (keep if _selects(item) & wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
    # One target's checks together: the run state changes once per target and worker.
    keep.sort(key=lambda item: str(_param(item)))
    items[:] = keep


def _param(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get(PARAMETER) if callspec is not None else None


@pytest.hookimpl(tryfirst=True)  # before the fixtures of the check open a session
def pytest_runtest_setup(item: pytest.Item) -> None:
    targets = item.config.stash.get(_TARGETS, None)
    name = _param(item)
    if not targets or name is None:
        return
    state = run_state(item.config)
    target = targets[name]
    if state.impl != target.spec or state.timeout != target.timeout_s:
        state.retarget(target.spec, target.timeout_s)
