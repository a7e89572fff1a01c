"""The mapping half of `init --from` (init_from/shape.map_listing: which listed tool is which
canonical tool, its arguments, defaults and keys; nothing is called) against the drafting corpus:
real `tools/list` answers of real tool systems (fixtures/drafting/, captured by
scripts/capture_corpus.py), each with an expected mapping written by hand from its schemas,
descriptions and source. One test per implementation, so a regression names it.

The six canonical tools (and apply_patch, tool_search) and the optional path tools of KEYS.md
are compared apart, the path tools with every other tool's path arguments. A key the schema
cannot tell and the probe settles is listed in PROBE_SETTLED with the reason; for it the mapping
must say it left it to the probe.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from agentconf.contract import CANONICAL_TOOLS
from agentconf.init_from.match import ToolGuess
from agentconf.init_from.path_tools import map_path_tools
from agentconf.init_from.shape import map_listing
from agentconf.init_from.words import PATH_TOOLS

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "drafting"
ENTRIES = sorted(path for path in CORPUS.glob("*.json") if path.name != "corpus.schema.json")

# Entries whose mapping cannot be read from their listing, and why (strict: fixed, it fails).
NOT_IN_THE_LISTING = {
    "agno-coding-3.1.10": "run_shell's allow-list is in the toolkit's configuration, not in its "
                          "listing (the description only says there is one)",
    "codemcp-0.6.0": "its one tool's `subtool` values (ReadFile, EditFile, Grep, Glob, RM) are "
                     "told in the answer to its init call, not in tools/list",
}
# Entries whose listing says it only in words the drafter does not read yet (strict: read, it
# fails), and what.
NOT_READ_YET = {
    "code-editor-mcp-0.2.5": "read_files' request keys and edit_blocks' edit keys are told only in "
                             "the tool's description, as an example of the object; and "
                             "dir_ops' `create` is not drafted as make_directory (a write's "
                             "word as often as a folder's)",
}
# (entry id, canonical tool, key) -> why only the probe can settle it.
PROBE_SETTLED = {
    ("fast-filesystem-mcp-3.5.2", "read_file", "offset_base"):
        "line_start is 0-based in its source; the schema says only 'Starting line number'",
}


def mapping_view(mapped: dict[str, ToolGuess]) -> dict[str, Any]:
    """The mapping in the drafting corpus's `expected` form (docs/profiles.md): tools with their
    name, every mapped argument and defaults; the other keys per tool."""
    tools: dict[str, Any] = {}
    keys: dict[str, Any] = {}
    for canonical, guess in mapped.items():
        entry: dict[str, Any] = {"name": guess.name, "args": dict(guess.args)}
        if guess.keys.get("defaults"):
            entry["defaults"] = dict(guess.keys["defaults"])
        tools[canonical] = entry
        rest = {key: value for key, value in guess.keys.items() if key != "defaults"}
        if rest:
            keys[canonical] = rest
    return {"tools": tools, "keys": keys}


def _canonical(table: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in table.items() if name in CANONICAL_TOOLS}


def _marked(differences: dict[str, str]) -> list[Any]:
    return [pytest.param(path, marks=pytest.mark.xfail(reason=differences[path.stem],
                                                       strict=True))
            if path.stem in differences else path for path in ENTRIES]


@pytest.mark.parametrize("entry", _marked(NOT_IN_THE_LISTING | NOT_READ_YET),
                         ids=[path.stem for path in ENTRIES])
def test_the_draft_maps_a_real_listing_as_written_by_hand(entry: Path) -> None:
    document = json.loads(entry.read_text("utf-8"))
    expected = document["expected"]
    mapped = map_listing(document["tools"])
    got = mapping_view(mapped)
    want_keys = _canonical(expected.get("keys", {}))
    for (entry_id, tool, key), why in PROBE_SETTLED.items():
        if entry_id != document["id"]:
            continue
        assert any("not in the schema" in line for line in mapped[tool].evidence), why
        want_keys.get(tool, {}).pop(key, None)
        got["keys"].get(tool, {}).pop(key, None)
    assert got["tools"] == _canonical(expected.get("tools", {})), expected.get("notes")
    assert _unordered(got["keys"]) == _unordered(want_keys), expected.get("notes")


def _unordered(keys: dict[str, Any]) -> dict[str, Any]:
    """An allow-list is a set: its order in a description is the server's hash order."""
    return {tool: {key: sorted(value) if key == "allowed_programs" else value
                   for key, value in table.items()} for tool, table in keys.items()}


# Entries whose path tools the draft lists differently, and why (strict: fixed, it fails).
PATH_DIFFERENCES = {
    "claude-code-2.1.331": "the corpus leaves out DesignSync (claude.ai design projects; "
                           "localDir is a local folder), ReportFindings (findings[0].file names "
                           "a file in a report) and Workflow (scriptPath): their arguments are "
                           "named as paths",
    "codemcp-0.6.0": NOT_IN_THE_LISTING["codemcp-0.6.0"],
    "code-editor-mcp-0.2.5": "dir_ops' `create` is not drafted as make_directory (a write's "
                             "word as often as a folder's)",
}


@pytest.mark.parametrize("entry", _marked(PATH_DIFFERENCES), ids=[path.stem for path in ENTRIES])
def test_the_draft_finds_the_path_tools_written_by_hand(entry: Path) -> None:
    """The optional canonical path tools of KEYS.md, and every other tool's path arguments."""
    document = json.loads(entry.read_text("utf-8"))
    expected = document["expected"]
    optional, others = map_path_tools(document["tools"], map_listing(document["tools"]))
    want = {name: table for name, table in expected.get("tools", {}).items()
            if name in PATH_TOOLS}
    assert mapping_view(optional)["tools"] == want, expected.get("notes")
    assert {name: sorted(targets) for name, targets in others.items()} == {
        name: sorted(targets) for name, targets in (expected.get("path_tools") or {}).items()}


@pytest.mark.parametrize("entry", ENTRIES, ids=[path.stem for path in ENTRIES])
def test_the_draft_of_a_real_listing_loads_as_a_profile(entry: Path) -> None:
    """Rendered without probe findings (argv lists, nested defaults keys, TODO lines), the
    draft is a profile the kit loads as it is."""
    import tomllib

    from agentconf.harness.profile.model import parse_profile
    from agentconf.init_from.probe import Findings
    from agentconf.init_from.profile_text import render

    document = json.loads(entry.read_text("utf-8"))
    listing = document["tools"]
    mapped = map_listing(listing)
    text = render("cmd:true", document["id"], listing, mapped, False, Findings(),
                  ["{home}/.state"])
    profile = parse_profile(tomllib.loads(text))
    assert {name: profile.tool(name).name for name in mapped} == {
        name: guess.name for name, guess in mapped.items()}, text
