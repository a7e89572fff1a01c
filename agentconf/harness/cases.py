"""Golden cases: load, lint and run the data-driven case files under `fixtures/cases/`.

A case file is plain JSON (schema: `agentconf/schemas/case.schema.json`) so harnesses in other
languages can run the same cases, the way JSON-Schema-Test-Suite is shared. This module is the
Python harness's reader: `lint_directory` finds every problem a case file can have (naming the
file and the JSON pointer of the field), `load_cases` turns a clean directory into `Case`s, and
`run_case` builds the case's workspace under the sandbox root, makes its calls through the harness
`client` (so profile mapping applies) and judges the answers and the disk against the case.
"""

import base64
import binascii
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import jsonschema
from jsonschema.exceptions import ValidationError

from agentconf.contract import CAPABILITIES, CLAUSES, ERROR_CODES, Limits

from .resources import fixtures_dir

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "case.schema.json"
_PLACEHOLDER = re.compile(r"<(ROOT|SANDBOX|OUTSIDE|SIBLING|HOME|SECRET|LIMIT:[a-z_]+)>")
_LIMIT_NAME = re.compile(r"<LIMIT:([a-z_]+)>")


def default_cases_dir() -> Path:
    """The shipped cases, in a checkout or an installed wheel."""
    return fixtures_dir() / "cases"


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

    @property
    def where(self) -> str:
        return f"{self.source.name}#{self.pointer}"

    @property
    def all_requirements(self) -> tuple[str, ...]:
        """The case's own capabilities plus those of its clauses, without repeats."""
        names = list(self.requires)
        for clause_id in self.clauses:
            names.extend(CLAUSES[clause_id].requires)
        return tuple(dict.fromkeys(names))

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
        return document


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a case file: which file, which field (a JSON pointer), what."""

    file: Path
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.pointer or '/'}: {self.message}"


class CaseFileError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


def case_files(directory: Path) -> list[Path]:
    return sorted(Path(directory).glob("*.json"))


def _pointer(parts: Iterator[Any] | list[Any]) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _schema_problems(path: Path, document: Any) -> list[Problem]:
    validator = _validator()
    problems = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        specific = _most_specific(error)
        problems.append(Problem(path, _pointer(specific.absolute_path), _short(specific.message)))
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
            yield (
                f"/clauses/{index}",
                f"clause {clause_id} is retired: {CLAUSES[clause_id].retired}",
            )
    for index, name in enumerate(case["requires"]):
        if name not in CAPABILITIES:
            yield f"/requires/{index}", f"unknown capability {name!r}"
    levels = sorted({CLAUSES[c].level.value for c in case["clauses"] if c in CLAUSES})
    if levels and case["level"] not in levels:
        yield (
            "/level",
            f"level {case['level']} is not the level of any of its clauses ({', '.join(levels)})",
        )
    trees = [case.get("tree", {})] + [step["disk"] for step in case["calls"] if "disk" in step]
    needs = set(case["requires"]).union(
        *(CLAUSES[c].requires for c in case["clauses"] if c in CLAUSES)
    )
    if any(_has_symlink(tree) for tree in trees) and "symlinks" not in needs:
        yield "/requires", "the tree has symlinks, so the case must require 'symlinks'"


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
        if codes and expect.get("success") is True:
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


def _case_problems(path: Path, pointer: str, case: dict[str, Any]) -> list[Problem]:
    """What the schema cannot say: references into the catalogue, limits, and coherence."""
    findings = [*_catalogue_findings(case), *_call_findings(case), *_limit_findings(case)]
    return [Problem(path, pointer + field, message) for field, message in findings]


def lint_directory(directory: Path) -> list[Problem]:
    """Every problem of every case file in `directory`; empty when all are sound."""
    directory = Path(directory)
    files = case_files(directory)
    if not files:
        return [Problem(directory, "", "no case files (*.json) here")]
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            document = json.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            problems.append(Problem(path, "", f"not readable JSON: {error}"))
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
                    Problem(
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
                )
            )
    return cases


# ------------------------------------------------------------------ running a case


class CaseWorkspace(Protocol):
    """What the runner needs of the harness `ws` fixture."""

    sandbox: Path
    root: Path
    outside: Path
    sibling: Path
    home: Path
    secret: str


class CaseResult(Protocol):
    success: bool
    data: str
    error: str | None
    summary: str | None
    diff: str | None
    issues: list[dict[str, Any]] | None

    def evidence(self) -> str: ...


class CaseClient(Protocol):
    """What the runner needs of the harness `client` fixture."""

    limits: Limits

    def call(self, tool: str, **arguments: Any) -> Any: ...

    def call_raw(self, name: str, arguments: Any) -> Any: ...

    def call_concurrently(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]: ...

    def tool_name(self, canonical: str) -> str: ...


class CaseFailed(AssertionError):
    """The implementation's answers or disk did not meet the case."""


