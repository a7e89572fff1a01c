"""The HTML report, rendered by a real browser (headless Chromium), shows a person the verdict,
the summary tables and the failures — self-contained, with no server and no network."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from chromium import chromium, distinct_colours, needs_chromium

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def red_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run of a mutant that replaces the first of two matches: red, with one failure."""
    report = tmp_path_factory.mktemp("report")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "agentconf",
            "run",
            "--impl",
            "python:agentconf.selfcheck.gallery:FirstMatchReplace",
            "--clauses",
            "EDIT-03,READ-01",
            "--report",
            str(report),
        ],
        capture_output=True,
        timeout=600,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert (report / "report.html").is_file()
    return report


def test_the_rendered_page_shows_the_verdict_the_summary_and_the_failure(
    red_report: Path, tmp_path: Path
) -> None:
    document = json.loads((red_report / "conformance.json").read_text())
    dom = chromium("--dump-dom", (red_report / "report.html").as_uri(), cwd=tmp_path).stdout
    assert "RED" in dom
    assert "By level" in dom and "By category" in dom
    failing = [c["id"] for c in document["clauses"] if c["status"] == "fail"]
    assert failing == ["EDIT-03"]
    assert "EDIT-03" in dom and "<details" in dom
    executed = document["summary"]["executed"]
    assert f"{executed} of {document['summary']['planned']} planned checks executed" in dom


def test_the_screenshot_is_a_page_with_content_not_a_blank_or_error_page(
    red_report: Path, tmp_path: Path
) -> None:
    shot = tmp_path / "report.png"
    chromium(
        f"--screenshot={shot}",
        "--window-size=1200,900",
        (red_report / "report.html").as_uri(),
        cwd=tmp_path,
    )
    colours = distinct_colours(shot.read_bytes())
    # A blank page has one colour; the report has text, a red verdict and tinted cells.
    assert colours >= 8, f"the screenshot has only {colours} colours"


# A person's clicks, played by a script added to a copy of the real page: it ticks and unticks the
# filters, presses a copy button (the clipboard stubbed to see what would be copied: a headless
# browser has no clipboard) and follows a link to a hidden clause, then writes what it saw.
DRIVER = """
<script>
(function () {
  var seen = {};
  function visible() {
    return Array.prototype.slice.call(document.querySelectorAll("details.clause"))
      .filter(function (d) { return !d.hidden; }).map(function (d) { return d.id; });
  }
  function tick(status, on) {
    var box = document.querySelector("input[name=status][value='" + status + "']");
    box.checked = on; box.dispatchEvent(new Event("change"));
  }
  seen.filters_shown = !document.getElementById("filters").hidden;
  seen.initial = visible();
  tick("pass", true);
  seen.with_pass = visible();
  var category = document.getElementById("category");
  category.value = "READ"; category.dispatchEvent(new Event("change"));
  seen.read_only = visible();
  category.value = ""; category.dispatchEvent(new Event("change"));
  tick("pass", false);
  var copied = [];
  navigator.clipboard.writeText = function (text) { copied.push(text); return Promise.resolve(); };
  var button = document.querySelector("button.copy");
  button.click();
  seen.copied = copied;
  seen.copy_of = button.dataset.copy;
  location.hash = "#READ-01";
  window.addEventListener("hashchange", function () {
    var target = document.getElementById("READ-01");
    seen.followed = {hidden: target.hidden, open: target.open};
    seen.button_text = button.textContent;
    var out = document.createElement("pre");
    out.id = "driver-result";
    out.textContent = JSON.stringify(seen);
    document.body.appendChild(out);
  });
})();
</script>
"""


def test_a_person_filters_copies_and_follows_a_link(red_report: Path, tmp_path: Path) -> None:
    page = (red_report / "report.html").read_text("utf-8")
    driven = tmp_path / "driven.html"
    driven.write_text(page.replace("</body>", DRIVER + "</body>"), "utf-8")
    dom = chromium("--virtual-time-budget=5000", "--dump-dom", driven.as_uri(),
                    cwd=tmp_path).stdout
    assert 'id="driver-result"' in dom, dom[-2000:]
    raw = dom.split('id="driver-result">', 1)[1].split("</pre>", 1)[0]
    seen = json.loads(raw.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))
    document = json.loads((red_report / "conformance.json").read_text())
    by_status = {c["id"]: c["status"] for c in document["clauses"]}
    assert seen["filters_shown"]
    assert seen["initial"] == ["EDIT-03"]  # the failure alone, first
    assert sorted(seen["with_pass"]) == sorted(i for i, s in by_status.items()
                                               if s in ("pass", "fail"))
    assert seen["read_only"] == ["READ-01"]
    reproduce = next(c["reproduce"] for c in document["clauses"] if c["id"] == "EDIT-03")
    assert seen["copied"] == [reproduce] == [seen["copy_of"]]
    assert seen["button_text"] == "Copied"
    # READ-01 passes, so the filters hid it; the link shows and opens it.
    assert seen["followed"] == {"hidden": False, "open": True}


