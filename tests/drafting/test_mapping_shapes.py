"""The mapping half of `init --from` on the shapes issue 25 saw it draft wrong on real tool
systems (each tool below as the issue describes it), beside the drafting corpus that holds it to
whole real listings (test_mapping_corpus.py)."""

from typing import Any

import pytest

from agentconf.init_from.shape import map_listing

S, INT, B = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}


def _tool(name: str, properties: dict[str, Any], required: list[str],
          description: str = "") -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": properties, "required": required}}


SHAPES = {
    "read_file taking file_name": (
        [_tool("read_file", {"file_name": S}, ["file_name"])],
        "read_file", {"name": "read_file", "args": {"path": "file_name"}}),
    "Serena's relative_path, needle and repl": (
        [_tool("replace_content", {"relative_path": S, "needle": S, "repl": S,
                                   "mode": {"type": "string", "enum": ["literal", "regex"]}},
               ["relative_path", "needle", "repl", "mode"], "Replaces content in a file")],
        "edit_file", {"name": "replace_content",
                      "args": {"path": "relative_path", "old_text": "needle", "new_text": "repl"},
                      "defaults": {"mode": "literal"}}),
    "Serena's substring_pattern": (
        [_tool("search_for_pattern", {"substring_pattern": S, "relative_path": S},
               ["substring_pattern"], "Search for a regular expression in files")],
        "grep", {"name": "search_for_pattern",
                 "args": {"pattern": "substring_pattern", "path": "relative_path"}}),
    "a fast_-prefixed family": (
        [_tool("fast_write_file", {"path": S, "content": S}, ["path", "content"])],
        "write_file", {"name": "fast_write_file", "args": {"path": "path", "content": "content"}}),
    "an edit with edits[]": (
        [_tool("edit", {"path": S, "edits": {"type": "array", "items": {
            "type": "object", "properties": {"oldText": S, "newText": S}}}},
            ["path", "edits"])],
        "edit_file", {"name": "edit", "args": {"path": "path", "old_text": "edits[0].oldText",
                                               "new_text": "edits[0].newText"}}),
    "grep's pattern a file glob, its content searchPattern": (
        [_tool("search_code", {"path": S, "pattern": dict(S, description="file glob, *.ts"),
                               "searchPattern": S}, ["searchPattern"])],
        "grep", {"name": "search_code", "args": {"pattern": "searchPattern", "path": "path",
                                                 "include": "pattern"}}),
    "a search of names unless content_search": (
        [_tool("search", {"path": S, "pattern": S,
                          "content_search": dict(B, description="search file contents")},
               ["path", "pattern"], "Searches file names, or contents with content_search")],
        "grep", {"name": "search", "args": {"pattern": "pattern", "path": "path"},
                 "defaults": {"content_search": True, "path": "."}}),
    "a create that asks unless overwrite": (
        [_tool("create", {"filePath": S, "text": S, "overwrite": B}, ["filePath", "text"],
               "Creates a file; asks for a confirmation unless overwrite is true")],
        "write_file", {"name": "create", "args": {"path": "filePath", "content": "text"},
                       "defaults": {"overwrite": True}}),
    "a shell that requires workdir": (
        [_tool("shell", {"command": S, "workdir": S}, ["command", "workdir"], "Runs a command")],
        "bash", {"name": "shell", "args": {"command": "command"},
                 "defaults": {"workdir": "{root}"}}),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_shape_seen_drafted_wrong_is_mapped_by_what_it_does(shape: str) -> None:
    listing, canonical, expected = SHAPES[shape]
    mapped = map_listing(listing)
    assert canonical in mapped, {c: g.name for c, g in mapped.items()}
    guess = mapped[canonical]
    got = {"name": guess.name, "args": guess.args}
    if guess.keys.get("defaults"):
        got["defaults"] = guess.keys["defaults"]
    assert got == expected, guess.evidence


def test_a_window_counting_from_zero_is_offset_base_zero() -> None:
    read = _tool("read_file", {"path": S, "offset": dict(INT, description="line to start at, "
                                                            "counting from 0"), "length": INT},
                 ["path"])
    keys = map_listing([read])["read_file"].keys
    assert (keys["window"], keys["offset_base"]) == ("offset_limit", 0)
