"""The pytest child: followed while it runs, and stopped when it hangs after the run ended."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentconf.harness.run import child
from agentconf.harness.run.child import EventFollower, run_pytest
from agentconf.harness.run.runner import select_clauses


def test_a_child_that_hangs_after_run_end_is_stopped_and_its_events_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(child, "EXIT_GRACE_SECONDS", 0.5)
    events = tmp_path / "events.jsonl"
    pid_file = tmp_path / "pid"
    script = textwrap.dedent(f"""
        import json, os, time
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        with open({str(events)!r}, "w") as f:
            f.write(json.dumps({{"event": "test", "nodeid": "t", "clauses": ["EDIT-01"],
                                 "outcome": "pass"}}) + "\\n")
            f.write(json.dumps({{"event": "run_end", "executed": 1}}) + "\\n")
        time.sleep(3600)  # a thread that never returns keeps a real pytest alive like this
    """)
    seen = []
    follower = EventFollower(events, seen.append)
    status = run_pytest([sys.executable, "-c", script], {}, tmp_path / "log", follower)
    assert status is None
    assert [t.nodeid for t in seen] == ["t"]
    pid = int(pid_file.read_text())
    alive = subprocess.run(["kill", "-0", str(pid)], capture_output=True, check=False)
    assert alive.returncode != 0, "the hung child is still running"


def test_a_child_that_exits_reports_its_status_and_every_event(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    records = [{"event": "test", "nodeid": f"t{i}", "clauses": ["EDIT-01"], "outcome": "fail"}
               for i in range(3)]
    lines = "".join(json.dumps(r) + "\n" for r in records)
    script = f"open({str(events)!r}, 'w').write({lines!r}); raise SystemExit(1)"
    seen = []
    status = run_pytest([sys.executable, "-c", script], {}, tmp_path / "log",
                        EventFollower(events, seen.append))
    assert status == 1
    assert [t.nodeid for t in seen] == ["t0", "t1", "t2"]


def test_clauses_are_selected_by_id_or_category_in_any_case() -> None:
    chosen = select_clauses(["edit-01", "eol"])
    assert "EDIT-01" in {c.id for c in chosen}
    assert {c.category for c in chosen} == {"EDIT", "EOL"}
    assert len([c for c in chosen if c.category == "EDIT"]) == 1
    with pytest.raises(ValueError, match="EDIT-01"):
        select_clauses(["EDIT-1"])


def test_the_breaker_trips_on_the_same_error_with_n_a_checks_between_and_not_past_a_pass(
    tmp_path: Path,
) -> None:
    """Workers interleave their checks in the stream: n/a ones (decided without a call) between
    25 same errors neither break nor extend the row; a pass breaks it."""
    from runner_events import stream, test_event, write_stream

    def followed(outcomes: list[str]) -> EventFollower:
        tests = [test_event(f"t{i}", "EDIT-01", outcome,
                            evidence="ImplementationFailure: it died" if outcome == "error"
                            else "n/a: no edit_file")
                 for i, outcome in enumerate(outcomes)]
        follower = EventFollower(write_stream(tmp_path / "events.jsonl", stream(tests)),
                                 lambda _: None)
        follower.poll()
        return follower

    interleaved = ["error", "n/a", "n/a"] * (child.BREAKER_SAME_ERRORS - 1) + ["error"]
    assert followed(interleaved).broken == (f"{child.BREAKER_SAME_ERRORS} checks in a row ended "
                                            "in the same error: ImplementationFailure: it died")
    assert followed(["n/a"] * 3 + interleaved[:-1]).broken is None  # one short
    broken_by_a_pass = [*interleaved[:30], "pass", *interleaved[30:]]
    assert followed(broken_by_a_pass).broken is None
