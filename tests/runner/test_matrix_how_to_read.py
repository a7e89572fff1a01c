"""The matrix site says how to read it: a line for every mark a cell can show, and for a row
that could not run, each saying what the mark promises."""

from agentconf.harness.report.matrix_html import HOW_TO_READ, MARKS, render_matrix_html


def test_every_mark_a_cell_can_show_has_a_line_saying_what_it_means() -> None:
    explained = {css for css, _, _ in HOW_TO_READ}
    assert set(MARKS) <= explained, set(MARKS) - explained
    assert {"escape", "fail known"} <= explained  # an escape and a triaged departure
    assert any(mark == "could not run" for _, mark, _ in HOW_TO_READ)
    assert all(len(meaning.split()) >= 6 for _, _, meaning in HOW_TO_READ)


def test_the_page_shows_the_lines_above_the_grid() -> None:
    page = render_matrix_html({"generated": "2026-11-27", "kit_version": "0", "contract_version":
                               "0", "implementations": [], "clauses": [], "packages": []})
    how = page.index("How to read this")
    assert how < page.index('<table'), page[:2000]
    for _, _, meaning in HOW_TO_READ:
        assert meaning.replace("'", "&#x27;").split(";")[0][:30] in page[how:], meaning
