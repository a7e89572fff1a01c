"""Reports of a run: the event stream in, conformance.json, report.md, report.html, junit.xml and
badges out, plus the comparison of several runs. Every writer reads the conformance document (a
dict valid against agentconf/schemas/conformance.schema.json), never the runner's internals.
"""

from .aggregate import ClauseResult, Status, aggregate
from .compare import CompareError, load_document, render_compare_html, render_compare_markdown
from .document import build_document, validate_document
from .events import EventLog, EventStreamError, TestEvent, read_events
from .expectations import Expectations, ExpectationsError, load_expectations, parse_expectations
from .verdict import Verdict, verdict_of
from .write import write_reports

__all__ = [
    "ClauseResult",
    "CompareError",
    "EventLog",
    "EventStreamError",
    "Expectations",
    "ExpectationsError",
    "Status",
    "TestEvent",
    "Verdict",
    "aggregate",
    "build_document",
    "load_document",
    "load_expectations",
    "parse_expectations",
    "read_events",
    "render_compare_html",
    "render_compare_markdown",
    "validate_document",
    "verdict_of",
    "write_reports",
]
