"""Regenerates the files derived from the contract and the report models:
agentconf/schemas/conformance.schema.json, matrix.schema.json and, in a checkout, docs/contract.md.

    python -m agentconf.harness.report.generate
"""

from pathlib import Path

from .contract_doc import render_contract
from .document import write_schema
from .matrix import write_matrix_schema

CONTRACT_DOC = Path(__file__).resolve().parents[3] / "docs" / "contract.md"


def main() -> None:
    print(write_schema())
    print(write_matrix_schema())
    if CONTRACT_DOC.parent.is_dir():
        CONTRACT_DOC.write_text(render_contract(), encoding="utf-8")
        print(CONTRACT_DOC)


if __name__ == "__main__":
    main()