# The matrix page (agentconf matrix), built from the red run above as one peer's kept run: a
# person picks "fail" in the status filter and a category, and opens a cell's permalink.
MATRIX_DRIVER = """
<script>
(function () {
  function shown() {
    return Array.prototype.slice.call(document.querySelectorAll("tr.clause"))
      .filter(function (r) { return !r.hidden; }).map(function (r) { return r.id; });
  }
  var seen = {all: shown()};
  var status = document.getElementById("status");
  status.value = "fail"; status.dispatchEvent(new Event("change"));
  seen.failing = shown();
  seen.query = location.search;
  status.value = ""; status.dispatchEvent(new Event("change"));
  var category = document.getElementById("category");
  category.value = "READ"; category.dispatchEvent(new Event("change"));
  seen.read = shown();
  var cell = document.getElementById("EDIT-03--mutant");
  seen.cell = {text: cell.textContent, href: cell.querySelector("a").getAttribute("href"),
               title: cell.title};
  var out = document.createElement("pre");
  out.id = "driver-result";
  out.textContent = JSON.stringify(seen);
  document.body.appendChild(out);
})();
</script>
"""


def test_the_matrix_page_filters_by_status_and_category_and_links_each_cell(
    red_report: Path, tmp_path: Path
) -> None:
    peer = tmp_path / "peers" / "mutant"
    peer.mkdir(parents=True)
    (peer / "peer.toml").write_text('[peer]\ntitle = "mutant"\npackage = "gallery"\n'
                                    'version = "1"\nregistry = "local"\n', "utf-8")
    (peer / "agentconf.toml").write_text('[implementation]\nspec = "reference"\n', "utf-8")
    kept = tmp_path / "site" / "mutant"
    kept.mkdir(parents=True)
    for name in ("conformance.json", "report.html"):
        shutil.copyfile(red_report / name, kept / name)
    done = subprocess.run([sys.executable, "-m", "agentconf", "matrix", "--render-only",
                           "--peers", str(tmp_path / "peers"), "--out", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text("utf-8")
    driven = tmp_path / "driven.html"
    driven.write_text(page.replace("</body>", MATRIX_DRIVER + "</body>"), "utf-8")
    dom = chromium("--virtual-time-budget=3000", "--dump-dom", driven.as_uri(),
                    cwd=tmp_path).stdout
    assert 'id="driver-result"' in dom, dom[-2000:]
    raw = dom.split('id="driver-result">', 1)[1].split("</pre>", 1)[0]
    seen = json.loads(raw.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))
    assert seen["all"] == ["EDIT-03", "READ-01"]
    assert seen["failing"] == ["EDIT-03"]
    assert seen["query"] == "?status=fail"
    assert seen["read"] == ["READ-01"]
    assert seen["cell"]["text"] == "✗"
    assert seen["cell"]["href"] == "mutant/report.html#EDIT-03"
    assert "EDIT-03: fail" in seen["cell"]["title"]


def test_a_clause_permalink_opens_that_clause_on_top_of_the_page(
    red_report: Path, tmp_path: Path
) -> None:
    """report.html#READ-01 (a passing clause the filters hide) rendered blank: the browser kept
    the page scrolled into the list. The clause now opens on top, whatever shows the page."""
    address = (red_report / "report.html").as_uri() + "#READ-01"
    dom = chromium("--virtual-time-budget=3000", "--dump-dom", address, cwd=tmp_path).stdout
    linked = dom.split('<section id="linked"', 1)[1].split("</section>", 1)[0]
    assert re.search(r'<details[^>]*id="READ-01"[^>]*\sopen', linked), linked[:500]
    assert "hidden" not in linked.split(">", 1)[0]
    shot = tmp_path / "permalink.png"
    chromium(f"--screenshot={shot}", "--window-size=1200,900", "--virtual-time-budget=3000",
             address, cwd=tmp_path)
    assert distinct_colours(shot.read_bytes()) >= 8, "the permalink renders a blank page"
