"""The suites catch every mutant at the clauses it names, and every MUST clause kills a mutant."""

from pathlib import Path

import pytest
from reference_run import reference_outcomes

from agentconf.contract import CATEGORIES, CLAUSES, Level, active_clauses
from agentconf.selfcheck import gallery
from agentconf.selfcheck.mutants import check_entries, render_table

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


def test_the_suites_catch_every_mutant_at_its_named_clauses(tmp_path: Path) -> None:
    """Every mutant checked in one pytest session (agentconf/selfcheck/gallery_session.py); its
    events and pytest log stay in tmp_path for a look when one survives. One test, not one per
    mutant: xdist cannot keep a group of tests on one worker under pytest 9.2 (its `xdist_group`
    sets a node id attribute pytest no longer reads), and two workers would each make the session.
    `agentconf selftest --mutant NAME` checks one alone."""
    verdicts = check_entries(ENTRIES, 2, tmp_path)
    assert [v.mutant for v in verdicts] == [e.name for e in ENTRIES]
    survivors = [f"{v.mutant}: {v.detail}" for v in verdicts if not v.killed]
    assert not survivors, f"{len(survivors)} of {len(verdicts)} mutants survived:\n" + "\n".join(
        survivors) + f"\n(the session's events and pytest.log: {tmp_path})"


def test_the_reference_passes_every_clause_the_gallery_names(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The other half of a mutant's verdict: the same checks pass on a conforming implementation.
    Judged on the session's whole run of the reference (tests/reference_run.py), which the stdio
    parity tests compare their piped runs with."""
    statuses, _ = reference_outcomes(tmp_path_factory)
    named = gallery.killed_clauses()
    assert set(named) <= set(statuses), sorted(set(named) - set(statuses))
    not_passing = {c: statuses[c] for c in named
                   if statuses[c] != "pass"
                   and not (statuses[c] == "n/a" and c in NOT_APPLICABLE_TO_THE_REFERENCE)}
    assert not not_passing, f"the reference does not pass: {not_passing}"
