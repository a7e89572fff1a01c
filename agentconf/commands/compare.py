"""`agentconf compare`: several conformance.json reports side by side, clause x implementation."""

import argparse
import sys
from pathlib import Path

from agentconf.cli import UsageError
from agentconf.harness.report import (
    CompareError,
    load_document,
    render_compare_html,
    render_compare_markdown,
)
from agentconf.harness.report.compare import regressions

HELP = "compare conformance.json reports: a clause x implementation matrix"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reports", nargs="+", type=Path, metavar="CONFORMANCE_JSON",
                        help="conformance.json files (or report folders holding one)")
    parser.add_argument("--html", metavar="OUT", type=Path, help="also write the matrix as HTML")
    parser.add_argument("--md", metavar="OUT", type=Path,
                        help="write the markdown matrix to OUT instead of standard output")
    parser.add_argument("--changed-only", action="store_true",
                        help="show only the clauses whose status differs between the reports")


def run(args: argparse.Namespace) -> int:
    paths = [path / "conformance.json" if path.is_dir() else path for path in args.reports]
    try:
        documents = [load_document(path) for path in paths]
    except CompareError as error:
        raise UsageError(str(error)) from None
    markdown = render_compare_markdown(documents, changed=args.changed_only)
    try:
        if args.md is not None:
            args.md.write_text(markdown, encoding="utf-8")
        else:
            sys.stdout.write(markdown)
        if args.html is not None:
            args.html.write_text(render_compare_html(documents), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write the comparison: {error}") from None
    # compare OLD NEW: exit 1 when a clause went from good to failing, for CI gates.
    regressed = regressions(documents)
    if regressed:
        print(f"agentconf compare: {len(regressed)} clause(s) regressed from the first report "
              f"to the last: {', '.join(regressed)}", file=sys.stderr)
        return 1
    return 0
