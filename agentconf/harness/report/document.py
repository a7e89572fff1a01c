"""conformance.json: the schema-versioned record of one run, and the JSON Schema it is checked
against before it is written (agentconf/schemas/conformance.schema.json, generated from the models
below by `python -m agentconf.harness.report.generate`; a test keeps the file in sync).
"""

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import jsonschema
from pydantic import BaseModel, ConfigDict, Field

from agentconf import __version__
from agentconf.contract import CATEGORIES, CONTRACT_VERSION, Level

from .aggregate import STATUSES, ClauseResult, Status
from .events import TEST_OUTCOMES, EventLog, Outcome
from .verdict import Verdict

SCHEMA_VERSION = "1.0"
SCHEMA_NAME = "conformance.schema.json"
SCHEMA_ID = "https://agentconf.dev/schemas/conformance.schema.json"



class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class StatusCounts(_Strict):
    pass_: int = Field(alias="pass", ge=0)
    fail: int = Field(ge=0)
    xfail: int = Field(ge=0)
    xpass: int = Field(ge=0)
    n_a: int = Field(alias="n/a", ge=0)
    error: int = Field(ge=0)


class TestCounts(_Strict):
    pass_: int = Field(alias="pass", ge=0)
    fail: int = Field(ge=0)
    n_a: int = Field(alias="n/a", ge=0)
    error: int = Field(ge=0)
    harness_error: int = Field(alias="harness-error", ge=0)
    message_changed: int = Field(0, alias="message-changed", ge=0)


class Implementation(_Strict):
    spec: str
    name: str
    version: str | None = None


class ServerStarts(_Strict):
    """What starting the implementation cost the run: servers started (cmd:, mcp:), or objects
    built by an in-process factory (python:)."""

    count: int = Field(ge=0, description="Servers started, or objects built, for checks.")
    seconds: float = Field(ge=0, description="What the checks waited for them: from the start "
                                             "to the first answer, or, for a server started "
                                             "ahead of need, the part of that still to come "
                                             "when a check took it.")
    ahead: int = Field(0, ge=0, description="Of them, servers started ahead of need (a spare, "
                                            "started while earlier checks ran).")
    reuse: str | None = Field(None, description="The profile's [implementation] reuse.")
    in_process: bool = Field(False, description="The implementation is an in-process object: "
                                                "a start is a build of it by its factory.")
    by_category: dict[str, int] = Field(
        default_factory=dict,
        description="How many starts the checks of each category needed, most first.")


class RunMetadata(_Strict):
    seed: str | None = None
    hypothesis_profile: str | None = None
    platform: str | None = None
    started: str | None = None
    finished: str | None = None
    clauses_selected: list[str] | None = Field(None, description="The --clauses filter, if any.")
    server_starts: ServerStarts | None = Field(
        None, description="None when no check started a server (in process, or none ran).")


class Summary(_Strict):
    planned: int = Field(ge=0, description="Checks the suites planned to run.")
    executed: int = Field(ge=0, description="Checks that reported an outcome.")
    tests: TestCounts
    clauses: StatusCounts
    levels: dict[Level, StatusCounts]
    categories: dict[str, StatusCounts]
    unchecked: list[str] = Field(description="Clauses that no test in the suites checks.")


class TestRecord(_Strict):
    nodeid: str
    outcome: Outcome
    case: str | None = None
    duration: float = Field(0.0, ge=0)
    evidence: str | None = Field(None, description=(
        "Why the check did not pass; for a pass, what it did not judge (\"judged in part: ...\"),"
        " else null."))
    reproduce: str | None = None


class ClauseRecord(_Strict):
    id: str = Field(pattern=r"^[A-Z]+-\d{2}$")
    level: Level
    category: str
    requirement: str
    status: Status
    tests: list[TestRecord]
    evidence: str = Field(description="Why the clause did not pass; empty when it did.")
    reproduce: str = Field(description="One command that re-runs the first failing check.")
    expected_failure: dict[str, str] | None = Field(
        None, description="The expected-failures keys that applied, with their reasons."
    )


class VerdictRecord(_Strict):
    exit_code: int
    green: bool
    reasons: list[str]


class Conformance(_Strict):
    """The result of checking one implementation against the agentconf contract."""

    model_config = ConfigDict(title="agentconf conformance report")

    schema_version: Literal["1.0"]
    kit_version: str
    contract_version: str
    implementation: Implementation
    run: RunMetadata
    summary: Summary
    verdict: VerdictRecord
    clauses: list[ClauseRecord]
    harness_errors: list[TestRecord] = Field(
        description="Checks that broke inside agentconf itself: bugs of the kit, "
        "not of the implementation."
    )
    messages: list[TestRecord] = Field(
        default_factory=list,
        description="Messages that differ from their recorded snapshots, or have none (outcome "
        "message-changed, with the diff as evidence): wording, not a clause's verdict.",
    )


def conformance_json_schema() -> dict[str, Any]:
    schema = Conformance.model_json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def render_schema() -> str:
    return json.dumps(conformance_json_schema(), indent=2, sort_keys=True) + "\n"


