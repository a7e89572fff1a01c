"""`init --from` shares one server per worker (`reuse = "worker"`) only where starting one costs
and the session features were settled by probes (agentconf/init_from/sharing.py), and a kept
server reaches the verdict a fresh one per check reaches, check by check (with session state:
tests/runner/test_stdio_parity.py and tests/independent/test_node_conformance.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from draft_programs import draft_toy as _draft

from agentconf.init_from.sharing import START_WORTH_SHARING_S, decide

OFF = {"read_before_edit": (False, "an edit of a file never read: ok"),
       "stale_read": (False, "no read_before_edit, so no stale reads")}


def test_a_slow_server_with_no_session_state_is_drafted_to_share_one_per_worker(
    tmp_path: Path,
) -> None:
    profile, text = _draft(tmp_path, "slow-start", "run-command")
    assert profile["implementation"].get("reuse") == "worker", text
    assert "no session state seen" in text and "took 0." in text, text
    # A profile with reuse must say the session features are off: the probes said so.
    assert profile["capabilities"]["read_before_edit"] is False, text
    assert profile["capabilities"]["stale_read"] is False, text


def test_a_read_guard_shares_a_server_that_a_read_or_a_write_retires(tmp_path: Path) -> None:
    profile, text = _draft(tmp_path, "slow-start", "read-guard")
    assert profile["implementation"].get("reuse") == "worker", text
    assert "it keeps session state (read_before_edit and stale_read)" in text, text
    retired = "a check that reads, writes, runs a command or reveals tools retires the server"
    assert retired in text, text
    assert profile["capabilities"].get("read_before_edit", True) is True, text


def test_a_shell_that_keeps_a_cd_and_an_export_shares_a_server_that_every_command_retires(
    tmp_path: Path,
) -> None:
    profile, text = _draft(tmp_path, "slow-start", "run-command", "session-shell")
    assert profile["implementation"].get("reuse") == "worker-fresh-shell", text
    assert "its shell keeps a cd and an export between calls, so a check that runs a command " \
        "retires the server: one server per worker otherwise" in text, text


def test_a_session_no_probe_could_settle_shares_a_server_that_every_read_retires(
    tmp_path: Path,
) -> None:
    profile, text = _draft(tmp_path, "slow-start", "edits-fail")
    assert profile["implementation"].get("reuse") == "worker-stateful", text
    assert "whether it keeps session state (read_before_edit and stale_read) could not be " \
        "probed, so it is taken to keep it" in text, text
    # Off for judging (a guess never fails a check), on for sharing.
    assert profile["capabilities"]["read_before_edit"] is False, text


def test_a_read_guard_outside_the_root_alone_shares_a_server_that_every_read_retires(
    tmp_path: Path,
) -> None:
    """No guard inside the root, one outside it (Claude Code's Edit): no feature the contract
    judges there, but session state a kept server would carry to the next check."""
    profile, text = _draft(tmp_path, "slow-start", "outside-guard")
    assert profile["implementation"].get("reuse") == "worker-stateful", text
    assert "it keeps session state (an edit of a file outside the root failed before a read " \
        "(failed: 'unread: ../outside/" in text, text
    assert profile["capabilities"]["read_before_edit"] is False, text  # judged in the root
    # Without the guard outside, the same server shares as one with no state at all.
    (tmp_path / "plain").mkdir()
    plain, plain_text = _draft(tmp_path / "plain", "slow-start")
    assert plain["implementation"].get("reuse") == "worker", plain_text


def test_the_decision_from_what_was_measured_and_probed() -> None:
    slow = [START_WORTH_SHARING_S + 0.2, START_WORTH_SHARING_S + 0.1]
    assert decide(slow, OFF, None).share
    lower = f"took {START_WORTH_SHARING_S + 0.1:.2f} s, the lower of 2"
    assert lower in decide(slow, OFF, None).why
    cheap = decide([START_WORTH_SHARING_S / 2, 1.0], OFF, None)
    assert not cheap.share and "cheap enough" in cheap.why
    assert decide(slow, OFF, None).mode == "worker"
    # Off because no probe could settle it is not off: taken to keep a session.
    unsettled = {**OFF, "stale_read": (False, "TODO: not probed (no read_file); off until ...")}
    for capabilities in (unsettled, {}):
        assert decide(slow, capabilities, None).mode == "worker-stateful"
    assert "whether it keeps session state (stale_read) could not be probed" in \
        decide(slow, unsettled, None).why
    # Probed on: shared, the kit retiring the server after a check that shapes its session.
    guarded = {**OFF, "read_before_edit": (True, "an edit of a file never read: NOT_READ")}
    assert decide(slow, guarded, None).share
    assert "(read_before_edit)" in decide(slow, guarded, None).why
    both = decide(slow, guarded, "a cd")  # a read retires it (the features on) and so
    assert both.mode == "worker-fresh-shell"  # does a command (the shell)
    assert "so a check that reads, writes or reveals tools retires the server too" in both.why
    for shell in ("unknown", "a cd"):  # a command retires it: no check meets that shell
        assert decide(slow, OFF, shell).share
        assert decide(slow, OFF, shell).mode == "worker-fresh-shell"
    assert decide(slow, unsettled, "a cd").mode == "worker-stateful"  # retires on both
    assert not decide([START_WORTH_SHARING_S / 2] * 2, unsettled, "a cd").share
    outside = decide(slow, OFF, None, "an edit outside failed before a read")
    assert outside.mode == "worker-stateful" and "an edit outside failed" in outside.why
    failed = decide([slow[0], None], OFF, None)
    assert not failed.share and "a second start failed" in failed.why


def _outcomes(profile: Path, report: Path, clauses: str) -> tuple[dict[str, str], int]:
    """The outcome of every check, and how many servers the checks started."""
    subprocess.run([sys.executable, "-m", "agentconf", "run", "--impl", str(profile), "--clauses",
                    clauses, "-n", "2", "--report", str(report)], capture_output=True, text=True,
                   timeout=900, check=False, stdin=subprocess.DEVNULL, cwd=profile.parent)
    events = (report / "events.jsonl").read_text("utf-8").splitlines()
    starts = json.loads((report / "conformance.json").read_text("utf-8"))["run"]["server_starts"]
    return ({e["nodeid"]: e["outcome"] for e in map(json.loads, events) if e["event"] == "test"},
            starts["count"])


@pytest.mark.parametrize(("flags", "reuse", "clauses"), [
    pytest.param(("run-command",), "worker", "EDIT,SHELL", marks=pytest.mark.thorough),
    # A shell that keeps a cd: every command retires the server. The clauses where a moved
    # shell would show (SHELL-06: commands run in the root), not the ones that wait on timeouts
    # and kills; the edits are the first case's.
    (("run-command", "session-shell", "list"), "worker-fresh-shell",
     "SHELL-01,SHELL-02,SHELL-03,SHELL-05,SHELL-06,LIST"),
])
def test_a_kept_server_reaches_the_verdict_of_a_fresh_one_on_every_check(
    tmp_path: Path, flags: tuple[str, ...], reuse: str, clauses: str,
) -> None:
    """The sharing rules' verdict equality: the drafted profile run as drafted (one server per
    worker) and with `reuse` taken out (one per check), on the categories where a session could
    carry something from one check to the next (edits after reads, the shell)."""
    _, text = _draft(tmp_path, "slow-start", *flags)
    # The same server without its slow start: the rule, not the sleep, is under test.
    kept = text.replace(" slow-start", "")
    shared_starts, alone_starts = _same_verdicts_kept_and_fresh(tmp_path, kept, reuse, clauses)
    # Shared: fewer starts than checks that opened a session (the listing checks share one).
    assert shared_starts < alone_starts, (shared_starts, alone_starts)


def _same_verdicts_kept_and_fresh(tmp_path: Path, kept: str, reuse: str, clauses: str
                                  ) -> tuple[int, int]:
    """`kept` run as drafted and with its `reuse` line taken out: the same outcome on every
    check. How many starts each needed."""
    fresh = kept.replace(f'reuse = "{reuse}"\n', "")
    assert kept != fresh
    (tmp_path / "kept.toml").write_text(kept, "utf-8")
    (tmp_path / "fresh.toml").write_text(fresh, "utf-8")
    shared, shared_starts = _outcomes(tmp_path / "kept.toml", tmp_path / "kept", clauses)
    alone, alone_starts = _outcomes(tmp_path / "fresh.toml", tmp_path / "fresh", clauses)
    assert len(shared) > 50 and set(shared) == set(alone)
    assert sum(outcome == "pass" for outcome in shared.values()) > 20
    differing = {n: (o, alone[n]) for n, o in shared.items() if alone[n] != o}
    assert not differing, differing
    return shared_starts, alone_starts


# An in-process tool system whose factory takes a while to build, as an agent framework's toolkit
# does (tests/drafting/slow_build.py): the reference's tools, so every verdict is known.
SLOW_BUILD = "python:slow_build:create"


def test_a_slow_in_process_factory_builds_one_object_per_worker_with_the_verdicts_of_one_per_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sharing rule holds for an object as for a server: drafted to keep one per worker
    (its build measured like a start), and the same outcome on every check as one built per
    check, on edits after reads (the read guard is session state) and on the shell."""
    here = str(Path(__file__).resolve().parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get(
        "PYTHONPATH")])))
    drafted = subprocess.run([sys.executable, "-m", "agentconf", "init", "--from", SLOW_BUILD,
                              str(tmp_path)], capture_output=True, text=True, timeout=300,
                             check=False, stdin=subprocess.DEVNULL)
    kept = (tmp_path / "agentconf.toml").read_text("utf-8")
    assert 'reuse = "worker"' in kept, drafted.stderr + kept
    assert "it keeps session state (read_before_edit and stale_read)" in kept, kept
    shared_builds, alone_builds = _same_verdicts_kept_and_fresh(
        tmp_path, kept, "worker", "EDIT,SHELL-01,SHELL-06")
    assert shared_builds < alone_builds / 2, (shared_builds, alone_builds)


def test_a_server_that_fails_once_its_sandbox_is_refilled_is_not_shared(tmp_path: Path) -> None:
    """openhands-sdk's editor makes its history folder in TMPDIR when it starts: kept across
    checks (whose sandboxes are emptied and built again in place), every edit after the first
    check failed, and 98 checks' verdicts differed from a fresh object's. The draft tries a kept
    server's calls again after such a refill before it shares one."""
    profile, text = _draft(tmp_path, "slow-start", "tmp-history")
    assert profile["implementation"].get("reuse") is None, text
    assert "kept while its sandbox was emptied and built again in place" in text, text
    assert "edit_file calls" in text, text
