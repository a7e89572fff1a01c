"""`init --from`: a refusal shaped as a success, told by a field of its JSON answer.

Some tools answer a call that must fail as a success whose JSON holds a flag that says why
(`{"content": null, "is_binary": true}` to a binary file, `"timed_out": true` beside exit code
124): the flag's name says the code's kind. Drafted as `[tools.X.result].flags`, so the checks
read the refusal the implementation made, and its code.
"""

from typing import Any

from agentconf.harness.session.answers import document_of, leaves
from agentconf.harness.session.result import Result
from agentconf.init_from.match import words
from agentconf.init_from.words import says_kind


def flag_of(code: str, data: str, successes: tuple[str, ...] | list[str] = ()) -> str | None:
    """The field of a JSON answer (by its path, nested too) that is true and whose name says
    `code`'s kind, unless a real success of the same tool (`successes`) has it true too."""
    key = next((path for path, value in leaves(document_of(data)) if value is True
                and says_kind(code, " ".join(words(path.rsplit(".", 1)[-1])))), None)
    if key is None or any(_true(success, key) for success in successes):
        return None
    return key


def flagged(keys: dict[str, dict[str, Any]], evidence: dict[str, list[str]], code: str,
            label: str, result: Result, successes: list[str]) -> bool:
    """Drafts the flag of a call that must fail with `code` and answered success, if it has
    one: `keys` and `evidence` of the tool it called."""
    tool = result.request.tool
    key = flag_of(code, result.data, successes)
    if key is None or not tool:
        return False
    keys.setdefault(tool, {}).setdefault("result", {}).setdefault("flags", {})[key] = code
    evidence.setdefault(tool, []).append(
        f"probe: {label} answered success with {key}: true: that field, true, is {code}")
    return True


def _true(text: str, key: str) -> bool:
    return dict(leaves(document_of(text))).get(key) is True
