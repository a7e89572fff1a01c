"""docs/contract.md is generated from the catalogue and kept in sync with it."""

from pathlib import Path

from agentconf.contract import CLAUSES, ERROR_CODES
from agentconf.harness.report.contract_doc import render_contract

DOC = Path(__file__).resolve().parents[2] / "docs" / "contract.md"


def test_the_committed_contract_page_matches_the_catalogue() -> None:
    assert DOC.read_text("utf-8") == render_contract(), (
        "docs/contract.md is stale: run python -m agentconf.harness.report.generate"
    )


def test_every_clause_and_error_code_has_its_place_on_the_page() -> None:
    page = render_contract()
    for clause in CLAUSES.values():
        assert f"### {clause.id} · {clause.level.value}" in page
        assert clause.requirement in page
    for code in ERROR_CODES:
        assert f"| `{code}` |" in page
