"""The conformance matrix: many implementations' conformance.json, clause x implementation.

`matrix_document` makes matrix.json (agentconf/schemas/matrix.schema.json), the data behind the
site; matrix_html.py makes its index.html from that document alone, so the page shows nothing the
data does not hold. Each implementation's own report.html is its page.

A cell is the run's clause status. An expected failure (xfail) is a departure that was triaged
and kept in the peer's baseline: shown as a failure, marked "known". A race in the baseline (a
reason starting "race:", reproduced outside the kit) is shown so whether or not this run's rounds
caught it, its evidence saying which: a cell that followed the luck of one run's rounds would
change from one regeneration to the next while the implementation did not.

A failure whose evidence is the disk oracle's ("escape after ...": the disk outside the root
changed, or a canary's secret came back) is marked an escape: those are the verdicts a user
must not miss.

A peer that could not be installed or run is a row of its own with the reason (as Bowtie keeps a
harness that errors), and `history` holds every kept run of every version of each package: the
same clause across the versions of one server.
"""

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import jsonschema
from pydantic import BaseModel, ConfigDict, Field

from agentconf import __version__
from agentconf.contract import CLAUSES, CONTRACT_VERSION, Level

from .aggregate import is_race
from .document import StatusCounts
from .summary_tables import must_score

