"""The contract data is coherent: ids, levels, capabilities, codes, and published schemas."""

import re

import jsonschema
import pytest

from agentconf.contract import (
    CAPABILITIES,
    CATEGORIES,
    CHANGELOG,
    CLAUSES,
    CONTRACT_VERSION,
    ERROR_CODES,
    Envelope,
    Level,
    envelope_json_schema,
    protocol_json_schema,
)
from agentconf.contract.publish import SCHEMA_DIR, published_schemas
from agentconf.contract.sources import SOURCES


def test_every_clause_id_has_the_shape_category_dash_two_digits() -> None:
    for clause_id, clause in CLAUSES.items():
        assert re.fullmatch(r"[A-Z]+-\d{2}", clause_id), clause_id
        assert clause_id.startswith(clause.category + "-")


def test_every_category_has_at_least_one_must_clause() -> None:
    musts = {clause.category for clause in CLAUSES.values() if clause.level is Level.MUST}
    assert set(CATEGORIES) <= musts


def test_every_clause_and_code_traces_to_one_of_the_five_source_projects() -> None:
    assert {clause.source for clause in CLAUSES.values()} <= set(SOURCES)
    assert {code.source for code in ERROR_CODES.values()} <= set(SOURCES)


def test_clauses_require_only_known_capabilities() -> None:
    for clause in CLAUSES.values():
        assert set(clause.requires) <= set(CAPABILITIES), clause.id


def test_every_error_code_says_what_it_means_and_what_to_do_next() -> None:
    for name, code in ERROR_CODES.items():
        assert re.fullmatch(r"[A-Z][A-Z_]+", name)
        assert code.meaning.endswith(".") and code.recovery.endswith(".")


def test_published_schemas_match_the_contract_types() -> None:
    for name, text in published_schemas().items():
        assert (SCHEMA_DIR / name).read_text("utf-8") == text, (
            f"{name} is stale: run python -m agentconf.contract.publish"
        )


@pytest.mark.parametrize("schema", [envelope_json_schema(), protocol_json_schema()])
def test_published_schemas_are_valid_draft_2020_12(schema: dict) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_envelope_schema_accepts_a_failure_with_issues_and_rejects_a_missing_data() -> None:
    validator = jsonschema.Draft202012Validator(envelope_json_schema())
    failure = Envelope(
        success=False,
        data="Parameter validation failed",
        error="INVALID_ARGS",
        issues=[{"path": "$.path", "expected": "string", "received": "number 3", "message": "m"}],
    ).to_wire()
    assert not list(validator.iter_errors(failure))
    assert list(validator.iter_errors({"success": True}))


def test_the_changelog_names_the_version_and_every_retirement() -> None:
    assert CHANGELOG[0].version == CONTRACT_VERSION
    versions = [tuple(int(part) for part in entry.version.split(".")) for entry in CHANGELOG]
    assert versions == sorted(versions, reverse=True), "newest first, each version once"
    retirements = " ".join(item for entry in CHANGELOG for item in entry.retired)
    for clause in CLAUSES.values():
        if clause.retired:
            assert f"{clause.id}:" in retirements, f"{clause.id} is retired without an entry"
