"""`init --from` provokes failures with the golden cases marked `probe` (init_from/probe_cases.py),
each beside its twin: the provocations are the cases' data, not code of the drafter's own."""

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from draft_programs import draft_toy

from agentconf.harness.cases.load import load_cases
from agentconf.harness.profile.model import Profile, parse_profile
from agentconf.init_from import probe_cases
from agentconf.init_from.probe_cases import drawn


def _case(case_id: str) -> Any:
    return next(case for case in load_cases() if case.id == case_id)


def test_a_twin_varies_the_names_of_the_tree_and_the_calls_and_keeps_the_code() -> None:
    case = _case("read-folder")
    twin = case.twin_case()
    assert set(twin.tree) == {"notes/x.txt"} and twin.calls[-1]["arguments"] == {"path": "notes"}
    assert twin.expected_code == case.expected_code == "IS_DIRECTORY"
    assert case.calls[-1]["arguments"] == {"path": "sub"}, "the case itself is left as it was"


def test_the_drafter_plays_the_probe_cases_its_tools_can_play_plainest_first() -> None:
    client = SimpleNamespace(profile=Profile())
    cases = drawn(client, {"read_file"})  # type: ignore[arg-type]
    ids = [case.id for case in cases]
    assert {"read-missing", "read-folder", "read-too-large", "registry-unknown-tool-plain",
            "confine-dotdot-read-canary"} <= set(ids), ids
    for case in cases:
        assert {call["tool"] for call in case.calls if "tool" in call} <= {"read_file"}, case.id
        assert case.twin, case.id
    codes = [case.expected_code for case in cases]
    assert codes[:codes.count("NOT_FOUND")] == ["NOT_FOUND"] * codes.count("NOT_FOUND"), codes


def _drawn_ids(profile: dict[str, Any], mapped: set[str]) -> set[str]:
    client = SimpleNamespace(profile=parse_profile(profile))
    return {case.id for case in drawn(client, mapped)}  # type: ignore[arg-type]


def test_a_probe_whose_program_the_gate_refuses_is_not_played() -> None:
    """A program the allow-list refuses is answered PERMISSION_DENIED: no NONZERO_EXIT to learn."""
    assert {"exec-nonzero-exit", "exec-program-not-found"} <= _drawn_ids({}, {"exec"})
    gated = _drawn_ids({"tools": {"exec": {"allowed_programs": ["echo", "gone-away-program",
                                                                 "agentconf-no-such-program-xyz"]}}},
                       {"exec"})
    assert "exec-nonzero-exit" not in gated and "exec-program-not-found" in gated, gated


def test_an_absolute_path_out_is_no_probe_where_slash_is_the_root() -> None:
    """There it names a missing file of the root: its words are NOT_FOUND's, not OUTSIDE_ROOT's."""
    assert "confine-absolute-read-canary" in _drawn_ids({}, {"read_file"})
    virtual = _drawn_ids({"implementation": {"virtual_absolute_paths": True}}, {"read_file"})
    assert "confine-absolute-read-canary" not in virtual and "read-missing" in virtual, virtual


def test_a_probe_case_is_what_the_draft_learns_a_failure_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new probe case is one case's change: the draft plays what the cases hold, here one
    provocation of a missing file named only by the case and its twin."""
    only = _case("read-missing")
    monkeypatch.setattr(probe_cases, "load_cases", lambda: [only])
    _profile, text = draft_toy(tmp_path)
    assert "case read-missing" in text, text
    assert "case read-folder" not in text, text


def test_a_write_out_of_the_root_that_landed_is_no_refusal_in_words() -> None:
    """A drawn write or edit that answers success and changed nothing is a refusal in words;
    judged on the root alone, a write that climbed out by `../` (and landed beside it) once
    looked like one, and the draft made 'Wrote ../' a failure marker of every write."""
    import tomllib

    from agentconf.harness.target.spec import parse_spec
    from agentconf.init_from.draft import draft_profile

    spec = "python:agentconf.selfcheck.gallery:RelativePathsUnconfined"
    draft = draft_profile(parse_spec(spec), spec)
    profile = tomllib.loads(draft.text)
    assert "result" not in profile["tools"]["write_file"], draft.text
    # The success it saw is the departure the case's clause will fail, said so in the draft.
    assert ("case confine-dotdot-write: succeeded where it must refuse, so no OUTSIDE_ROOT was "
            "learned: a departure CONFINE-01 will fail") in draft.text


def test_a_form_the_schema_documents_forecasts_no_departure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A write whose schema gives `content` a default writes an empty file without it: VALIDATE-01
    judges that form documented, so the draft must not forecast the clause failing on it."""
    from agentconf.harness.target.spec import parse_spec
    from agentconf.init_from.draft import draft_profile

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "selfcheck"))
    spec = "python:conformant:WritesEmptyByDefault"
    text = draft_profile(parse_spec(spec), spec).text
    assert "VALIDATE-01 will fail" not in text, text
    assert ("case validate-missing-content: not judged: write_file's input schema accepts this "
            "call") in text, text
