"""The matrix page at the scale it is built for: thirty implementations (the committed peers'
real conformance.json, each under three names), rendered by headless Chromium. The header row and
the clause column stay in view when the grid scrolls; each category has its summary row;
"departures only", the implementation filter and the permalinks work."""

import json
import shutil
from pathlib import Path

import pytest
from chromium import chromium, distinct_colours, driven, needs_chromium

from agentconf.harness.report.matrix_site import build_site

pytestmark = needs_chromium
SITE = Path(__file__).resolve().parents[2] / "docs" / "matrix"
COPIES = ("", "-b", "-c")


@pytest.fixture(scope="module")
def thirty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("thirty")
    judged = sorted(p.parent for p in SITE.glob("*/conformance.json"))  # not the unjudged rows
    for peer in judged:
        fields = json.loads((peer / "peer.json").read_text("utf-8"))
        for suffix in COPIES:
            copy = site / (peer.name + suffix)
            copy.mkdir()
            shutil.copyfile(peer / "conformance.json", copy / "conformance.json")
            (copy / "peer.json").write_text(json.dumps(
                {**fields, "id": copy.name, "page": f"{copy.name}/report.html",
                 "title": fields["title"] + (f" ({suffix[1:]})" if suffix else "")}), "utf-8")
    document = build_site(site)
    assert len(document["implementations"]) == 3 * len(judged) >= 30
    return site


DRIVER = """
<script>
(function () {
  var seen = {};
  var grid = document.querySelector(".grid"), table = document.querySelector("table.matrix");
  var impls = Array.prototype.slice.call(table.querySelectorAll("thead th.impl"));
  function visibleRows() {
    return Array.prototype.slice.call(table.querySelectorAll("tr.clause"))
      .filter(function (r) { return !r.hidden; });
  }
  function visibleColumns() {
    return impls.filter(function (th) { return getComputedStyle(th).display !== "none"; })
      .map(function (th) { return th.dataset.search.split(" ")[0]; });
  }
  function set(id, value) {
    var c = document.getElementById(id);
    if (c.type === "checkbox") { c.checked = value; } else { c.value = value; }
    c.dispatchEvent(new Event(c.type === "search" ? "input" : "change"));
  }
  seen.restored = {departures: document.getElementById("departures").checked,
                   impl: document.getElementById("impl").value, columns: visibleColumns()};
  set("departures", false); set("impl", "");
  seen.columns = impls.length;
  seen.categories = table.querySelectorAll("tr.category").length;
  seen.score = table.querySelector("tr.category td.score").textContent;
  seen.scores_per_row = table.querySelector("tr.category").querySelectorAll("td.score").length;
  grid.scrollIntoView();
  grid.scrollTop = 2500; grid.scrollLeft = 1500;
  var box = grid.getBoundingClientRect();
  var left = document.elementFromPoint(box.left + 8, box.top + box.height / 2);
  var top = document.elementFromPoint(box.left + box.width / 2, box.top + 30);
  seen.sticky = {clause_column: !!(left && left.closest("th.rowhead")),
                 header_row: !!(top && top.closest("thead"))};
  var started = performance.now();
  set("departures", true);
  seen.departures_ms = Math.round(performance.now() - started);
  seen.departure_rows = visibleRows().length;
  seen.every_row_departs = visibleRows().every(function (r) {
    return r.querySelector("td[data-status=fail],td[data-status=error]") !== null; });
  seen.all_rows = table.querySelectorAll("tr.clause").length;
  set("impl", "filesystem");
  seen.filesystem = visibleColumns();
  seen.query = decodeURIComponent(location.search);
  seen.shown = document.getElementById("shown").textContent;
  window.addEventListener("hashchange", function () {
    var cell = document.getElementById("REGISTRY-01--reference-b");
    seen.followed = {row_hidden: cell.parentNode.hidden,
                     cell_shown: getComputedStyle(cell).display !== "none",
                     departures: document.getElementById("departures").checked};
    var out = document.createElement("pre");
    out.id = "driver-result";
    out.textContent = JSON.stringify(seen);
    document.body.appendChild(out);
  });
  location.hash = "#REGISTRY-01--reference-b";
})();
</script>
"""


def test_thirty_columns_keep_their_headers_and_filter_to_the_departures(
    thirty: Path, tmp_path: Path
) -> None:
    document = json.loads((thirty / "matrix.json").read_text("utf-8"))
    seen = driven(thirty / "index.html", DRIVER, tmp_path, "?departures=1&impl=langchain")
    entries = document["implementations"]
    assert seen["restored"] == {"departures": True, "impl": "langchain", "columns": [
        "langchain-community", "langchain-community-b", "langchain-community-c"]}
    assert seen["columns"] == len(entries)
    categories = {c["category"] for c in document["clauses"]}
    assert seen["categories"] == len(categories)
    assert seen["scores_per_row"] == len(entries)
    assert seen["sticky"] == {"clause_column": True, "header_row": True}
    departing = {cid for e in entries for cid, cell in e["cells"].items()
                 if cell["status"] in ("fail", "error")}
    assert seen["departure_rows"] == len(departing) < seen["all_rows"]
    assert seen["every_row_departs"]
    # The page's filter keeps a column whose id, title or package holds the word.
    fs = sorted(e["id"] for e in entries
                if "filesystem" in f"{e['id']} {e['title']} {e['package']}".lower())
    # Every copy of every implementation the word names (a filesystem server, or deepagents'
    # "filesystem and shell tools"), more than one peer's: the filter is not judged on one column.
    assert sorted(seen["filesystem"]) == fs and len(fs) >= 9 and len(fs) % len(COPIES) == 0
    assert seen["query"] == "?impl=filesystem&departures=1"
    # "Departures only" counts the columns shown: the clauses a filesystem server departs from.
    fs_departing = {cid for e in entries if e["id"] in fs for cid, cell in e["cells"].items()
                    if cell["status"] in ("fail", "error")}
    assert seen["shown"] == (f"{len(fs_departing)} of {seen['all_rows']} clauses, {len(fs)} of "
                             f"{len(entries)} implementations")
    # REGISTRY-01 passes everywhere (READ-01 did until deepagents), so "departures only" hid it,
    # and the reference's copy is no filesystem server: the permalink to its cell shows both.
    assert seen["followed"] == {"row_hidden": False, "cell_shown": True, "departures": False}


def test_the_screenshot_of_thirty_columns_is_a_grid_not_a_blank_page(
    thirty: Path, tmp_path: Path
) -> None:
    shot = tmp_path / "matrix.png"
    chromium(f"--screenshot={shot}", "--window-size=1600,1000",
             (thirty / "index.html").as_uri() + "#grid", cwd=tmp_path)
    assert distinct_colours(shot.read_bytes()) >= 8
