"""The suites catch every mutant at the clauses it names, and every MUST clause kills a mutant."""

from pathlib import Path

import pytest

from agentconf.contract import CATEGORIES, CLAUSES, Level, active_clauses
from agentconf.selfcheck.mutants import MutantCheck, check_entries, render_table
from mutants import gallery

ENTRIES = gallery.entries()
# Clauses the in-process reference cannot be judged by, and why (their mutants are).
NOT_APPLICABLE_TO_THE_REFERENCE = {
    "SHELL-13": "its bash claims no sandbox: the shell is not confined, a fact",
    "RESULT-09": "in process there is no stdio channel (over cmd: and mcp: it passes)",
}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "mutants.md"


def test_every_must_clause_kills_a_mutant_or_says_why_none_can_exist() -> None:
    reasons = getattr(gallery, "NO_MUTANT_REASONS", {})
    killed = gallery.killed_clauses()
    unbacked = [
        clause.id
        for clause in active_clauses()
        if clause.level is Level.MUST and clause.id not in killed and not reasons.get(clause.id)
    ]
    assert not unbacked, f"MUST clauses with no mutant and no reason: {unbacked}"


def test_every_mutant_names_a_defect_and_clauses_that_exist() -> None:
    for entry in ENTRIES:
        assert entry.defect, f"{entry.name} has no docstring naming its defect"
        assert entry.kills, f"{entry.name} names no clause"
        assert set(entry.kills) <= set(CLAUSES), f"{entry.name} names unknown clauses"


def test_the_gallery_covers_every_category_with_at_least_thirty_mutants() -> None:
    assert len(ENTRIES) >= 30
    categories = {CLAUSES[clause].category for entry in ENTRIES for clause in entry.kills}
    assert categories == set(CATEGORIES)


def test_mutants_reach_the_harness_through_more_than_one_adapter() -> None:
    assert {entry.adapter for entry in ENTRIES} == {"python", "cmd"}


def test_the_clause_to_mutant_table_in_the_docs_is_current() -> None:
    assert DOCS.read_text("utf-8") == render_table(), (
        "run: agentconf selftest --table > docs/mutants.md"
    )


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, MutantCheck]:
    """Every mutant checked in one pytest session (agentconf/selfcheck/session.py); its events
    and pytest log stay in the test's temporary folder for a look when one survives."""
    folder = tmp_path_factory.mktemp("gallery-session")
    return {verdict.mutant: verdict for verdict in check_entries(ENTRIES, 2, folder)}


# One worker holds the whole gallery (its session is made once per module and worker).
@pytest.mark.xdist_group("mutant-gallery")
@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_the_suites_catch_the_mutant_at_its_named_clauses(
    entry: gallery.Entry, verdicts: dict[str, MutantCheck]
) -> None:
    verdict = verdicts[entry.name]
    assert verdict.killed, f"{entry.name}: {verdict.detail}"


def test_the_reference_passes_every_clause_the_gallery_names(tmp_path: Path) -> None:
    """The other half of a mutant's verdict: the same checks pass on a conforming implementation."""
    import json
    import subprocess
    import sys

    clauses = ",".join(sorted(gallery.killed_clauses()))
    subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--clauses", clauses, "--report", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    report = json.loads((tmp_path / "conformance.json").read_text())
    statuses = {clause["id"]: clause["status"] for clause in report["clauses"]}
    not_passing = {c: s for c, s in statuses.items()
                   if s != "pass" and not (s == "n/a" and c in NOT_APPLICABLE_TO_THE_REFERENCE)}
    assert not not_passing, f"the reference does not pass: {not_passing}"
    assert set(statuses) == set(gallery.killed_clauses())
