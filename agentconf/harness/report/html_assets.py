"""The inline style and script of report.html (report/html.py): one file with no external assets.

The script only filters, opens and copies: without it (a mail client, a CI's artifact viewer that
strips scripts) every clause is listed and readable, and the reproduce lines can be selected.
Filters live in the page's address (`?status=fail,error&category=EDIT`), so a filtered view can be
shared as a link.
"""

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}
th,td{border:1px solid #ccc;padding:.25rem .6rem;text-align:right}
th:first-child,td:first-child{text-align:left}
td.zero{color:#bbb}
.pass{background:#e6f4ea}.fail,.xpass,.message-changed{background:#fce8e6}.error{background:#fef7e0}
.xfail{background:#eef}.n\\/a{background:#f3f3f3}
.verdict{font-weight:bold;padding:.4rem .8rem;display:inline-block;border-radius:4px}
.green{background:#2e7d32;color:#fff}.red{background:#c62828;color:#fff}
details{border:1px solid #ddd;border-radius:4px;margin:.35rem 0;padding:.3rem .6rem}
details[hidden]{display:none}
summary{cursor:pointer}
summary .id{font-weight:bold;font-family:ui-monospace,monospace}
.status{font-size:.8em;border:1px solid #bbb;border-radius:3px;padding:0 .3rem;margin:0 .3rem}
.level{font-size:.8em;color:#555;margin-right:.4rem}
.requirement{color:#333}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap}
code{background:#f6f8fa;padding:0 .2rem}
.reproduce{display:flex;gap:.5rem;align-items:flex-start;margin:.4rem 0}
.reproduce code{flex:1;white-space:pre-wrap;word-break:break-all;padding:.3rem}
button.copy{font:inherit;font-size:.85em;cursor:pointer;border:1px solid #888;border-radius:3px;
  background:#fff;padding:.1rem .6rem}
.filters{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:.5rem 0;
  display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;z-index:1}
.filters label{white-space:nowrap}
.filters .count{color:#666}
.diff .del{background:#fdd;display:block}.diff .add{background:#dfd;display:block}
#no-match{color:#666}
#linked{border-left:4px solid #1a73e8;padding-left:.6rem;margin:1rem 0}
"""

SCRIPT = """
(function () {
  var clauses = Array.prototype.slice.call(document.querySelectorAll("details.clause"));
  var boxes = Array.prototype.slice.call(document.querySelectorAll("input[name=status]"));
  var category = document.getElementById("category");
  var none = document.getElementById("no-match");

  function apply(write) {
    var wanted = boxes.filter(function (b) { return b.checked; })
                      .map(function (b) { return b.value; });
    var shown = 0;
    clauses.forEach(function (clause) {
      var ok = wanted.indexOf(clause.dataset.status) >= 0 &&
               (!category.value || clause.dataset.category === category.value);
      clause.hidden = !ok;
      if (ok) { shown += 1; }
    });
    none.hidden = shown > 0;
    if (write && window.history && history.replaceState) {
      var query = "?status=" + wanted.join(",") +
                  (category.value ? "&category=" + category.value : "");
      try { history.replaceState(null, "", query + location.hash); } catch (e) { /* file: */ }
    }
  }

  function fromAddress() {
    var params = new URLSearchParams(location.search);
    if (params.has("status")) {
      var wanted = params.get("status").split(",");
      boxes.forEach(function (b) { b.checked = wanted.indexOf(b.value) >= 0; });
    }
    if (params.has("category")) { category.value = params.get("category"); }
  }

  var linked = document.getElementById("linked");
  var away = null;  // the clause shown on top, and the marker of its place in the list

  function reveal() {
    // A link to a clause (report.html#EDIT-03) opens it on top of the page, even when the
    // filters hid it: whatever shows the page from its top (a preview, a print, a screenshot)
    // shows the clause, and the page is not left scrolled into the middle of the list.
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target || !target.classList.contains("clause")) { return; }
    if (away) { away.mark.parentNode.replaceChild(away.clause, away.mark); }
    if (target.hidden) {
      boxes.forEach(function (b) { if (b.value === target.dataset.status) { b.checked = true; } });
      if (category.value && category.value !== target.dataset.category) { category.value = ""; }
      apply(true);
    }
    var mark = document.createComment(id);
    target.parentNode.replaceChild(mark, target);
    linked.appendChild(target);
    away = {clause: target, mark: mark};
    linked.hidden = false;
    target.open = true;
    window.scrollTo(0, 0);
  }

  function copy(button) {
    var text = button.dataset.copy;
    function done(ok) {
      button.textContent = ok ? "Copied" : "Select and copy";
      setTimeout(function () { button.textContent = "Copy"; }, 2000);
    }
    function fallback() {
      var area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(area);
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  boxes.forEach(function (b) { b.addEventListener("change", function () { apply(true); }); });
  category.addEventListener("change", function () { apply(true); });
  document.querySelectorAll("a[data-category]").forEach(function (link) {
    link.addEventListener("click", function () {
      category.value = link.dataset.category;
      boxes.forEach(function (b) { b.checked = true; });
      apply(true);
    });
  });
  document.querySelectorAll("button.copy").forEach(function (button) {
    button.addEventListener("click", function () { copy(button); });
  });
  window.addEventListener("hashchange", reveal);
  document.getElementById("filters").hidden = false;
  fromAddress();
  apply(false);
  reveal();
})();
"""
