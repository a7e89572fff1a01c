"""Golden cases: load and lint the data-driven case files (`suites/<category>/cases.json`).

A case file is plain JSON (schema: `agentconf/schemas/case.schema.json`) so harnesses in other
languages can run the same cases, the way JSON-Schema-Test-Suite is shared. This module is the
Python harness's reader: `lint_directory` finds every problem a case file can have (naming the
file and the JSON pointer of the field), and `load_cases` turns a clean directory into `Case`s.
Playing a case against an implementation is `cases/play.py`'s.
"""

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from agentconf.contract import CAPABILITIES, CLAUSES, ERROR_CODES, Limits
from agentconf.contract.categories import CASES_FILE
from agentconf.harness.cases.cascades import cascade_findings
from agentconf.harness.cases.probes import last_code, probe_findings, renamed
from agentconf.harness.resources import suites_dir
from agentconf.harness.session.missing_capabilities import NEEDS

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "case.schema.json"
_LIMIT_NAME = re.compile(r"<LIMIT:([a-z_]+)>")


def default_cases_dir() -> Path:
    """The shipped cases' folder (a cases.json per category folder), checkout or wheel."""
    return suites_dir()


@cache
def case_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text("utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(case_schema())


# ------------------------------------------------------------------ the cases as data


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    description: str
    clauses: tuple[str, ...]
    level: str
    requires: tuple[str, ...]
    tree: dict[str, Any]
    calls: tuple[dict[str, Any], ...]
    expect: dict[str, Any] | None
    after: dict[str, Any] | None
    source: Path
    pointer: str
    probe: bool = False
    twin: dict[str, str] | None = None  # harness/cases/probes.py
    declares: tuple[str, ...] = ()  # harness/cases/play.py `_declared`

    @property
    def where(self) -> str:
        return f"{self.source.parent.name}/{self.source.name}#{self.pointer}"

    @property
    def all_requirements(self) -> tuple[str, ...]:
        """The case's own capabilities plus those of its clauses, without repeats."""
        names = list(self.requires)
        for clause_id in self.clauses:
            names.extend(CLAUSES[clause_id].requires)
        return tuple(dict.fromkeys(names))

    @property
    def argument_requirements(self) -> tuple[str, ...]:
        """What its calls' optional arguments need (a list_files sent a pattern: list_pattern):
        n/a where the implementation lacks it, never played with an argument its tool lacks."""
        return tuple(dict.fromkeys(
            capability for _, call in _calls_in(list(self.calls))
            if isinstance(call.get("arguments"), dict)
            for capability, (tool, arguments) in NEEDS.items()
            if call.get("tool") == tool and set(arguments) & set(call["arguments"])))

    def twin_case(self) -> "Case":
        """The case with its twin's replacements made in its tree and calls (cases/probes.py)."""
        renames = self.twin or {}
        return replace(self, id=f"{self.id} (twin)", tree=renamed(self.tree, renames),
                       calls=tuple(renamed(list(self.calls), renames)))

    @property
    def expected_code(self) -> str | None:
        """The one error code the last call expects (a probe's: lint holds it so), else None."""
        return last_code({"calls": list(self.calls), "expect": self.expect})

    @property
    def waits(self) -> bool:
        """It waits by design: a command given a timeout, or a FIFO a blocking read may wait on
        for its budget (a run spreads such cases over its workers: harness/run/order.py)."""
        timed = any(isinstance(call.get("arguments"), dict) and "timeout_ms" in call["arguments"]
                    for _, call in _calls_in(list(self.calls)))
        return timed or any(isinstance(node, dict) and node.get("fifo")
                            for node in self.tree.values())

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "id": self.id,
            "description": self.description,
            "clauses": list(self.clauses),
            "level": self.level,
            "requires": list(self.requires),
        }
        if self.tree:
            document["tree"] = self.tree
        document["calls"] = list(self.calls)
        if self.expect is not None:
            document["expect"] = self.expect
        if self.after is not None:
            document["after"] = self.after
        if self.probe:
            document["probe"] = True
        if self.twin is not None:
            document["twin"] = self.twin
        if self.declares:
            document["declares"] = list(self.declares)
        return document


@dataclass(frozen=True, slots=True)
class LintProblem:
    """One thing wrong with a case file: which file, which field (a JSON pointer), what."""

    file: Path
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.pointer or '/'}: {self.message}"


