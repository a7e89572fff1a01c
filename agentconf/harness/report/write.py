"""Writes every report file of one run into its directory, after validating the document."""

import json
from pathlib import Path
from typing import Any

from .badge import render_badge_json, render_badge_svg
from .document import validate_document
from .html import render_html
from .junit import render_junit
from .markdown import render_markdown
from .visible import visible

CONFORMANCE = "conformance.json"
RENDERERS = {
    "report.md": render_markdown,
    "report.html": render_html,
    "junit.xml": render_junit,
    "badge.json": render_badge_json,
    "badge.svg": render_badge_svg,
}
REPORT_FILES = (CONFORMANCE, *RENDERERS)


def write_reports(document: dict[str, Any], directory: Path) -> list[Path]:
    """conformance.json (schema-checked first: no invalid report is ever written), then the rest."""
    validate_document(document)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    conformance = directory / CONFORMANCE
    conformance.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
    written.append(conformance)
    for name, render in RENDERERS.items():
        path = directory / name
        path.write_text(visible(render(document)), encoding="utf-8")
        written.append(path)
    return written