@cache
def published_schema() -> dict[str, Any]:
    return json.loads(files("agentconf").joinpath("schemas", SCHEMA_NAME).read_text("utf-8"))


def _counts(statuses: Iterable[str], names: Sequence[str]) -> dict[str, int]:
    counted = Counter(statuses)
    return {name: counted.get(name, 0) for name in names}


def _server_starts(log: EventLog, implementation: dict[str, Any]) -> dict[str, Any] | None:
    started = [test for test in log.tests if test.start_s is not None]
    if not started:
        return None
    categories = Counter(test.clauses[0].split("-")[0] if test.clauses else "?"
                         for test in started)
    return {"count": len(started), "seconds": round(sum(test.start_s or 0.0 for test in started),
                                                    3),
            "reuse": None if implementation.get("reuse") is None
            else str(implementation["reuse"]),
            "in_process": bool(implementation.get("in_process")),
            "ahead": sum(1 for test in started if test.start_ahead),
            "by_category": dict(categories.most_common())}


def _test_record(test: Any, with_evidence: bool) -> dict[str, Any]:
    return {
        "nodeid": test.nodeid,
        "outcome": test.outcome,
        "case": test.case,
        "duration": max(test.duration, 0.0),
        "evidence": test.evidence if with_evidence else None,
        "reproduce": test.reproduce if with_evidence else None,
    }


def _clause_record(result: ClauseResult) -> dict[str, Any]:
    clause = result.clause
    return {
        "id": clause.id,
        "level": clause.level.value,
        "category": clause.category,
        "requirement": clause.requirement,
        "status": result.status.value,
        # A pass has no evidence but what it says it did not judge ("judged in part: ...").
        "tests": [_test_record(t, t.outcome != "pass" or bool(t.evidence)) for t in result.tests],
        "evidence": result.evidence,
        "reproduce": result.reproduce,
        "expected_failure": dict(result.expected) or None,
    }


def build_document(
    results: Sequence[ClauseResult],
    log: EventLog,
    verdict: Verdict,
    spec: str,
    clauses_selected: Sequence[str] | None = None,
) -> dict[str, Any]:
    start = log.start
    implementation = start.get("implementation") or {}
    return {
        "schema_version": SCHEMA_VERSION,
        "kit_version": str(start.get("kit_version") or __version__),
        "contract_version": str(start.get("contract_version") or CONTRACT_VERSION),
        "implementation": {
            "spec": str(implementation.get("spec") or spec),
            "name": str(implementation.get("name") or spec),
            "version": implementation.get("version"),
        },
        "run": _run_record(log, implementation, clauses_selected),
        "summary": _summary(results, log),
        "verdict": {
            "exit_code": verdict.exit_code,
            "green": verdict.green,
            "reasons": list(verdict.reasons),
        },
        "clauses": [_clause_record(result) for result in results],
        "harness_errors": [
            _test_record(t, True) for t in log.tests if t.outcome == "harness-error"
        ],
        "messages": [
            _test_record(t, True) for t in log.tests if t.outcome == "message-changed"
        ],
    }


def _run_record(log: EventLog, implementation: dict[str, Any],
                clauses_selected: Sequence[str] | None) -> dict[str, Any]:
    """How the run was made: its seed, platform, times, selection and server starts."""
    start, end = log.start, log.end or {}
    return {
        "seed": None if start.get("seed") is None else str(start["seed"]),
        "hypothesis_profile": start.get("hypothesis_profile"),
        "platform": start.get("platform"),
        "started": start.get("started"),
        "finished": end.get("finished"),
        "clauses_selected": list(clauses_selected) if clauses_selected else None,
        "server_starts": _server_starts(log, implementation),
    }


def _summary(results: Sequence[ClauseResult], log: EventLog) -> dict[str, Any]:
    """The counts: tests by outcome, clauses by status, by level and by category."""
    names = [s.value for s in STATUSES]
    return {
        "planned": log.planned,
        "executed": log.executed,
        "tests": _counts((t.outcome for t in log.tests), TEST_OUTCOMES),
        "clauses": _counts([r.status.value for r in results], names),
        "levels": {
            level.value: _counts(
                (r.status.value for r in results if r.clause.level is level), names
            )
            for level in Level
        },
        "categories": {
            category: _counts(
                (r.status.value for r in results if r.clause.category == category), names
            )
            for category in CATEGORIES
            if any(r.clause.category == category for r in results)
        },
        "unchecked": [r.clause.id for r in results if not r.tests],
    }


def validate_document(document: dict[str, Any]) -> None:
    """Raises `jsonschema.ValidationError` when `document` breaks the published schema."""
    jsonschema.validate(document, published_schema(), cls=jsonschema.Draft202012Validator)


def write_schema(path: Path | None = None) -> Path:
    target = path or Path(str(files("agentconf").joinpath("schemas", SCHEMA_NAME)))
    target.write_text(render_schema(), encoding="utf-8")
    return target

