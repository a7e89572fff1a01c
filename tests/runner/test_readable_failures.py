"""Failures you can read in ten seconds: `agentconf replay` leads with the calls (request, answer,
the disk's change), then what was expected, then the clause, with none of the kit's frames; the
console's FAIL line keeps the useful part; control bytes from an implementation are escaped in
every report."""

from pathlib import Path

from cli import agentconf
from runner_events import as_log, stream, test_event

from agentconf.contract import CLAUSES
from agentconf.harness.report import (
    Expectations,
    aggregate,
    build_document,
    verdict_of,
    write_reports,
)
from agentconf.harness.report.console import reason_line, render_summary
from agentconf.harness.report.summary import render_summary as render_step_summary

GALLERY = "python:agentconf.selfcheck.gallery:"  # the mutants, by name
EOL_CHECK = "suites/test_cases.py::test_case[eol-crlf-single-line-edit]"
ESCAPE_CHECK = ("suites/confine/test_confine.py::"
                "test_edit_file_never_changes_a_file_outside[cold-relative]")


def test_replay_leads_with_the_calls_the_disk_and_the_expectation_then_the_clause(
    tmp_path: Path,
) -> None:
    done = agentconf("replay", "--impl", GALLERY + "LfOnlyWrite", EOL_CHECK,
                     cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert out.startswith("agentconf replay: FAIL EOL-01\n"), out[:300]
    request = out.index('2. edit_file {"path": "f.txt", "old_text": "beta", "new_text": "BETA"}')
    disk = out.index(r"changed f.txt: b'alpha\r\nbeta\r\ngamma\r\n' -> b'alpha\nBETA\ngamma\n'")
    expected = out.index(r"should hold b'alpha\r\nBETA\r\ngamma\r\n', holds")
    clause = out.index("The clause: EOL-01 (MUST)")
    assert request < disk < expected < clause
    assert len(out.splitlines()) < 40, out
    assert "agentconf/harness" not in out and "def test_" not in out
    assert "1 failed" in (tmp_path / "reports/replay/pytest.log").read_text("utf-8")
    kept = out.split("its sandbox is kept in ", 1)[1].split()[0]  # said, not found by hand
    assert Path(kept).is_dir(), out


def test_one_escape_replays_as_one_failure_with_the_change_outside(tmp_path: Path) -> None:
    done = agentconf("replay", "--impl", GALLERY + "EditUnconfined", ESCAPE_CHECK,
                     "--tb", "short", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.count("agentconf replay: FAIL") == 1
    assert "changed ../outside/secret.txt" in done.stdout
    summary = done.stdout.strip().splitlines()[-1]
    assert "1 failed" in summary and "error" not in summary, summary
    assert "harness/session/client.py" not in done.stdout  # --tb short, the kit's frames hidden
    full = agentconf("replay", "--impl", GALLERY + "EditUnconfined", ESCAPE_CHECK,
                     "--tb", "long", "--fulltrace", cwd=tmp_path)
    assert "harness/session/client.py" in full.stdout


def test_a_console_reason_keeps_the_finding_not_the_prefix() -> None:
    found = ("suites/test_edit.py::test_x[a]\nfound while checking EDIT-01 "
             "(suites/test_edit.py::test_edit_refuses_a_very_long_parametrised_name[case-7]), "
             "charged to CONFINE-14: escape after edit_file: the disk outside the root changed: "
             "rewrote outside/secret.txt (57 -> 57 bytes)")
    line = reason_line(found, 160)
    assert line.startswith("escape after edit_file: the disk outside the root changed: rewrote "
                           "outside/secret.txt"), line
    assert line.endswith("(found while checking EDIT-01)")
    case = ("suites/test_cases.py::test_case[eol-x]\ncase eol-x (eol.json#/cases/9): In a mixed "
            "file, lines outside the span keep their own endings.\n  - disk: f.txt should hold "
            "b'a\\r\\n', holds b'a\\n'")
    assert reason_line(case, 160).startswith("disk: f.txt should hold b'a\\r\\n', holds b'a\\n'")
    long = "word " * 60
    assert reason_line(long, 40).endswith(" …") and len(reason_line(long, 40)) <= 40


def test_control_bytes_are_escaped_in_every_report(tmp_path: Path) -> None:
    evidence = "response: data held a NUL \x00 and an ESC \x1b[31m here"
    records = stream([test_event("suites/test_read.py::x", "READ-01", "fail",
                                 evidence=f"suites/test_read.py::x\n{evidence}")])
    log = as_log(records)
    results = aggregate([CLAUSES["READ-01"]], log.tests, Expectations())
    document = build_document(results, log, verdict_of(results, log), "python:fake:create")
    written = write_reports(document, tmp_path)
    texts = {path.name: path.read_text("utf-8") for path in written}
    texts["console"] = render_summary(document, str(tmp_path))
    texts["summary.md"] = render_step_summary(document)
    for name in ("report.md", "report.html", "junit.xml", "console", "summary.md"):
        assert "\x00" not in texts[name] and "\x1b" not in texts[name], name
        assert "\\x00" in texts[name], name
    assert "\\u0000" in texts["conformance.json"]  # JSON's own escape, the data unchanged
