"""The inline style and script of the matrix's index.html (report/matrix_html.py).

Built for 25+ implementations: the grid scrolls inside its own box with the implementation row
and the clause column sticky, so a cell is always read against its two names. The script only
hides and shows: without it every clause and implementation is listed. Every filter lives in the
page's address (`?departures=1&impl=filesystem&category=CONFINE`), so a view is a permalink; a
link to a clause or a cell (`#EDIT-03`, `#EDIT-03--reference`) shows it even when filtered out.
Columns are hidden by one generated style rule each, not cell by cell, so filtering stays fast.
"""

MATRIX_STYLE = """
body{max-width:none}
.filters{position:static}
.grid{overflow:auto;max-height:88vh;border:1px solid #ccc;margin:.5rem 0 1.5rem}
table.matrix{border-collapse:separate;border-spacing:0;margin:0}
table.matrix td,table.matrix th{text-align:center;padding:.12rem .3rem;font-size:.82em;
  border:0;border-right:1px solid #e3e3e3;border-bottom:1px solid #e3e3e3}
table.matrix thead th{position:sticky;top:0;z-index:2;background:#fff;
  border-bottom:2px solid #999}
table.matrix .rowhead{position:sticky;left:0;z-index:1;background:#fff;text-align:left;
  white-space:nowrap;border-right:2px solid #999}
table.matrix thead th.rowhead{z-index:3}
table.matrix th.impl{writing-mode:vertical-rl;transform:rotate(180deg);vertical-align:bottom;
  white-space:nowrap;font-weight:normal;max-height:16rem;overflow:hidden;text-overflow:ellipsis}
table.matrix tr.category>*{background:#eef1f5;font-weight:bold}
table.matrix tr.category .rowhead{background:#e2e7ee}
table.matrix td.score{font-weight:normal;font-size:.75em}
table.matrix td.score.all{color:#1b5e20}table.matrix td.score.some{color:#b71c1c}
table.matrix td a{color:inherit;text-decoration:none;display:block}
.lvl{color:#777;font-size:.85em;margin-left:.3rem}
.escape{background:#b71c1c!important;color:#fff;font-weight:bold}
td.known{outline:2px dashed #999;outline-offset:-3px}
table.departures td.pass a,table.departures td.n\\/a a{opacity:.25}
td:target,tr:target>*{box-shadow:inset 0 0 0 3px #1a73e8}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.3rem;border:1px solid #ccc}
table.impls td,table.impls th{text-align:left}
table.impls img{vertical-align:middle}
tr.could-not-run td{background:#fff4e5}
.filters input[type=search]{font:inherit;width:12rem}
table.versions td,table.versions th{text-align:center}
table.versions td:first-child,table.versions th:first-child{text-align:left}
table.versions td a{color:inherit;text-decoration:none;display:block}
"""

MATRIX_SCRIPT = """
(function () {
  var table = document.querySelector("table.matrix");
  var rows = Array.prototype.slice.call(table.querySelectorAll("tr.clause"));
  var heads = Array.prototype.slice.call(table.querySelectorAll("tr.category"));
  var impls = Array.prototype.slice.call(table.querySelectorAll("thead th.impl"));
  var controls = {status: document.getElementById("status"),
                  category: document.getElementById("category"),
                  level: document.getElementById("level"),
                  impl: document.getElementById("impl"),
                  departures: document.getElementById("departures")};
  var columnStyle = document.getElementById("column-filter");
  var shownCount = document.getElementById("shown");

  function value(name) {
    var c = controls[name];
    return c.type === "checkbox" ? (c.checked ? "1" : "") : c.value.trim();
  }
  function columns() {
    // Which implementation columns the text filter keeps (by id, title or package).
    var words = value("impl").toLowerCase().split(/\\s+/).filter(Boolean);
    return impls.map(function (th) {
      var text = th.dataset.search;
      return !words.length || words.some(function (w) { return text.indexOf(w) >= 0; });
    });
  }
  function cellMatches(cell, status) {
    if (status === "escape") { return cell.classList.contains("escape"); }
    return cell.dataset.status === status;
  }
  function apply(write) {
    var keep = columns();
    var rules = [];
    keep.forEach(function (on, i) {
      if (!on) { rules.push("table.matrix tr>:nth-child(" + (i + 2) + "){display:none}"); }
    });
    columnStyle.textContent = rules.join("\\n");
    var status = value("status"), category = value("category"), level = value("level");
    var departures = value("departures");
    table.classList.toggle("departures", !!departures);
    var shown = 0;
    rows.forEach(function (row) {
      var cells = row.cells;
      var some = function (test) {
        for (var i = 1; i < cells.length; i++) {
          if (keep[i - 1] && test(cells[i])) { return true; }
        }
        return false;
      };
      var ok = (!category || row.dataset.category === category) &&
               (!level || row.dataset.level === level) &&
               (!status || some(function (c) { return cellMatches(c, status); })) &&
               (!departures || some(function (c) {
                  return c.dataset.status === "fail" || c.dataset.status === "error"; }));
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    heads.forEach(function (head) {
      head.hidden = !rows.some(function (r) {
        return !r.hidden && r.dataset.category === head.dataset.category; });
    });
    shownCount.textContent = shown + " of " + rows.length + " clauses, " +
      keep.filter(Boolean).length + " of " + impls.length + " implementations";
    if (write && window.history && history.replaceState) {
      var q = [];
      Object.keys(controls).forEach(function (name) {
        if (value(name)) { q.push(name + "=" + encodeURIComponent(value(name))); }
      });
      try { history.replaceState(null, "", "?" + q.join("&") + location.hash); } catch (e) {}
    }
  }
  function reveal() {
    // A permalink to a clause or a cell shows it, whatever the filters hid.
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target || !table.contains(target)) { return; }
    var row = target.closest("tr.clause");
    if (row && row.hidden) {
      ["status", "category", "level", "departures"].forEach(function (name) {
        var c = controls[name];
        if (c.type === "checkbox") { c.checked = false; } else { c.value = ""; }
      });
    }
    if (target.tagName === "TD" && target.style) {
      var index = target.cellIndex - 1;
      if (index >= 0 && !columns()[index]) { controls.impl.value = ""; }
    }
    apply(true);
    target.scrollIntoView({block: "center", inline: "center"});
  }
  var params = new URLSearchParams(location.search);
  Object.keys(controls).forEach(function (name) {
    var c = controls[name], v = params.get(name) || "";
    if (c.type === "checkbox") { c.checked = !!v; } else { c.value = v; }
    c.addEventListener(c.type === "search" ? "input" : "change", function () { apply(true); });
  });
  window.addEventListener("hashchange", reveal);
  apply(false);
  reveal();
})();
"""
