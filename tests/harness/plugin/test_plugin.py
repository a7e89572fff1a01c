"""The pytest plugin end to end, in a child pytest: outcomes, n/a, the event stream, xdist,
marker checks, clause filtering and the hypothesis profiles."""

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["pytester"]

TOYS = Path(__file__).parents[1] / "harness_toys.py"

CHECKS = '''
import pytest
from hypothesis import given, strategies as st

@pytest.mark.clause("RESULT-01")
def test_passes(ws, client):
    result = client.call("write_file", path="a.txt", content="x")
    assert result.success, result.evidence()
    assert ws.read_bytes("a.txt") == b"x"

@pytest.mark.clause("CONFINE-05")
def test_fails_on_a_wrong_code(client):
    result = client.call("read_file", path="missing.txt")
    assert result.error == "OUTSIDE_ROOT", result.evidence()

@pytest.mark.clause("CONFINE-05")
def test_escape_is_a_failure(ws, client):
    client.call("write_file", path="../escape.txt", content="x")

@pytest.mark.clause("GREP-01")
def test_grep_is_not_applicable(client):
    client.call("grep", pattern="x")

@pytest.mark.clause("RESULT-02")
def test_our_own_bug_is_a_harness_error(client):
    {}["missing"]

@pytest.mark.clause("RESULT-03")
@given(st.integers())
def test_hypothesis_failure_has_a_reproduce_blob(client, number):
    assert number < 10
'''


