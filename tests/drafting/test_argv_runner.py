"""`init --from` tells an argv runner from a shell by its command argument's type: a list of
strings is exec's argv (judged by EXEC), a string is bash's command line (judged by SHELL); a
tool that takes either is a shell. An allow-list its description names is drafted onto exec."""

import tomllib
from typing import Any

from agentconf.harness.profile.model import parse_profile
from agentconf.init_from.probe import Findings
from agentconf.init_from.profile_text import render
from agentconf.init_from.shape import map_listing

ARGV = {"type": "array", "items": {"type": "string"}, "description": "Program and arguments"}
LINE = {"type": "string", "description": "The command line"}
SECONDS = {"type": "number", "description": "Timeout in seconds"}


def _tool(name: str, properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {
        "type": "object", "properties": properties, "required": [next(iter(properties))]}}


RUNNER = _tool("run_program", {"args": ARGV, "timeout": SECONDS},
               "Runs a program without a shell.\nAllowed commands: echo, ls, cat")


def test_an_argv_runner_is_exec_with_its_allow_list() -> None:
    mapped = map_listing([RUNNER])
    assert set(mapped) == {"exec"}
    assert mapped["exec"].name == "run_program"
    assert mapped["exec"].args == {"argv": "args", "timeout_ms": "timeout"}
    assert mapped["exec"].keys["allowed_programs"] == ["echo", "ls", "cat"]
    assert mapped["exec"].keys["units"] == {"timeout_ms": "s"}


def test_a_command_line_is_bash_and_never_its_list_items() -> None:
    shell = _tool("execute_command", {"command": LINE})
    assert {name: guess.name for name, guess in map_listing([shell]).items()} == {
        "bash": "execute_command"}
    # An argv named `command`: exec's, and bash never takes its first item for a command line.
    runner = _tool("execute_command", {"command": ARGV})
    mapped = map_listing([runner])
    assert set(mapped) == {"exec"} and mapped["exec"].args == {"argv": "command"}


def test_a_tool_taking_a_string_or_an_array_is_a_shell() -> None:
    either = _tool("shell", {"command": {"anyOf": [LINE, ARGV]}})
    assert set(map_listing([either])) == {"bash"}


def test_a_shell_and_an_argv_runner_side_by_side_are_each_their_own() -> None:
    mapped = map_listing([_tool("shell", {"command": LINE}), RUNNER])
    assert {name: guess.name for name, guess in mapped.items()} == {
        "bash": "shell", "exec": "run_program"}


def test_the_draft_of_an_argv_runner_loads_as_a_profile() -> None:
    listing = [RUNNER]
    text = render("cmd:true", "argv-runner", listing, map_listing(listing), False, Findings(),
                  [])
    profile = parse_profile(tomllib.loads(text))
    exec_tool = profile.tool("exec")
    assert exec_tool.name == "run_program", text
    assert exec_tool.target("argv") == "args", text
    assert exec_tool.allowed_programs == ["echo", "ls", "cat"], text
    assert profile.tool("bash").name == "bash", text  # not mapped: bash is n/a, never failed


def test_a_default_timeout_its_schema_states_is_the_one_shell_14_waits_for() -> None:
    cases = [({"type": "number", "description": "Execution timeout in seconds. Default 60."},
              60_000),
             ({"type": "integer", "description": "Timeout (ms), defaults to 120000"}, 120_000),
             ({"type": "integer", "description": "Timeout in ms", "default": 45000}, 45_000),
             ({"type": "number", "description": "Timeout; default: 2 minutes"}, 120_000),
             ({"type": "number", "description": "Timeout in seconds"}, None)]
    for prop, expected in cases:
        mapped = map_listing([_tool("run", {"command": LINE, "timeoutSeconds": prop})])
        assert mapped["bash"].args.get("timeout_ms") == "timeoutSeconds", mapped["bash"].args
        stated = mapped["bash"].limits.get("shell_timeout_ms")
        assert stated == expected, (prop, mapped["bash"].evidence)
    # Claude Code's Bash says it in the tool's description, the argument's unit apart.
    bash = _tool("Bash", {"command": LINE, "timeout": {
        "type": "number", "description": "Optional timeout in milliseconds (max 600000)"}},
        "You may specify an optional timeout in milliseconds (up to 600000ms / 10 minutes). "
        "By default, your command will timeout after 120000ms (2 minutes).")
    assert map_listing([bash])["bash"].limits == {"shell_timeout_ms": 120_000}
    # ... and it reaches the profile the checks read.
    listing = [_tool("run", {"command": LINE, "timeoutSeconds": cases[0][0]})]
    text = render("cmd:true", "shell", listing, map_listing(listing), False, Findings(), [])
    profile = parse_profile(tomllib.loads(text))
    assert profile.limits_for("bash").shell_timeout_ms == 60_000, text
