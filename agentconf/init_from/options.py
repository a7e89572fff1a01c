"""A required argument the draft fills with its schema's first option (`root: "home" | "data"`)
is a premise of every call of the tool: where that tool's calls cannot be proven with it, each
other option is tried on the live session, and the first that proves them is drafted — before
any probe learns a refusal's words from calls that all fail for the one wrong option.
"""

from typing import Any

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.init_from.match import ToolGuess
from agentconf.init_from.premises import CALLS, Rule, prove
from agentconf.init_from.reads import session_client
from agentconf.init_from.schemas import flat_properties, schema_of


def settle_options(adapter: Any, mapped: dict[str, ToolGuess], tables: dict[str, Any],
                   ws: SandboxWorkspace, listing: list[dict[str, Any]]) -> None:
    """Each drafted first option of a tool whose calls fail with it, replaced by the first other
    option its calls work with; one found for an argument serves every tool offering the same."""
    chosen: dict[tuple[str, tuple[Any, ...]], Any] = {}

    def works(rule: Rule, tried: dict[str, Any]) -> bool:
        tables["tools"][rule.tool].setdefault("defaults", {}).update(tried)
        return prove(session_client(adapter, tables, ws, listing), rule).proven

    # In the rules' order: a read settled before the edit whose read guard it opens.
    for rule in (rule for rule in CALLS if rule.tool in mapped):
        guess = mapped[rule.tool]
        choices = _first_options(guess, listing)
        known = _known(choices, chosen)
        if not choices:
            continue
        if known and works(rule, known):
            _drafted(guess, known, choices)
            continue
        if works(rule, {key: options[0] for key, options in choices.items()}):
            continue
        for key, options in choices.items():
            found = next((option for option in options[1:] if works(rule, {key: option})), None)
            if found is None:
                works(rule, {key: options[0]})
                continue
            chosen[(key, tuple(options))] = found
            _drafted(guess, {key: found}, choices)
    for guess in mapped.values():  # a tool no premise proves takes what served the others
        choices = _first_options(guess, listing)
        if known := _known(choices, chosen):
            tables["tools"][guess.canonical].setdefault("defaults", {}).update(known)
            _drafted(guess, known, choices)


def _known(choices: dict[str, list[Any]], chosen: dict[tuple[str, tuple[Any, ...]], Any]
           ) -> dict[str, Any]:
    return {key: chosen[(key, tuple(options))] for key, options in choices.items()
            if (key, tuple(options)) in chosen}


def _first_options(guess: ToolGuess, listing: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The drafted defaults that are their enum's first of several options, by target."""
    tool = next((tool for tool in listing if tool.get("name") == guess.name), None)
    if tool is None:
        return {}
    properties = flat_properties(schema_of(tool))
    found = {}
    for key, value in (guess.keys.get("defaults") or {}).items():
        options = (properties.get(key) or {}).get("enum")
        if isinstance(options, list) and len(options) > 1 and value == options[0]:
            found[key] = options
    return found


def _drafted(guess: ToolGuess, values: dict[str, Any], choices: dict[str, list[Any]]) -> None:
    for key, value in values.items():
        guess.keys.setdefault("defaults", {})[key] = value
        first = choices[key][0]
        guess.evidence = [
            line.replace(f"sent as {first!r} (its schema's first option",
                         f"sent as {value!r} (the first of its schema's options "
                         f"{choices[key]!r} its calls worked with; {first!r} failed")
            for line in guess.evidence]