@pytest.fixture
def child(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    shutil.copy(TOYS, pytester.path / "harness_toys.py")
    monkeypatch.setenv("PYTHONPATH", str(pytester.path))
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    return pytester


def events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def outcomes_by_test(records: list[dict[str, Any]]) -> dict[str, str]:
    return {r["nodeid"].split("::")[-1]: r["outcome"] for r in records if r["event"] == "test"}


def run_checks(child: pytest.Pytester, impl: str, *extra: str) -> list[dict[str, Any]]:
    child.makepyfile(test_checks=CHECKS)
    stream = child.path / "events.jsonl"
    child.runpytest_subprocess("--agentconf-impl", impl, "--agentconf-events", str(stream),
                               "-p", "no:cacheprovider", *extra, timeout=240)
    return events(stream)


EXPECTED = {
    "test_passes": "pass",
    "test_fails_on_a_wrong_code": "fail",
    "test_escape_is_a_failure": "pass",  # the toy confines: nothing escapes
    "test_grep_is_not_applicable": "n/a",
    "test_our_own_bug_is_a_harness_error": "harness-error",
    "test_hypothesis_failure_has_a_reproduce_blob": "fail",
}


def test_each_outcome_and_the_event_stream(child) -> None:
    records = run_checks(child, "python:harness_toys:create")
    start, end = records[0], records[-1]
    assert start["event"] == "run_start" and end["event"] == "run_end"
    assert start["planned"] == 6 and end["executed"] == 6
    assert start["implementation"]["spec"] == "python:harness_toys:create"
    assert start["hypothesis_profile"] == "ci" and start["contract_version"]
    assert outcomes_by_test(records) == EXPECTED
    tests = {r["nodeid"].split("::")[-1]: r for r in records if r["event"] == "test"}
    assert tests["test_fails_on_a_wrong_code"]["clauses"] == ["CONFINE-05"]
    assert "request: read_file" in tests["test_fails_on_a_wrong_code"]["evidence"]
    assert tests["test_grep_is_not_applicable"]["evidence"].startswith("n/a: ")
    assert "grep" in tests["test_grep_is_not_applicable"]["evidence"]
    assert "KeyError" in tests["test_our_own_bug_is_a_harness_error"]["evidence"]
    assert tests["test_passes"]["reproduce"] == (
        "agentconf replay --impl python:harness_toys:create test_checks.py::test_passes")
    hypothesis_test = tests["test_hypothesis_failure_has_a_reproduce_blob"]
    assert "@reproduce_failure(" in hypothesis_test["reproduce"]


def test_an_escape_fails_the_test_that_caused_it(child) -> None:
    records = run_checks(child, "python:harness_toys:create_leaky")
    tests = {r["nodeid"].split("::")[-1]: r for r in records if r["event"] == "test"}
    assert tests["test_escape_is_a_failure"]["outcome"] == "fail"
    assert "created escape.txt" in tests["test_escape_is_a_failure"]["evidence"]


CHARGED = '''
import pytest

@pytest.mark.clause("RESULT-02")
def test_a_result_check_that_writes_outside(client):
    result = client.call("write_file", path="../escape.txt", content="x")
    assert result.success

@pytest.mark.clause("CONFINE-01")
def test_a_confinement_check_keeps_its_escape(client):
    client.call("write_file", path="../escape.txt", content="x")
'''


def test_an_escape_met_by_another_clauses_check_is_charged_to_confinement_only(child) -> None:
    child.makepyfile(test_checks=CHARGED)
    stream = child.path / "events.jsonl"
    child.runpytest_subprocess("--agentconf-impl", "python:harness_toys:create_leaky",
                               "--agentconf-events", str(stream), "-p", "no:cacheprovider")
    tests = {r["nodeid"].split("::")[-1]: r for r in events(stream) if r["event"] == "test"}
    met = tests["test_a_result_check_that_writes_outside"]
    assert (met["clauses"], met["outcome"], met["found_while"]) == (
        ["CONFINE-14"], "fail", "RESULT-02")
    assert "found while checking RESULT-02" in met["evidence"]
    own = tests["test_a_confinement_check_keeps_its_escape"]
    assert (own["clauses"], own["outcome"]) == (["CONFINE-01"], "fail")
    assert "found_while" not in own


def test_a_check_charged_to_two_clauses_is_a_clear_collection_error(child) -> None:
    child.makepyfile(test_bad='''
        import pytest
        @pytest.mark.clause("READ-01", "RESULT-02")
        def test_x():
            pass
    ''')
    result = child.runpytest_subprocess()
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*charged to 2 clauses (READ-01, RESULT-02)*"])


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_lone_surrogate_in_an_answer_is_evidence_not_a_crash(child, workers) -> None:
    if workers:
        pytest.importorskip("xdist")
    # --tb=no -rN: pytest's terminal would print the raw surrogate, which pytester cannot decode.
    records = run_checks(child, "python:harness_toys:create_surrogate", "--tb=no", "-rN", *workers)
    assert records[0]["planned"] == 6 and records[-1]["executed"] == 6
    tests = {r["nodeid"].split("::")[-1]: r for r in records if r["event"] == "test"}
    assert tests["test_fails_on_a_wrong_code"]["outcome"] == "fail"
    assert "bad \\udc80 byte" in tests["test_fails_on_a_wrong_code"]["evidence"]


def test_an_implementation_that_cannot_start_is_an_error_not_a_failure(child) -> None:
    records = run_checks(child, "python:harness_toys:create_broken")
    assert set(outcomes_by_test(records).values()) == {"error"}
    assert all("factory raised OSError" in r["evidence"] for r in records if r["event"] == "test")


def test_under_xdist_the_controller_writes_one_stream(child) -> None:
    pytest.importorskip("xdist")
    records = run_checks(child, "python:harness_toys:create", "-n", "2")
    assert [r["event"] for r in records].count("run_start") == 1
    assert records[0]["planned"] == 6 and records[-1]["executed"] == 6
    assert outcomes_by_test(records) == EXPECTED


def test_clauses_option_runs_only_tagged_tests(child) -> None:
    records = run_checks(child, "python:harness_toys:create", "--agentconf-clauses", "CONFINE")
    assert set(outcomes_by_test(records)) == {"test_fails_on_a_wrong_code",
                                              "test_escape_is_a_failure"}
    assert records[0]["planned"] == 2


def test_a_profile_switching_a_feature_off_makes_its_clauses_n_a(child) -> None:
    child.makefile(".toml", agentconf='[implementation]\nspec = "python:harness_toys:create"\n'
                   '[capabilities]\ntruncation = false\n')
    child.makepyfile(test_trunc='''
        import pytest
        @pytest.mark.clause("TRUNCATE-01")
        def test_needs_truncation(client):
            raise AssertionError("must not run")
    ''')
    result = child.runpytest_subprocess("--agentconf-profile", "agentconf.toml", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*n/a: the implementation lacks truncation*TRUNCATE-01*"])


def test_an_unknown_clause_id_is_a_clear_collection_error(child) -> None:
    child.makepyfile(test_bad='''
        import pytest
        @pytest.mark.clause("CONFINE-99")
        def test_x():
            pass
    ''')
    result = child.runpytest_subprocess()
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*unknown clause id 'CONFINE-99'*"])


def test_an_unknown_required_capability_is_a_clear_collection_error(child) -> None:
    child.makepyfile(test_bad='''
        import pytest
        @pytest.mark.requires("teleport")
        def test_x():
            pass
    ''')
    result = child.runpytest_subprocess()
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*unknown capability 'teleport'*"])


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--agentconf-impl", "python:harness_toys:nope", "*has no factory 'nope'*"),
        ("--agentconf-impl", "bogus", "*unknown implementation spec 'bogus'*"),
        ("--agentconf-profile", "absent.toml", "*cannot read profile absent.toml*"),
        ("--agentconf-clauses", "NOPE-01", "*unknown clause id or category NOPE-01*"),
    ],
)
def test_bad_options_are_one_clear_message_without_a_traceback(child, option, value, message):
    child.makepyfile(test_plain="def test_x():\n    pass\n")
    result = child.runpytest_subprocess(option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_a_plain_test_suite_is_untouched(child) -> None:
    child.makepyfile(test_plain=textwrap.dedent('''
        def test_plain(tmp_path):
            assert tmp_path.is_dir()
    '''))
    result = child.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert not list(child.path.glob("*.jsonl"))


@pytest.mark.parametrize(("environment", "examples"), [(None, 25), ("deep", 2000)])
def test_hypothesis_profiles(child, monkeypatch, environment, examples) -> None:
    if environment:
        monkeypatch.setenv("HYPOTHESIS_PROFILE", environment)
    child.makepyfile(test_profile=f'''
        from hypothesis import settings
        def test_profile():
            assert settings.default.max_examples == {examples}
            assert settings.default.database is None and settings.default.deadline is None
    ''')
    child.runpytest_subprocess("--agentconf-impl", "reference").assert_outcomes(passed=1)


def test_a_projects_own_hypothesis_profile_is_kept(child) -> None:
    child.makeconftest('''
        from hypothesis import settings
        settings.register_profile("mine", max_examples=7)
        settings.load_profile("mine")
    ''')
    child.makepyfile(test_profile='''
        from hypothesis import settings
        def test_profile():
            assert settings.default.max_examples == 7
    ''')
    child.runpytest_subprocess().assert_outcomes(passed=1)


def test_the_ci_profile_is_deterministic(child) -> None:
    child.makepyfile(test_draws='''
        from hypothesis import given, strategies as st
        def test_draws(record_property):
            seen = []
            @given(st.text())
            def inner(text):
                seen.append(text)
            inner()
            print("DRAWN", repr(seen))
    ''')
    first = child.runpytest_subprocess("-s", "--agentconf-impl", "reference").stdout.str()
    second = child.runpytest_subprocess("-s", "--agentconf-impl", "reference").stdout.str()
    drawn = [line for line in first.splitlines() if "DRAWN" in line]
    assert drawn and drawn == [line for line in second.splitlines() if "DRAWN" in line]


NOT_APPLICABLE = '''
import pytest
from hypothesis import given, strategies as st

from agentconf.harness.verdicts.errors import not_applicable


@pytest.fixture
def lacking():
    not_applicable("the fixture found no such tool")


@pytest.mark.clause("READ-01")
def test_in_the_body(client):
    not_applicable("the body found no such tool")


@pytest.mark.clause("READ-01")
def test_in_a_fixture(client, lacking):
    pass


@pytest.mark.clause("READ-01")
@given(st.integers())
def test_in_a_hypothesis_test(client, number):
    not_applicable("the example found no such tool")
'''


def test_not_applicable_is_n_a_wherever_it_is_raised(child) -> None:
    """n/a is a type (verdicts.errors.NotApplicable): a test body, a fixture and a hypothesis
    test (which would shrink any other exception) all end n/a with the reason, prefixed `n/a: `
    as the reports have always shown it."""
    child.makepyfile(test_checks=NOT_APPLICABLE)
    stream = child.path / "events.jsonl"
    child.runpytest_subprocess("--agentconf-impl", "python:harness_toys:create",
                               "--agentconf-events", str(stream), "-p", "no:cacheprovider",
                               timeout=240)
    tests = {r["nodeid"].split("::")[-1]: r for r in events(stream) if r["event"] == "test"}
    assert {name: test["evidence"] for name, test in tests.items()} == {
        "test_in_the_body": "n/a: the body found no such tool",
        "test_in_a_fixture": "n/a: the fixture found no such tool",
        "test_in_a_hypothesis_test": "n/a: the example found no such tool",
    }
    assert {test["outcome"] for test in tests.values()} == {"n/a"}
