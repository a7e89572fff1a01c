"""The gallery's one pytest session (agentconf/selfcheck/gallery_session.py): each target is
judged as its own `agentconf run` would judge it, and a session that cannot run says so."""

from pathlib import Path

from agentconf.selfcheck.gallery_plugin import Target
from agentconf.selfcheck.gallery_session import check_targets

ENV: dict[str, str] = {}  # the gallery's mutants import from the package


def test_two_targets_in_one_session_keep_their_own_verdicts(tmp_path: Path) -> None:
    # The mutant first, then the reference at the same clause: what the session learnt of the
    # mutant (its spec, its listing) must not carry over to the reference, nor back.
    targets = [Target("PrefixContainment", "python:agentconf.selfcheck.gallery:PrefixContainment",
                      ("CONFINE-04",)),
               Target("Reference", "reference", ("CONFINE-04",))]
    result = check_targets(targets, 1, ENV, tmp_path)
    assert result.problem is None
    assert result.statuses == {"PrefixContainment": {"CONFINE-04": "fail"},
                               "Reference": {"CONFINE-04": "pass"}}, result.evidence


def test_a_session_that_cannot_run_is_a_problem_not_a_verdict(tmp_path: Path) -> None:
    result = check_targets([Target("Missing", "python:no_such_module:make", ("CONFINE-04",))],
                           1, ENV, tmp_path)
    assert result.statuses == {}
    assert result.problem is not None and "pytest exited" in result.problem
