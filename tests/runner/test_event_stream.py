"""Reading the plugin's event stream, including one cut short by a killed run."""

import json
from pathlib import Path

import pytest
from runner_events import stream, test_event, write_stream

from agentconf.harness.report import EventStreamError, read_events


def test_a_half_written_last_line_is_ignored(tmp_path: Path) -> None:
    path = write_stream(tmp_path / "e.jsonl", stream([test_event("a", "EDIT-01", "pass")],
                                                     planned=3, ended=False))
    with path.open("a") as f:
        f.write('{"event": "test", "nodeid": "b", "cla')
    log = read_events(path)
    assert [t.nodeid for t in log.tests] == ["a"]
    assert log.end is None and log.executed == 1 and log.planned == 3


def test_a_malformed_line_in_the_middle_is_a_harness_bug(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    lines = [json.dumps(r) for r in stream([test_event("a", "EDIT-01", "pass")])]
    lines.insert(1, "not json")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(EventStreamError, match="line 2"):
        read_events(path)


def test_a_stream_without_run_start_or_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(EventStreamError, match="no event stream"):
        read_events(tmp_path / "missing.jsonl")
    path = write_stream(tmp_path / "e.jsonl", [test_event("a", "EDIT-01", "pass")])
    with pytest.raises(EventStreamError, match="run_start"):
        read_events(path)


def test_an_unknown_outcome_is_refused(tmp_path: Path) -> None:
    path = write_stream(tmp_path / "e.jsonl", stream([test_event("a", "EDIT-01", "skipped")]))
    with pytest.raises(EventStreamError, match="skipped"):
        read_events(path)


def test_executed_comes_from_run_end_when_present(tmp_path: Path) -> None:
    records = stream([test_event("a", "EDIT-01", "pass")], planned=5)
    records[-1]["executed"] = 4
    log = read_events(write_stream(tmp_path / "e.jsonl", records))
    assert (log.planned, log.executed) == (5, 4)
