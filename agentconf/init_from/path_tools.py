"""`agentconf init --from`: the tools that take paths besides the six canonical ones.

The contract's optional path tools (move_file, copy_file, delete_file, make_directory,
read_multiple_files, directory_tree, file_info) are mapped as the canonical ones are; every other
advertised tool that takes a path is listed with its path arguments' targets (`operations[0].
source`, `paths[0]`), for `[tools.extra.NAME] paths`. Pure, like shape.map_listing.
"""

import re
from typing import Any

from agentconf.init_from.match import ToolGuess, match_tools, types_of, words
from agentconf.init_from.schemas import flat_properties, schema_of
from agentconf.init_from.shape import shape_keys
from agentconf.init_from.words import PATH_TOOLS

# Words of an argument's name that make it a path (`notebook_path`, `cwd`, `source_dir`), and
# words that do only alone (`source`, `destination`, `file`; not `new_source`).
_PATH_WORDS = {"path", "paths", "dir", "directory", "cwd", "folder", "filepath"}
_ALONE = {"source", "destination", "file", "target", "dir", "path", "local", "extract", "to"}
_NOT_PATHS = {"name", "size", "type", "pattern", "hash", "content", "contents", "mode", "glob",
              "query", "regex", "text", "command", "revision", "sha", "etag", "checksum",
              "digest", "token", "version"}
# A description that calls the argument a path, whatever its name (`left`: "path of the first
# file to compare"); not one that speaks of another argument's ("the revision read_file
# reported for this path").
_SAYS_PATH = re.compile(r"(?i)(?<!this )(?<!that )(?<!its )(?<!same )"
                        r"\b(?:path|paths|file ?path|directory|folder)\b(?! ?(?:pattern|glob))")


def map_path_tools(listing: list[dict[str, Any]], mapped: dict[str, ToolGuess]
                   ) -> tuple[dict[str, ToolGuess], dict[str, list[str]]]:
    """The optional canonical path tools, and every other tool's path arguments by its name."""
    used = {guess.name for guess in mapped.values()}
    # Once the contract has them (branch reach), map_listing maps them with the six.
    optional = {name: guess for name, guess in mapped.items() if name in PATH_TOOLS}
    found = match_tools(listing, [name for name in PATH_TOOLS if name not in optional], used)
    by_name = {str(tool.get("name")): tool for tool in listing if isinstance(tool, dict)}
    for guess in found.values():
        shape_keys(guess, by_name[guess.name])
    optional.update(found)
    taken = used | {guess.name for guess in optional.values()}
    others = {name: targets for name, tool in by_name.items()
              if name not in taken and (targets := path_targets(tool))}
    return optional, others


def path_targets(tool: dict[str, Any]) -> list[str]:
    """Where a tool takes paths: string properties named like one, `[0]` for a list of them."""
    targets = []
    for target, prop in flat_properties(schema_of(tool)).items():
        if target.endswith("[0]"):
            continue  # an item of a list of strings: its list below names it
        # `file1` and `file2` of a compare tool are files as `file` is.
        own = {word.rstrip("0123456789") or word for word in words(target.rsplit(".", 1)[-1])}
        file_name = own in ({"file", "name"}, {"filename"})  # agno's file_name is a path
        named = bool(own & _PATH_WORDS) or file_name or (
            own <= _ALONE and bool(own & {"source", "destination", "file", "extract"})) or (
            _SAYS_PATH.search(str(prop.get("description") or "")) is not None)
        if not named or (own & _NOT_PATHS and not file_name):
            continue
        types = types_of(prop)
        if "string" in types:
            targets.append(target)
        elif "array" in types and types_of(prop.get("items") or {}) == {"string"}:
            targets.append(f"{target}[0]")
    return targets
