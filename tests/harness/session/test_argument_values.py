"""The value the kit gives an argument the contract has no counterpart for: one rule for the
draft's defaults and for a declared path tool's other required arguments."""

import json

from agentconf.harness.session.argument_values import ANY_TEXT, required_value

# A batch-replace tool's required argument: JSON in a text, its form shown by an example.
REPLACEMENTS = {"type": "string", "description": "JSON array of objects with 'target' and "
                "'replacement' keys (e.g. [{\"target\": \"old\", \"replacement\": \"new\"}])"}


def test_a_text_holding_json_is_given_the_example_its_description_shows() -> None:
    """A filler text ("agentconf") was not JSON: every call of the tool was refused as invalid
    JSON, and the checks that drive its path were not judged, the reason blaming the path."""
    value, why = required_value(REPLACEMENTS) or (None, "")
    assert json.loads(value) == [{"target": "old", "replacement": "new"}], value
    assert "example" in why


def test_a_list_is_given_its_example_as_a_list() -> None:
    prop = {"type": "array", "description": "the edits, for example: [{\"old\": \"a\"}]"}
    assert required_value(prop) == ([{"old": "a"}], "the example its description gives")


def test_a_list_without_an_example_gets_no_value() -> None:
    assert required_value({"type": "array", "description": "the edits to make"}) is None


def test_a_value_the_description_asks_for_wins_over_any_text() -> None:
    assert required_value({"type": "string", "description": "must be 'utf-8'"})[0] == "utf-8"
    assert required_value({"type": "string", "description": "why"})[0] == ANY_TEXT


def test_brackets_that_are_no_json_are_no_example() -> None:
    prop = {"type": "string", "description": "a glob, e.g. [abc]*.txt"}
    assert required_value(prop) == (ANY_TEXT, "a text, as its description allows any")


def test_the_first_value_a_description_lists_as_available_is_sent() -> None:
    """A shell server requires `shell`, "Shell to use for execution. Available: ['bash', 'sh']":
    any other text was refused ("Shell '...' is not allowed"), and every command with it."""
    listed = {
        "Shell to use for execution. Available: ['bash', 'sh']": "bash",
        "Allowed values: utf-8, latin-1": "utf-8",
        "The mode, one of [fast, slow]": "fast",
        "Supported formats are: `json`, `text`": "json",
    }
    for description, value in listed.items():
        found = required_value({"type": "string", "description": description})
        assert found == (value, "the first of the values its description lists"), description
    for description in ("The shell command to execute", "Working directory, if available",
                        "Any note: free text"):
        assert required_value({"type": "string", "description": description})[0] == ANY_TEXT
