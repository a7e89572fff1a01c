"""The drafting corpus (fixtures/drafting/): real tools/list answers with hand-written mappings.

Each file must be well-formed, agree with the manifest that pins it, and its `expected` block must
only name what exists: advertised tools, properties of their schemas (nested targets such as
`edits[0].oldText` walked through items, $ref and anyOf), canonical tools and arguments of the
contract. Whether init --from drafts these mappings is another test's (branch init-from).
"""

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agentconf.contract.tools import CANONICAL_TOOLS

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "drafting"
MANIFEST = tomllib.loads((CORPUS / "corpus.toml").read_text("utf-8"))["entries"]
SCHEMA = json.loads((CORPUS / "corpus.schema.json").read_text("utf-8"))
FILES = sorted(CORPUS.glob("*.json"))
ENTRIES = [path for path in FILES if path.name != "corpus.schema.json"]

# The optional path tools of KEYS.md (branch `reach` adds them to the contract): allowed by name
# here until they are in agentconf/contract/tools.py on this branch.
PATH_TOOLS: dict[str, tuple[str, ...]] = {
    "move_file": ("source", "destination"), "copy_file": ("source", "destination"),
    "delete_file": ("path",), "make_directory": ("path",), "read_multiple_files": ("paths",),
    "directory_tree": ("path",), "file_info": ("path",),
}
_STEP = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")


def canonical_arguments(tool: str) -> tuple[str, ...] | None:
    if tool in CANONICAL_TOOLS:
        return CANONICAL_TOOLS[tool].arguments
    return PATH_TOOLS.get(tool)


def _resolve(schema: Any, root: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema itself, or the branches it stands for ($ref, anyOf, oneOf, allOf)."""
    if not isinstance(schema, dict):
        return []
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        target: Any = root
        for part in schema["$ref"][2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return _resolve(target, root)
    branches = [schema]
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key, []):
            branches += _resolve(branch, root)
    return branches


def target_exists(schema: dict[str, Any], target: str, said: str = "") -> bool:
    """`edits[0].oldText` names a property inside the tool's input schema, or a key of an
    object the schema leaves open (no properties) that the tool's description `said` names."""
    current = [schema]
    for name, indexes in _STEP.findall(target):
        found = [s["properties"][name] for c in current for s in _resolve(c, schema)
                 if isinstance(s.get("properties"), dict) and name in s["properties"]]
        open_objects = [s for c in current for s in _resolve(c, schema)
                        if s.get("type") == "object" and not s.get("properties")]
        if not found and open_objects and re.search(rf"\b{re.escape(name)}\b", said):
            found = [{}]
        current = found
        for _ in range(indexes.count("[")):
            current = [s["items"] for c in current for s in _resolve(c, schema)
                       if isinstance(s.get("items"), dict)]
    return bool(current)


def input_schema(tool: dict[str, Any]) -> dict[str, Any]:
    schema = tool.get("inputSchema", tool.get("input_schema"))
    return schema if isinstance(schema, dict) else {}


def problems(entry: dict[str, Any]) -> list[str]:
    """Everything in `expected` that names what is not there."""
    tools = {tool["name"]: tool for tool in entry["tools"]}
    expected = entry["expected"]
    found = []
    for canonical, mapping in expected["tools"].items():
        arguments = canonical_arguments(canonical)
        if arguments is None:
            found.append(f"{canonical} is not a canonical tool")
            continue
        tool = tools.get(mapping["name"])
        if tool is None:
            found.append(f"{canonical}: {mapping['name']} is not advertised")
            continue
        for argument, target in mapping.get("args", {}).items():
            if argument not in arguments:
                found.append(f"{canonical}: {argument} is not one of its arguments {arguments}")
            if not target_exists(input_schema(tool), target, str(tool.get("description", ""))):
                found.append(f"{canonical}: {mapping['name']} has no {target}")
        for target in mapping.get("defaults", {}):
            if not target_exists(input_schema(tool), target):
                found.append(f"{canonical}: default {target} is not in {mapping['name']}")
    for canonical, keys in expected.get("keys", {}).items():
        if isinstance(keys, dict) and canonical not in expected["tools"]:
            found.append(f"keys for {canonical}, which is not mapped")
    mapped = {mapping["name"] for mapping in expected["tools"].values()}
    for name, targets in expected.get("path_tools", {}).items():
        if name not in tools:
            found.append(f"path tool {name} is not advertised")
        elif name in mapped:
            found.append(f"path tool {name} is already a canonical tool")
        else:
            found += [f"path tool {name} has no {t}" for t in targets
                      if not target_exists(input_schema(tools[name]), t)]
    return found


def load(path: Path) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return entry


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.stem)
def test_every_corpus_file_is_well_formed(path: Path) -> None:
    jsonschema.validate(load(path), SCHEMA, format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.stem)
def test_every_file_is_the_entry_the_manifest_pins(path: Path) -> None:
    entry = load(path)
    assert entry["id"] == path.stem
    pinned = MANIFEST.get(entry["id"])
    assert pinned is not None, f"{entry['id']} is not in corpus.toml"
    for field in ("package", "version", "registry", "kind"):
        assert entry[field] == pinned[field], field


def test_every_manifest_entry_has_its_file() -> None:
    assert sorted(MANIFEST) == sorted(path.stem for path in ENTRIES)


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.stem)
def test_the_expected_mapping_names_only_what_exists(path: Path) -> None:
    assert problems(load(path)) == []


def test_the_corpus_holds_at_least_25_real_tool_systems() -> None:
    assert len(ENTRIES) >= 25


def test_a_python_entry_has_its_factory_in_the_corpus() -> None:
    factories = [CORPUS / entry["factory"].rpartition(":")[0]
                 for entry in MANIFEST.values() if entry["kind"] == "python"]
    assert factories and all(path.is_file() for path in factories)


def test_a_mapping_that_names_what_is_not_there_is_caught() -> None:
    """The check above can fail: each kind of mistake in a real entry is reported."""
    entry = load(CORPUS / "server-filesystem-2026.8.31.json")
    broken = copy.deepcopy(entry)
    edit = broken["expected"]["tools"]["edit_file"]
    edit["args"]["old_text"] = "edits[0].old_text"  # the schema spells it oldText
    edit["args"]["old_string"] = "path"  # not a canonical argument of edit_file
    broken["expected"]["tools"]["glob"] = {"name": "search_files"}  # not a canonical tool
    broken["expected"]["path_tools"]["read_media_file"] = ["file"]
    found = problems(broken)
    assert len(found) == 4, found
    assert problems(entry) == []


def test_a_file_missing_a_field_is_not_well_formed() -> None:
    entry = load(CORPUS / "server-filesystem-2026.8.31.json")
    del entry["stdout_noise"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(entry, SCHEMA)