@dataclass(frozen=True, slots=True)
class Placeholders:
    values: dict[str, str]

    @classmethod
    def of(cls, ws: CaseWorkspace, limits: Limits) -> "Placeholders":
        values = {
            "ROOT": str(ws.root),
            "SANDBOX": str(ws.sandbox),
            "OUTSIDE": str(ws.outside),
            "SIBLING": str(ws.sibling),
            "HOME": str(ws.home),
            "SECRET": ws.secret,
        }
        for name in Limits.__dataclass_fields__:
            values[f"LIMIT:{name}"] = str(getattr(limits, name))
        return cls(values)

    def fill(self, value: Any) -> Any:
        if isinstance(value, str):
            return _PLACEHOLDER.sub(lambda match: self.values[match.group(1)], value)
        if isinstance(value, list):
            return [self.fill(item) for item in value]
        if isinstance(value, dict):
            return {self.fill(key): self.fill(item) for key, item in value.items()}
        return value

    def path(self, root: Path, spelled: str) -> Path:
        """A path of an expectation: relative to the root unless it starts with a placeholder."""
        filled = self.fill(spelled)
        return Path(filled) if spelled.startswith("<") else root / filled


def entry_bytes(entry: Any, limits: Limits) -> bytes | None:
    """The bytes a tree entry (or an `after.files` value) means; None for links, dirs, FIFOs."""
    if isinstance(entry, str):
        return entry.encode("utf-8")
    if "text" in entry:
        return entry["text"].encode("utf-8")
    if "base64" in entry:
        return base64.b64decode(entry["base64"], validate=True)
    if "hex" in entry:
        return binascii.unhexlify(entry["hex"])
    if "lines" in entry:
        spec = entry["lines"]
        eol = spec.get("eol", "\n")
        text = "".join(
            spec["template"].replace("{n}", str(n)) + eol for n in range(1, spec["count"] + 1)
        )
        return text.encode("utf-8")
    if "fill" in entry:
        spec = entry["fill"]
        size = int(getattr(limits, spec["limit"]) * spec["times"])
        unit = spec["text"].encode("utf-8")
        return unit * (size // len(unit) + 1) + spec.get("tail", "").encode("utf-8")
    return None


def build_tree(root: Path, tree: dict[str, Any], places: Placeholders, limits: Limits) -> None:
    """Creates `tree` under `root`. Times are set last, since creating children moves a folder's."""
    times: list[tuple[Path, float]] = []
    for rel, entry in sorted(tree.items()):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        content = entry_bytes(entry, limits)
        spec = entry if isinstance(entry, dict) else {}
        if content is not None:
            if path.is_symlink():
                path.unlink()
            path.write_bytes(content)
        elif "symlink" in spec:
            os.symlink(places.fill(spec["symlink"]), path)
        elif "dir" in spec:
            path.mkdir(exist_ok=True)
        elif "fifo" in spec:
            os.mkfifo(path)
        if "mode" in spec:
            path.chmod(int(spec["mode"], 8))
        if "mtime" in spec:
            times.append((path, spec["mtime"]))
    for path, mtime in times:
        os.utime(path, (mtime, mtime), follow_symlinks=False)


def snapshot_tree(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every path under `root` (links not followed, FIFOs not opened) -> what it is and holds."""
    found: dict[str, tuple[Any, ...]] = {}
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", stat.S_IMODE(info.st_mode))
            elif stat.S_ISREG(info.st_mode):
                found[rel] = ("file", path.read_bytes(), stat.S_IMODE(info.st_mode))
            else:
                found[rel] = ("special", stat.S_IFMT(info.st_mode))
    return found


def _call(client: CaseClient, step: dict[str, Any], places: Placeholders) -> CaseResult:
    arguments = places.fill(step["arguments"])
    if "raw_name" in step:
        return client.call_raw(step["raw_name"], arguments)
    if not isinstance(arguments, dict):
        return client.call_raw(client.tool_name(step["tool"]), arguments)
    return client.call(step["tool"], **arguments)


def judge_result(
    result: CaseResult, expect: dict[str, Any], places: Placeholders, limits: Limits
) -> list[str]:
    """What is wrong with one answer, against one `expect`; empty when it meets it."""
    expect = places.fill(expect)
    wrong = []
    codes = expect.get("error")
    if codes is not None:
        allowed = [codes] if isinstance(codes, str) else codes
        if result.success or result.error not in allowed:
            wrong.append(
                f"expected failure {' or '.join(allowed)}, "
                f"got success={result.success} error={result.error}"
            )
    if "success" in expect and result.success is not expect["success"]:
        wrong.append(
            f"expected success={expect['success']}, "
            f"got success={result.success} error={result.error}"
        )
    elif expect.get("success") is True and result.error is not None:
        wrong.append(f"a success must carry no error code, got error={result.error}")
    data = result.data if isinstance(result.data, str) else ""
    wrong += [
        f"data should contain {text!r}"
        for text in expect.get("data_contains", [])
        if text not in data
    ]
    wrong += [
        f"data must not contain {text!r}"
        for text in expect.get("data_not_contains", [])
        if text in data
    ]
    if expect.get("data_nonempty") and not data.strip():
        wrong.append("data should not be empty")
    if expect.get("data_bounded"):
        bound = limits.max_output_chars + limits.marker_budget_chars
        if len(data) > bound:
            wrong.append(
                f"data has {len(data)} characters, more than max_output_chars + marker ({bound})"
            )
    diff = result.diff or ""
    wrong += [
        f"diff should contain {text!r}"
        for text in expect.get("diff_contains", [])
        if text not in diff
    ]
    if expect.get("summary_nonempty") and not (result.summary or "").strip():
        wrong.append("summary should be a non-empty line")
    paths = {issue.get("path") for issue in result.issues or [] if isinstance(issue, dict)}
    wrong += [
        f"issues should include one with path {p!r} (got {sorted(map(str, paths))})"
        for p in expect.get("issue_paths", [])
        if p not in paths
    ]
    return wrong


def _content_matches(actual: bytes, expected: Any, limits: Limits) -> bool:
    if isinstance(expected, dict) and "one_of" in expected:
        return any(_content_matches(actual, choice, limits) for choice in expected["one_of"])
    if isinstance(expected, dict) and "sha256" in expected:
        return hashlib.sha256(actual).hexdigest() == expected["sha256"]
    return actual == entry_bytes(expected, limits)


def judge_disk(
    root: Path,
    after: dict[str, Any],
    before_last_call: dict[str, tuple[Any, ...]],
    places: Placeholders,
    limits: Limits,
) -> list[str]:
    """What is wrong with the disk after the calls, against `after`; empty when it meets it."""
    wrong = []
    for rel, expected in after.get("files", {}).items():
        path = root / rel
        if not path.is_file():
            wrong.append(
                f"{rel} should be a file, but "
                f"{'is not a file' if path.exists() else 'does not exist'}"
            )
        elif not _content_matches(path.read_bytes(), expected, limits):
            wanted = (
                expected
                if isinstance(expected, dict) and {"one_of", "sha256"} & set(expected)
                else entry_bytes(expected, limits)
            )
            wrong.append(f"{rel} should hold {wanted!r}, holds {path.read_bytes()[:300]!r}")
    for spelled in after.get("absent", []):
        if os.path.lexists(places.path(root, spelled)):
            wrong.append(f"{spelled} should not exist")
    for rel in after.get("exists", []):
        if not os.path.lexists(root / rel):
            wrong.append(f"{rel} should exist")
    for rel, mode in after.get("modes", {}).items():
        path = root / rel
        actual = stat.S_IMODE(path.stat().st_mode) if path.exists() else None
        if actual != int(mode, 8):
            wrong.append(
                f"{rel} should have mode {mode}, "
                f"has {oct(actual) if actual is not None else 'no file'}"
            )
    now = snapshot_tree(root)
    if after.get("unchanged") and now != before_last_call:
        changed = sorted(
            k for k in set(now) | set(before_last_call) if now.get(k) != before_last_call.get(k)
        )
        wrong.append(f"the root should be unchanged by the last call, but these changed: {changed}")
    if "tree_paths" in after and set(now) != set(after["tree_paths"]):
        wrong.append(
            f"the root should hold exactly {sorted(after['tree_paths'])}, holds {sorted(now)}"
        )
    return wrong


def _judged_calls(case: Case) -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """(label, call, expect) for every call; the case-level expect goes to the last tool step."""
    tool_steps = [index for index, step in enumerate(case.calls) if "disk" not in step]
    labelled = []
    for index, step in enumerate(case.calls):
        for call, label in _calls_of(step, index):
            expect = call.get("expect")
            if expect is None and index == tool_steps[-1] and "concurrently" not in step:
                expect = case.expect
            labelled.append((label, call, expect))
    return labelled


def _calls_of(step: dict[str, Any], index: int) -> list[tuple[dict[str, Any], str]]:
    if "disk" in step:
        return []
    if "concurrently" in step:
        return [(call, f"call {index + 1}.{n + 1}") for n, call in enumerate(step["concurrently"])]
    return [(step, f"call {index + 1}")]


def play_case(
    case: Case, ws: CaseWorkspace, client: CaseClient
) -> tuple[list[CaseResult], list[str]]:
    """Builds the case's workspace and makes its calls; returns the answers and every mismatch."""
    places = Placeholders.of(ws, client.limits)
    build_tree(ws.root, case.tree, places, client.limits)
    expectations = {id(call): expect for _, call, expect in _judged_calls(case)}
    results: list[CaseResult] = []
    wrong: list[str] = []
    before = snapshot_tree(ws.root)
    for index, step in enumerate(case.calls):
        if "disk" in step:
            build_tree(ws.root, step["disk"], places, client.limits)
            continue
        before = snapshot_tree(ws.root)
        if "concurrently" in step:
            batch = [
                (call["tool"], places.fill(call["arguments"])) for call in step["concurrently"]
            ]
            answers = client.call_concurrently(batch)
        else:
            answers = [_call(client, step, places)]
        for (call, label), result in zip(_calls_of(step, index), answers, strict=True):
            results.append(result)
            expect = expectations[id(call)]
            name = call.get("tool") or call.get("raw_name")
            if expect:
                wrong += [
                    f"{label} ({name}): {w}"
                    for w in judge_result(result, expect, places, client.limits)
                ]
            if isinstance(result.data, str) and ws.secret in result.data:
                wrong.append(f"{label} ({name}): data contains the canary secret")
    if case.after:
        wrong += [
            f"disk: {w}" for w in judge_disk(ws.root, case.after, before, places, client.limits)
        ]
    return results, wrong


def run_case(case: Case, ws: CaseWorkspace, client: CaseClient) -> list[CaseResult]:
    """Plays the case and raises CaseFailed, with the evidence of every answer, if it is not met."""
    results, wrong = play_case(case, ws, client)
    if wrong:
        evidence = "\n\n".join(result.evidence() for result in results)
        raise CaseFailed(
            f"case {case.id} ({case.where}): {case.description}\n"
            + "".join(f"  - {line}\n" for line in wrong)
            + f"\n{evidence}"
        )
    return results
