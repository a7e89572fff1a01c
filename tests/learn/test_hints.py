"""Hints are chosen by what the failing check saw, not by the clause alone: every hint fires on
evidence of its own mistake (its `example`, copied from a real run of that mistake) and loses to
no other; the mutant a failure cites is the one its hint names; and the three misleading hints
the issue met (the opposite mistake, an unrelated mutant, the same hint back for a crash) are
gone, on a real learner's project too."""

import pytest

from agentconf.contract import CLAUSES
from agentconf.learn.course import load_course
from agentconf.learn.hints import ANY_CLAUSE, Hint, HintError, choose, hint_from
from agentconf.learn.lesson import ClauseOutcome
from agentconf.learn.material import gallery_mutants, material, mutant_kills
from agentconf.learn.render import render_failure

from .journey import agentconf

COURSE = load_course()
HINTS = COURSE.hints
OWN_CLAUSES = sorted({hint.clause for hint in HINTS if hint.clause != ANY_CLAUSE})
# A clause with no hint of its own: only the shared ones can answer for it.
BARE_CLAUSE = next(cid for cid in CLAUSES if cid not in OWN_CLAUSES)
CRASH = ("mytools:create: call_tool raised KeyError: 'agentconf_no_such_tool' instead of "
         "answering an envelope (RESULT-04)")
MISSING_DATA = "the answer is not a valid envelope: data: Field required"


def _name(hint: Hint) -> str:
    return f"{hint.clause}: {hint.when.pattern[:40]}"


@pytest.mark.parametrize("hint", HINTS, ids=_name)
def test_a_hint_fires_on_its_own_mistake_and_no_other_hint_takes_it(hint: Hint) -> None:
    clauses = [hint.clause] if hint.clause != ANY_CLAUSE else [*OWN_CLAUSES, BARE_CLAUSE]
    for clause in clauses:
        assert choose(HINTS, clause, hint.example) is hint, clause


@pytest.mark.parametrize("hint", HINTS, ids=_name)
def test_a_hint_does_not_fire_on_the_other_mistakes_of_its_clause(hint: Hint) -> None:
    others = [other for other in HINTS if other is not hint and other.clause == hint.clause]
    for other in others:
        assert not hint.fires(hint.clause, other.example), _name(other)


@pytest.mark.parametrize("hint", [hint for hint in HINTS if hint.mutant], ids=_name)
def test_the_mutant_a_hint_names_makes_that_mistake_in_the_gallery(hint: Hint) -> None:
    mutants = {mutant.name: mutant for mutant in gallery_mutants()}
    assert hint.mutant in mutants
    if hint.clause != ANY_CLAUSE:
        assert hint.clause in mutant_kills(mutants[hint.mutant])


def test_a_crash_gets_the_crash_hint_whatever_clause_met_it() -> None:
    """After a fix, a KeyError crash brought back RESULT-01's hint about `data`."""
    for clause in ("RESULT-01", "RESULT-04", "VALIDATE-01"):
        chosen = choose(HINTS, clause, CRASH)
        assert chosen is not None and "raised an exception" in chosen.text, clause
    assert "`data` too" in choose(HINTS, "RESULT-01", MISSING_DATA).text


def test_a_failure_cites_the_mutant_of_its_own_mistake_or_none() -> None:
    """A RESULT-01 verdict about a missing `data` cited DataNotText (a list in `data`)."""
    lesson = COURSE.lesson("envelope")
    missing = material("RESULT-01", lesson, MISSING_DATA)
    assert missing.hint is not None and missing.mutants == ()
    listed = material("RESULT-01", lesson, "data: Input should be a valid string")
    assert [mutant.name for mutant in listed.mutants] == ["DataNotText"]
    view = "\n".join(render_failure(ClauseOutcome("RESULT-01", "fail", CRASH, ""),
                                    material("RESULT-01", lesson, CRASH)))
    assert "raised an exception" in view and "`data` too" not in view and "DataNotText" not in view


def test_evidence_no_hint_fits_gets_the_lessons_hint_said_as_such() -> None:
    lesson = COURSE.lesson("envelope")
    facts = material("RESULT-01", lesson, "something no hint of the course describes")
    view = "\n".join(render_failure(ClauseOutcome("RESULT-01", "fail", "x", ""), facts))
    assert facts.hint is None and "The lesson's hint (no hint of the course fits" in view


def test_a_hint_without_its_example_or_with_a_broken_pattern_is_refused() -> None:
    with pytest.raises(HintError, match="example"):
        hint_from({"clause": "EOL-01", "when": "x", "text": "t"})
    with pytest.raises(HintError, match="regular expression"):
        hint_from({"clause": "EOL-01", "when": "(", "text": "t", "example": "e"})


def test_a_learners_real_mistakes_get_their_own_hints(tmp_path) -> None:
    """The starter as written (the message in `error`, no `data`), then the message moved to
    `data` with the dispatcher still letting a KeyError out."""
    project = tmp_path / "p"
    assert agentconf("learn", "new", str(project), cwd=tmp_path).returncode == 0
    first = agentconf("learn", cwd=project).stdout
    assert "A failure needs `data` too" in first and "DataNotText" not in first, first
    envelope = project / "mytools" / "envelope.py"
    envelope.write_text(envelope.read_text("utf-8").replace(
        '{"success": False, "error": self.words}', '{"success": False, "data": self.words}'))
    second = agentconf("learn", cwd=project).stdout
    assert "raised an exception" in second and "A failure needs `data` too" not in second, second
