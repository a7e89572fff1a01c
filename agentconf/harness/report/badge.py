"""badge.json (a shields.io endpoint) and badge.svg (the same badge, drawn here, so a README can
show it without a third-party service)."""

import json
from html import escape
from typing import Any

from .summary_tables import must_score

# Verdana 11px averages about 6.6px a character: close enough for a badge's box.
CHAR_WIDTH = 6.6
PADDING = 10
COLORS = {"brightgreen": "#4c1", "yellow": "#dfb317", "red": "#e05d44"}


def badge_fields(document: dict[str, Any]) -> dict[str, Any]:
    passed, applicable = must_score(document)
    if not document["verdict"]["green"]:
        color = "red"
    elif passed == applicable:
        color = "brightgreen"
    else:
        color = "yellow"  # green only thanks to expected failures
    return {"schemaVersion": 1, "label": "agentconf", "message": f"MUST {passed}/{applicable}",
            "color": color}


def render_badge_json(document: dict[str, Any]) -> str:
    return json.dumps(badge_fields(document), indent=2) + "\n"


def render_badge_svg(document: dict[str, Any]) -> str:
    fields = badge_fields(document)
    label, message = fields["label"], fields["message"]
    left = round(len(label) * CHAR_WIDTH + PADDING)
    right = round(len(message) * CHAR_WIDTH + PADDING)
    width, color = left + right, COLORS[fields["color"]]
    text = escape(f"{label}: {message}")
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" \
aria-label="{text}">
<title>{text}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>\
<stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="{left}" height="20" fill="#555"/>\
<rect x="{left}" width="{right}" height="20" fill="{color}"/>\
<rect width="{width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" \
font-size="11">
<text x="{left / 2}" y="14">{escape(label)}</text>
<text x="{left + right / 2}" y="14">{escape(message)}</text>
</g>
</svg>
"""