SCHEMA_VERSION: Literal["1"] = "1"
SCHEMA_NAME = "matrix.schema.json"
SCHEMA_ID = "https://agentconf.dev/schemas/matrix.schema.json"
ESCAPE_MARK = "escape after "
# What a cell shows: a triaged departure (xfail) is a failure, marked known.
SHOWN = {"xfail": "fail", "xpass": "pass"}
CellStatus = Literal["pass", "fail", "error", "n/a"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Cell(_Strict):
    status: CellStatus
    known: str | None = Field(default=None,
                              description="A triaged departure: its baseline's reason.")
    unexpected_pass: bool = Field(default=False, description="In the baseline, yet it passed.")
    race: bool = Field(default=False, description="A race in the baseline, reproduced outside "
                       "the kit: a failure whether or not this run's rounds caught it.")
    escape: bool = Field(default=False, description="The disk oracle saw the disk outside the root "
                         "change, or a secret outside it come back.")
    evidence: str | None = Field(default=None, description="The first line of why it did not pass.")
    reproduce: str | None = None


class MustScore(_Strict):
    passing: int = Field(ge=0)
    applicable: int = Field(ge=0)


class RunTimes(_Strict):
    started: str | None = None
    finished: str | None = None


class PeerFields(_Strict):
    """What the peers folder says of an implementation (a shard's peer.json holds it too)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    title: str
    package: str
    version: str
    registry: Literal["npm", "pypi", "local"]
    homepage: str | None = None
    notes: str | None = None
    page: str = Field(description="Its report, relative to index.html.")
    profile: str = Field(description="The profile the run used, relative to the repository.")
    command: str = Field(description="The command that made the run.")


class CouldNotRun(PeerFields):
    stage: Literal["install", "run", "judge"] = Field(description=(
        "Where it stopped: its install, its run, or before both: 'judge' is a peer the kit "
        "cannot judge fairly yet (peer.toml's cannot_judge), listed with the reason."))
    reason: str = Field(min_length=1, description="Why, in one line.")


class MatrixImplementation(PeerFields):
    kit_version: str
    contract_version: str
    run: RunTimes
    planned: int = Field(ge=0)
    executed: int = Field(ge=0)
    clause_counts: StatusCounts
    must: MustScore
    escapes: list[str]
    verdict_green: bool = Field(description="Green against its own baseline.")
    cells: dict[str, Cell]


class VersionRun(_Strict):
    """One kept run of one version: `<peer>/history/<version>.json` on the site."""

    peer: str
    version: str
    kit_version: str
    contract_version: str
    started: str | None = None
    escapes: list[str]
    verdicts: dict[str, CellStatus]
    kit_changes: dict[str, CellStatus] = Field(default_factory=dict, description=(
        "Clause -> its verdict before the kit changed: this package version's run under an "
        "earlier kit or contract version, where it differs from this run's. The package did not "
        "change, so the kit moved these cells."))
    judged_before_by: str | None = Field(default=None, description=(
        "The kit and contract versions of that earlier run (\"kit 0.1.0, contract 0.3.0\")."))


class PackageHistory(_Strict):
    package: str
    title: str
    versions: list[VersionRun] = Field(description="Oldest version first.")


class MatrixClause(_Strict):
    id: str
    category: str
    level: Level
    requirement: str


class Matrix(_Strict):
    schema_version: Literal["1"]
    kit_version: str
    contract_version: str
    generated: str
    clauses: list[MatrixClause]
    implementations: list[MatrixImplementation]
    could_not_run: list[CouldNotRun] = Field(default_factory=list, description=(
        "Peers whose install or run failed: no verdict, the reason instead."))
    history: list[PackageHistory] = Field(default_factory=list, description=(
        "Per package, every kept run of each of its versions."))


def matrix_json_schema() -> dict[str, Any]:
    schema = Matrix.model_json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def render_matrix_schema() -> str:
    return json.dumps(matrix_json_schema(), indent=2, sort_keys=True) + "\n"


def write_matrix_schema() -> Path:
    path = Path(__file__).resolve().parents[2] / "schemas" / SCHEMA_NAME
    path.write_text(render_matrix_schema(), encoding="utf-8")
    return path


def escaped(clause: dict[str, Any]) -> bool:
    if clause["status"] not in ("fail", "xfail"):
        return False
    # Only the checks that failed it: a check n/a because an escape stopped it, charged to
    # CONFINE-14, quotes the escape too, and is no escape of this clause.
    return any(ESCAPE_MARK in (t.get("evidence") or "") for t in clause["tests"]
               if t["outcome"] == "fail")


def _cell(clause: dict[str, Any]) -> Cell:
    status = clause["status"]
    reasons = list((clause.get("expected_failure") or {}).values())
    race = bool(reasons) and all(is_race(reason) for reason in reasons)
    if race and status == "pass":
        return Cell(status="fail", known="; ".join(reasons), race=True,
                    evidence="a race this run's rounds did not catch (the baseline's repro/ "
                             "shows it outside the kit)")
    cell = Cell(status=SHOWN.get(status, status), escape=escaped(clause),
                unexpected_pass=status == "xpass", race=race and status == "xfail")
    if status in ("xfail", "xpass"):
        cell.known = "; ".join(reasons) or "expected"
    if cell.status in ("fail", "error"):
        lines = (clause.get("evidence") or "").strip().splitlines()
        cell.evidence = lines[0][:300] if lines else ""
        cell.reproduce = clause.get("reproduce") or None
    return cell


def implementation_entry(peer: PeerFields, document: dict[str, Any]) -> MatrixImplementation:
    """One implementation: what the peers folder says of it, and its run's verdicts."""
    passing, applicable = must_score(document)
    cells = {c["id"]: _cell(c) for c in document["clauses"]}
    summary = document["summary"]
    return MatrixImplementation(
        **peer.model_dump(),
        kit_version=document["kit_version"],
        contract_version=document["contract_version"],
        run=RunTimes(started=document["run"]["started"], finished=document["run"]["finished"]),
        planned=summary["planned"],
        executed=summary["executed"],
        clause_counts=StatusCounts.model_validate(summary["clauses"]),
        must=MustScore(passing=passing, applicable=applicable),
        escapes=sorted(cid for cid, cell in cells.items() if cell.escape),
        verdict_green=document["verdict"]["green"],
        cells=cells,
    )


def version_run(entry: MatrixImplementation) -> VersionRun:
    """What history keeps of a run: each clause's verdict, and its escapes."""
    return VersionRun(peer=entry.id, version=entry.version, kit_version=entry.kit_version,
                      contract_version=entry.contract_version, started=entry.run.started,
                      escapes=entry.escapes,
                      verdicts={cid: cell.status for cid, cell in entry.cells.items()})


def matrix_document(entries: Sequence[MatrixImplementation],
                    could_not_run: Sequence[CouldNotRun] = (),
                    history: Sequence[PackageHistory] = ()) -> dict[str, Any]:
    ids = {cid for entry in entries for cid in entry.cells}
    clauses = [MatrixClause(id=c.id, category=c.category, level=c.level,
                            requirement=c.requirement)
               for cid, c in CLAUSES.items() if cid in ids]
    matrix = Matrix(schema_version=SCHEMA_VERSION, kit_version=__version__,
                    contract_version=CONTRACT_VERSION,
                    generated=datetime.now(UTC).replace(microsecond=0).isoformat(),
                    clauses=clauses, implementations=list(entries),
                    could_not_run=list(could_not_run), history=list(history))
    document = matrix.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    jsonschema.validate(document, matrix_json_schema())
    return document


def verdicts(document: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(implementation id, clause id) -> status: what two regenerations must agree on."""
    return {(entry["id"], cid): cell["status"]
            for entry in document["implementations"] for cid, cell in entry["cells"].items()}
