"""LIST: names relative to the root, glob filters, classified failures, bounded listings
(Claude Code: glob tool; @clarvis/agent-tools: bounded output).
"""

import pytest
from _checks import refused, took_effect

from agentconf.harness.session.answers import readable
from agentconf.harness.verdicts.errors import not_applicable


@pytest.mark.clause("LIST-01")
def test_listing_the_root_shows_its_files(ws, client) -> None:
    ws.write("top.txt", "x")
    ws.write("sub/nested.txt", "x")
    result = client.call("list_files", path=".")
    assert result.success, result.evidence()
    assert "top.txt" in result.data, result.evidence()
    assert "sub" in result.data, result.evidence()


@pytest.mark.clause("LIST-01")
def test_names_are_relative_to_the_root_not_absolute(ws, client) -> None:
    ws.write("top.txt", "x")
    ws.write("sub/nested.txt", "x")
    result = client.call("list_files", path=str(ws.root))
    if not took_effect(result) and client.call("list_files", path=".").success:
        # Whether an absolute path inside the root is taken is CONFINE-10's check, not this
        # one's (@shtse8/filesystem-mcp refuses every absolute path).
        not_applicable(f"list_files refused the root's absolute path ({result.error}) and "
                       "listed '.': the names it gives are judged by the other LIST-01 checks")
    assert result.success, result.evidence()
    assert "top.txt" in result.data, result.evidence()
    assert str(ws.root) not in result.data, result.evidence()
    assert str(ws.sandbox) not in result.data, result.evidence()


@pytest.mark.clause("LIST-01")
def test_listing_a_subfolder_names_its_files_from_the_root(ws, client) -> None:
    ws.write("sub/deeper/one.txt", "x")
    ws.write("sub/two.txt", "x")
    ws.write("elsewhere.txt", "x")
    result = client.call("list_files", path="sub")
    assert result.success, result.evidence()
    assert "sub/two.txt" in result.data, result.evidence()
    assert "elsewhere.txt" not in result.data, result.evidence()


@pytest.mark.clause("LIST-01")
@pytest.mark.parametrize("name", ["with space.txt", "é中😀.txt", "..dots.txt", ".hidden-file"])
def test_unusual_names_are_listed_as_they_are(ws, client, name: str) -> None:
    ws.write(name, "x")
    result = client.call("list_files", path=".")
    assert result.success, result.evidence()
    assert name in readable(result.data), result.evidence()



@pytest.mark.clause("LIST-02")
@pytest.mark.parametrize(("pattern", "kept", "dropped"), [
    ("*.py", "main.py", "notes.md"),
    ("*.md", "notes.md", "main.py"),
    ("main.*", "main.py", "notes.md"),
    ("**/*.py", "pkg/mod.py", "pkg/data.json"),
])
def test_a_pattern_filters_the_listing_by_glob(ws, client, pattern, kept, dropped) -> None:
    for name in ("main.py", "notes.md", "pkg/mod.py", "pkg/data.json"):
        ws.write(name, "x")
    result = client.call("list_files", path=".", pattern=pattern)
    assert result.success, result.evidence()
    assert kept in result.data, result.evidence()
    assert dropped not in result.data, result.evidence()


@pytest.mark.clause("LIST-03")
@pytest.mark.parametrize("path", ["missing", "missing/deeper", "sub/missing"])
def test_listing_a_missing_folder_is_not_found(ws, client, path: str) -> None:
    ws.mkdir("sub")
    result = client.call("list_files", path=path)
    refused(result, "NOT_FOUND")


@pytest.mark.clause("LIST-03")
def test_listing_a_file_is_not_a_directory_or_lists_that_file(ws, client) -> None:
    ws.write("only.txt", "x")
    ws.write("other.txt", "x")
    result = client.call("list_files", path="only.txt")
    if took_effect(result):
        assert "only.txt" in result.data and "other.txt" not in result.data, result.evidence()
    else:
        refused(result, "NOT_A_DIRECTORY")


@pytest.mark.clause("LIST-04")
def test_a_listing_of_a_huge_tree_is_bounded(ws, client) -> None:
    limits = client.limits_for("list_files")
    name_length = 60
    count = 3 * limits.max_output_chars // name_length + 1
    for index in range(count):
        ws.write(f"tree/{index:06d}-" + "n" * (name_length - 11) + ".txt", b"")
    result = client.call("list_files", path="tree")
    assert len(result.data) <= limits.max_output_chars + limits.marker_budget_chars, (
        f"{len(result.data)} characters"
    )
    assert result.data.strip(), result.evidence()
