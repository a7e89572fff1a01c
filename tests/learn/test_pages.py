"""docs/learn/ is generated from the course, the contract, the reference and the gallery."""

from pathlib import Path

from agentconf.learn.course import load_course
from agentconf.learn.pages import DOCS, INDEX, page_name, render_pages, write_pages


def test_the_committed_pages_are_current() -> None:
    pages = render_pages()
    committed = {path.name: path.read_text("utf-8") for path in DOCS.glob("*.md")}
    assert committed == pages, "docs/learn/ is stale: run python -m agentconf.learn.pages"


def test_every_lesson_has_a_page_that_teaches_each_of_its_clauses() -> None:
    pages = render_pages()
    for number, lesson in enumerate(load_course().lessons, start=1):
        page = pages[page_name(number, lesson)]
        assert f"]({page_name(number, lesson)})" in pages[INDEX]
        for clause_id in lesson.clause_ids():
            assert f"\n## {clause_id}\n" in page
    confinement = pages["04-confinement.md"]
    assert "CVE-2025-53110" in confinement and "`PrefixContainment`" in confinement
    assert "agentconf/reference/sandbox/paths.py:" in confinement


def test_writing_the_pages_removes_a_page_no_lesson_has_any_more(tmp_path: Path) -> None:
    (tmp_path / "99-gone.md").write_text("old\n", encoding="utf-8")
    write_pages(tmp_path)
    assert not (tmp_path / "99-gone.md").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(render_pages())
