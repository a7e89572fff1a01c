"""`agentconf cases check [DIR]` lints case files; `agentconf cases export DIR` publishes them.

The export is plain JSON plus the schema and the catalogue, for harnesses in other languages.
"""

import argparse
import json
import shutil
import sys
from pathlib import Path

from agentconf.cli import UsageError
from agentconf.contract import CAPABILITIES, CLAUSES, CONTRACT_VERSION, DEFAULT_LIMITS, ERROR_CODES
from agentconf.harness.cases.load import (
    SCHEMA_PATH,
    case_files,
    default_cases_dir,
    exported_name,
    lint_directory,
)

HELP = "lint the golden case files, or export them for harnesses in other languages"

EXIT_PROBLEMS = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(
        dest="action", metavar="ACTION", required=True, parser_class=type(parser)
    )
    check = actions.add_parser("check", help="lint every case: schema, ids, clauses, capabilities")
    check.add_argument(
        "directory",
        nargs="?",
        type=Path,
        metavar="DIR",
        help="folder of *.json case files, or of category folders with a cases.json each "
             "(default: the shipped cases)",
    )
    export = actions.add_parser("export", help="write the cases, schema, catalogue and a README")
    export.add_argument("directory", type=Path, metavar="DIR", help="where to write (created)")
    export.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="SRC",
        help="folder of case files to export (default: the shipped cases)",
    )


def _source(directory: Path | None) -> Path:
    if directory is None:
        return default_cases_dir()
    if not directory.is_dir():
        raise UsageError(f"{directory} is not a folder of case files")
    return directory


def _report(source: Path) -> bool:
    problems = lint_directory(source)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s) in {source}", file=sys.stderr)
    return not problems


def run(args: argparse.Namespace) -> int:
    if args.action == "check":
        source = _source(args.directory)
        if not _report(source):
            return EXIT_PROBLEMS
        count = sum(len(json.loads(p.read_text("utf-8"))["cases"]) for p in case_files(source))
        print(f"{count} cases in {len(case_files(source))} files: ok")
        return 0
    source = _source(args.source)
    if not _report(source):
        return EXIT_PROBLEMS
    return export(source, args.directory)


def export(source: Path, target: Path) -> int:
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} exists and is not a folder")
    cases = target / "cases"
    if cases.exists():
        shutil.rmtree(cases)  # a stale case file left behind would be run as if current
    cases.mkdir(parents=True)
    for path in case_files(source):
        document = json.loads(path.read_text("utf-8"))
        _write_json(cases / exported_name(path), document)
    shutil.copyfile(SCHEMA_PATH, target / "case.schema.json")
    _write_json(target / "catalogue.json", _catalogue())
    (target / "README.md").write_text(README.format(version=CONTRACT_VERSION), "utf-8")
    print(f"exported {len(case_files(source))} case files to {target}")
    return 0


def _write_json(path: Path, document: object) -> None:
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")


def _catalogue() -> dict[str, object]:
    """What a foreign harness needs to honour `clauses`, `requires`, `<LIMIT:...>` and codes."""
    return {
        "contract_version": CONTRACT_VERSION,
        "clauses": {
            clause.id: {
                "level": clause.level.value,
                "requires": list(clause.requires),
                "requirement": clause.requirement,
            }
            for clause in CLAUSES.values()
            if clause.retired is None
        },
        "capabilities": CAPABILITIES,
        "limits": {
            name: getattr(DEFAULT_LIMITS, name) for name in DEFAULT_LIMITS.__dataclass_fields__
        },
        "error_codes": {name: code.meaning for name, code in ERROR_CODES.items()},
    }


README = """\
# agentconf golden cases (contract {version})

Data-driven conformance cases for LLM agent tool systems, readable by a harness in any language.
`cases/*.json` follow `case.schema.json`; `catalogue.json` holds the clauses (level, required
capabilities), the capability names, the default limits and the error codes.

## Running a case

1. Make a private sandbox folder with `root/` (the workspace the implementation gets), and beside
   it the canaries: `outside/secret.txt`, `root_evil/` (a sibling whose name starts with the
   root's), `home/.ssh/authorized_keys`. Put a random token (`<SECRET>`) in every canary.
2. Skip the case as *not applicable* if the implementation lacks a capability named in the case's
   `requires` or in the `requires` of one of its `clauses`.
3. Replace placeholders in every string: `<ROOT>`, `<SANDBOX>`, `<OUTSIDE>`, `<SIBLING>`, `<HOME>`,
   `<SYSTEM_TMP>` (absolute paths), `<SECRET>`, `<LIMIT:name>` (the implementation's limit, in
   decimal) and `<GREP_LINE:n>` (the number grep's output gives line n: n, or n - 1 when it
   counts from 0).
4. Build `tree` under the root: a string is UTF-8 text; objects hold `text`, `base64`, `hex`,
   `lines` (template with `{{n}}`, count, eol), `fill` (text repeated to `times` x a limit in
   bytes, then `tail`), `symlink` (target verbatim), `dir` or `fifo`; then `mode` (octal) and,
   last of all, `mtime`.
5. Play `calls` in order, in one session. A call has a canonical `tool` and `arguments` (or a
   `raw_name` sent verbatim); a `disk` step changes files between calls; a `concurrently` step
   sends its calls all at once.
6. Judge each call that has an `expect` (the case-level `expect` belongs to the last call):
   `error` (one code or a list of acceptable ones; implies failure), `success`, `data_contains`,
   `data_not_contains`, `data_nonempty`, `data_bounded` (at most max_output_chars +
   marker_budget_chars characters), `data_cut` (a premise, not a check: an answer over twice
   the limit was not cut, and a case of how a cut is made is not judged on it), `diff_contains`,
   `summary_nonempty`, `issue_paths`.
7. Judge `after`: `files` (exact bytes, `sha256`, or `one_of`), `absent` (not even a link),
   `exists`, `modes`, `unchanged` (the root is as it was just before the last calling step),
   `tree_paths` (exactly these paths under the root).
8. Always, after every call: nothing outside the root changed and no answer contains `<SECRET>`.

Expectations state facts the contract requires, never an implementation's wording. Case ids are
stable: name one in an expected-failures file as `CLAUSE-ID::case-id`.
"""