class CaseFileError(Exception):
    def __init__(self, problems: list[LintProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


def case_files(directory: Path) -> list[Path]:
    """The case files of a folder: its *.json, and the cases.json of each folder in it (the
    suites' category folders)."""
    directory = Path(directory)
    return sorted(directory.glob("*.json")) + sorted(directory.glob(f"*/{CASES_FILE}"))


def exported_name(path: Path) -> str:
    """The name a case file goes by in an export: a category folder's cases.json by its
    category's (`edit/cases.json` -> `edit.json`), any other by its own."""
    return f"{path.parent.name}.json" if path.name == CASES_FILE else path.name


def _pointer(parts: Iterator[Any] | list[Any]) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _schema_problems(path: Path, document: Any) -> list[LintProblem]:
    validator = _validator()
    problems = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        specific = _most_specific(error)
        where = _pointer(specific.absolute_path)
        problems.append(LintProblem(path, where, _short(specific.message)))
    return problems


def _most_specific(error: ValidationError) -> ValidationError:
    """oneOf failures say only "is not valid under any of the given schemas": descend to the
    deepest sub-error (the branch that got furthest), preferring a wrong value to a wrong type,
    so the message names the field that is actually wrong."""
    while error.context:
        deepest = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
        if len(deepest.absolute_path) < len(error.absolute_path):
            break
        error = deepest
    return error


def _text_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _text_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _text_in(item)


def _has_symlink(tree: dict[str, Any]) -> bool:
    return any(isinstance(entry, dict) and "symlink" in entry for entry in tree.values())


Finding = tuple[str, str]  # (JSON pointer below the case, message)


def _calls_in(steps: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every tool call of the steps, concurrent ones included, with its pointer."""
    calls = []
    for index, step in enumerate(steps):
        if "concurrently" in step:
            calls += [
                (f"/calls/{index}/concurrently/{n}", call)
                for n, call in enumerate(step["concurrently"])
            ]
        elif "disk" not in step:
            calls.append((f"/calls/{index}", step))
    return calls


def _catalogue_findings(case: dict[str, Any]) -> Iterator[Finding]:
    """Clause ids, capability names and the level must exist in the contract and agree."""
    for index, clause_id in enumerate(case["clauses"]):
        if clause_id not in CLAUSES:
            yield f"/clauses/{index}", f"unknown clause id {clause_id!r}"
        elif CLAUSES[clause_id].retired:
            retired = CLAUSES[clause_id].retired
            yield f"/clauses/{index}", f"clause {clause_id} is retired: {retired}"
    for index, name in enumerate(case["requires"]):
        if name not in CAPABILITIES:
            yield f"/requires/{index}", f"unknown capability {name!r}"
    levels = sorted({CLAUSES[c].level.value for c in case["clauses"] if c in CLAUSES})
    if levels and case["level"] not in levels:
        yield "/level", (f"level {case['level']} is not the level of any of its clauses "
                         f"({', '.join(levels)})")
    trees = [case.get("tree", {})] + [step["disk"] for step in case["calls"] if "disk" in step]
    needs = set(case["requires"]).union(*(CLAUSES[c].requires for c in case["clauses"]
                                           if c in CLAUSES))
    if any(_has_symlink(tree) for tree in trees) and "symlinks" not in needs:
        yield "/requires", "the tree has symlinks, so the case must require 'symlinks'"
    # A judged call of a tool the implementation lacks answers TOOL_NOT_FOUND: n/a, never the
    # clause's. (A step's outcome unjudged, a read before an edit, may fail: it is not required.)
    calls = [call for _, call in _calls_in(case["calls"])]
    judged = [call for call in calls if "expect" in call] + calls[-1:] * ("expect" in case)
    for tool in sorted({str(call.get("tool")) for call in judged} & (set(CAPABILITIES) - needs)):
        yield "/requires", f"a judged call names {tool}, so the case must require {tool!r}"


def _call_findings(case: dict[str, Any]) -> Iterator[Finding]:
    """A case judges something, and every expectation is one the runner will apply."""
    steps = case["calls"]
    calls = _calls_in(steps)
    if not calls:
        yield "/calls", "a case needs at least one tool call"
    for field, call in calls:
        if "/concurrently/" in field and (
            "tool" not in call or not isinstance(call["arguments"], dict)
        ):
            yield field, "a concurrent call needs a canonical `tool` and object `arguments`"
    if not ("expect" in case or "after" in case or any("expect" in call for _, call in calls)):
        yield "", "the case has no expectation: give `expect`, `after` or a call's `expect`"
    last = next((step for step in reversed(steps) if "disk" not in step), None)
    if last is not None and "expect" in case:
        if "expect" in last:
            yield (
                "/expect",
                "the last call has its own `expect`; the case-level one would be ignored",
            )
        if "concurrently" in last:
            yield "/expect", "the last step is concurrent: give each of its calls its own `expect`"
    for field, expect in [("/expect", case.get("expect"))] + [
        (f"{f}/expect", c.get("expect")) for f, c in calls
    ]:
        codes = (expect or {}).get("error")
        for code in [codes] if isinstance(codes, str) else codes or []:
            if code not in ERROR_CODES:
                yield f"{field}/error", f"unknown error code {code!r}"
        if codes and (expect or {}).get("success") is True:
            yield f"{field}/success", "an expected error code contradicts success: true"


def _limit_findings(case: dict[str, Any]) -> Iterator[Finding]:
    """`<LIMIT:name>` placeholders and `fill` entries name real limits."""
    limit_names = set(Limits.__dataclass_fields__)
    for text in _text_in(case):
        for name in _LIMIT_NAME.findall(text):
            if name not in limit_names:
                yield "", f"unknown limit placeholder <LIMIT:{name}>"
    for rel, entry in case.get("tree", {}).items():
        if (
            isinstance(entry, dict)
            and "fill" in entry
            and entry["fill"]["limit"] not in limit_names
        ):
            yield (
                f"/tree/{_pointer([rel])[1:]}/fill/limit",
                f"unknown limit {entry['fill']['limit']!r}",
            )


def _case_problems(path: Path, pointer: str, case: dict[str, Any]) -> list[LintProblem]:
    """What the schema cannot say: references into the catalogue, limits, and coherence."""
    findings = [*_catalogue_findings(case), *_call_findings(case), *probe_findings(case),
                *_limit_findings(case),
                *cascade_findings(case, _calls_in(case["calls"]))]
    return [LintProblem(path, pointer + field, message) for field, message in findings]


def lint_directory(directory: Path) -> list[LintProblem]:
    """Every problem of every case file in `directory`; empty when all are sound."""
    directory = Path(directory)
    files = case_files(directory)
    if not files:
        return [LintProblem(directory, "", f"no case files (*.json, */{CASES_FILE}) here")]
    problems: list[LintProblem] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            document = json.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            problems.append(LintProblem(path, "", f"not readable JSON: {error}"))
            continue
        schema_problems = _schema_problems(path, document)
        problems.extend(schema_problems)
        cases = document.get("cases") if isinstance(document, dict) else None
        for index, case in enumerate(cases if isinstance(cases, list) else []):
            pointer = f"/cases/{index}"
            # Cross-checks need a case of the right shape; a malformed one is reported above.
            if any(
                p.pointer == pointer or p.pointer.startswith(pointer + "/") for p in schema_problems
            ):
                continue
            if case["id"] in seen:
                problems.append(
                    LintProblem(
                        path,
                        f"{pointer}/id",
                        f"id {case['id']!r} already used at {seen[case['id']]}",
                    )
                )
            else:
                seen[case["id"]] = f"{path.name}#{pointer}"
            problems.extend(_case_problems(path, pointer, case))
    return problems


# Loaded directories, by their files' names, sizes and mtimes: two suite modules load the
# shipped cases in every pytest process, and linting them is most of that (jsonschema).
_LOADED: dict[tuple[Any, ...], list[Case]] = {}


def load_cases(directory: Path | None = None) -> list[Case]:
    """The cases of `directory` (default: the shipped ones).

    Raises CaseFileError, listing every problem, if any case is unsound."""
    directory = Path(directory) if directory is not None else default_cases_dir()
    try:
        key = (str(directory.resolve()), *((path.name, path.stat().st_mtime_ns, path.stat().st_size)
                                           for path in case_files(directory)))
    except OSError:
        key = None
    if key is not None and key in _LOADED:
        return list(_LOADED[key])
    cases = _load(directory)
    if key is not None:
        _LOADED[key] = cases
    return list(cases)


def _load(directory: Path) -> list[Case]:
    problems = lint_directory(directory)
    if problems:
        raise CaseFileError(problems)
    cases = []
    for path in case_files(directory):
        for index, raw in enumerate(json.loads(path.read_text("utf-8"))["cases"]):
            cases.append(
                Case(
                    id=raw["id"],
                    description=raw["description"],
                    clauses=tuple(raw["clauses"]),
                    level=raw["level"],
                    requires=tuple(raw["requires"]),
                    tree=raw.get("tree", {}),
                    calls=tuple(raw["calls"]),
                    expect=raw.get("expect"),
                    after=raw.get("after"),
                    source=path,
                    pointer=f"/cases/{index}",
                    probe=raw.get("probe", False),
                    twin=raw.get("twin"), declares=tuple(raw.get("declares", ())),
                )
            )
    return cases
