"""Capabilities derived from the mapped tool's own schema
(harness/session/missing_capabilities.py): a listing tool with no pattern property makes LIST-02
n/a with the key to set, as a read tool with no line window makes READ-06 n/a; a profile that says
otherwise wins."""

from typing import Any

from agentconf.harness.profile.model import parse_profile
from agentconf.harness.session.missing_capabilities import missing_argument


def _listing(properties: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {"list_directory": {"name": "list_directory",
                               "inputSchema": {"type": "object", "properties": properties}}}


def test_a_listing_tool_without_a_pattern_makes_list_pattern_not_applicable() -> None:
    profile = parse_profile({"tools": {"list_files": {"name": "list_directory"}}})
    why = missing_argument("list_pattern", profile, _listing({"path": {"type": "string"}}))
    assert why is not None and "[tools.list_files].args.pattern" in why
    assert "list_directory" in why


def test_a_listing_tool_with_the_mapped_pattern_keeps_the_capability() -> None:
    profile = parse_profile({"tools": {"list_files": {
        "name": "list_directory", "args": {"pattern": "glob"}}}})
    properties = {"path": {"type": "string"}, "glob": {"type": "string"}}
    assert missing_argument("list_pattern", profile, _listing(properties)) is None


def test_the_profile_has_the_last_word() -> None:
    profile = parse_profile({"tools": {"list_files": {"name": "list_directory"}},
                             "capabilities": {"list_pattern": True}})
    assert missing_argument("list_pattern", profile, _listing({"path": {}})) is None


def _shell(description: str, annotations: dict[str, Any] | None = None) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": "bash", "description": description, "input_schema": {}}
    if annotations is not None:
        tool["annotations"] = annotations
    return {"bash": tool}


def test_a_shell_is_confined_only_when_it_says_so_or_the_profile_does() -> None:
    plain = parse_profile({})
    claims = "Run a command in a sandbox confined to the workspace."
    assert missing_argument("shell_confined", plain, _shell(claims)) is None
    assert missing_argument("shell_confined", plain, _shell("Run it.", {"sandboxed": True})) is None
    for said in ("Run a command with bash -c in the root.", "Runs commands; not sandboxed.",
                 "Unsandboxed: anything the user can do."):
        why = missing_argument("shell_confined", plain, _shell(said))
        assert why is not None and "the shell is not confined" in why, said
    switched = parse_profile({"capabilities": {"shell_confined": True}})
    assert missing_argument("shell_confined", switched, _shell("Run it.")) is None


def test_a_search_without_include_makes_grep_include_not_applicable() -> None:
    """GREP-07 once failed on a search whose schema has no include: the argument was never sent,
    so the files it would have left out came back, and the check read that as a departure."""
    profile = parse_profile({"tools": {"grep": {"name": "search_text"}}})
    listing = {"search_text": {"name": "search_text", "inputSchema": {
        "type": "object", "properties": {"pattern": {"type": "string"}}}}}
    why = missing_argument("grep_include", profile, listing)
    assert why is not None and "[tools.grep].args.include" in why
    listing["search_text"]["inputSchema"]["properties"]["include"] = {"type": "string"}
    assert missing_argument("grep_include", profile, listing) is None


def test_a_path_in_a_shells_description_is_no_claim_of_a_sandbox() -> None:
    """A server that prints its root in its description names the kit's own `.../sandbox/root`:
    that is no claim of confinement (SHELL-13 once held such a shell to one)."""
    plain = parse_profile({})
    said = "Run a shell command in /dev/shm/ws-1/sandbox/root (the working directory)."
    why = missing_argument("shell_confined", plain, _shell(said))
    assert why is not None and "the shell is not confined" in why
