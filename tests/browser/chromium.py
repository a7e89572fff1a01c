"""Headless Chromium for the browser tests: render a page, dump its DOM or take a screenshot,
and read what a driver script added to a copy of the page saw."""

import json
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# CI installs Debian's chromium (.ci/run); a developer's machine may not have it.
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                    reason="chromium is not installed")


def chromium(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None, "chromium is not installed (CI installs Debian's chromium)"
    profile = cwd / "chromium-profile"
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env={**os.environ, "HOME": str(cwd)},
    )


def driven(page: Path, driver: str, cwd: Path, query: str = "", budget_ms: int = 5000) -> dict:
    """Load a copy of `page` with `driver` (a <script> that ends by writing its findings as JSON
    into <pre id="driver-result">) and return what it wrote."""
    copy = page.parent / f"driven-{page.name}"
    copy.write_text(page.read_text("utf-8").replace("</body>", driver + "</body>"), "utf-8")
    dom = chromium(f"--virtual-time-budget={budget_ms}", "--dump-dom",
                   copy.as_uri() + query, cwd=cwd).stdout
    assert 'id="driver-result"' in dom, dom[-2000:]
    raw = dom.split('id="driver-result">', 1)[1].split("</pre>", 1)[0]
    seen: dict = json.loads(raw.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                            .replace("&amp;", "&"))
    return seen


def distinct_colours(png: bytes) -> int:
    """How many distinct pixel values an 8-bit RGB(A) PNG holds (enough to tell blank from not)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    offset, idat, width, channels = 8, b"", 0, 3
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset : offset + 8])
        chunk = png[offset + 8 : offset + 8 + length]
        if kind == b"IHDR":
            width, _, depth, colour_type = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8
            channels = {2: 3, 6: 4}[colour_type]
        elif kind == b"IDAT":
            idat += chunk
        offset += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + width * channels
    # Filter bytes make rows differ from pixels, but a blank page still decodes to few values.
    pixels = {
        raw[i : i + channels]
        for row in range(0, len(raw), stride)
        for i in range(row + 1, row + stride, channels * 37)
    }
    return len(pixels)
