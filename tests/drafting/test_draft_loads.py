"""A draft always loads: what the drafter learnt in a shape the profile cannot hold is left out
and said, never the end of `init --from` (init_from/draft.py `_loading`)."""

from typing import Any

from agentconf.harness.profile.model import parse_profile
from agentconf.init_from.draft import _loading
from agentconf.init_from.findings import _code_locator
from agentconf.init_from.match import ToolGuess


def _profile(result: dict[str, Any]) -> Any:
    return parse_profile({"implementation": {"spec": "reference"},
                          "tools": {"bash": {"result": result}}})


def test_a_code_in_an_answer_that_is_a_list_is_located_by_a_pointer_the_profile_loads() -> None:
    # A TypeScript SDK server answers a validation failure as zod's list of issues.
    located = _code_locator([{"code": "custom", "message": "too small"}], structured=False)
    assert located == ("/0/code", "custom")
    assert _profile({"error": located[0]}).tools["bash"].result.error == "/0/code"


def test_a_code_in_structured_content_keeps_its_dotted_place() -> None:
    located = _code_locator({"failures": [{"error": {"code": "ENOENT"}}]})
    assert located == ("structuredContent.failures[0].error.code", "ENOENT")


def test_a_key_the_loader_rejects_is_left_out_and_named_on_a_todo_line() -> None:
    guess = ToolGuess("bash", "shell_execute", 1.0, keys={"result": {"error": "[0].code",
                                                                      "text": ["stdout"]}})
    mapped = {"bash": guess}

    def text() -> str:
        result = guess.keys.get("result", {})
        lines = ["[implementation]", 'spec = "reference"', "[tools.bash]",
                 f'name = "{guess.name}"', "[tools.bash.result]"]
        lines += [f"{key} = {value!r}".replace("'", '"') for key, value in result.items()]
        return "\n".join(lines) + "\n"

    drafted = _loading(text, mapped)
    assert "[0].code" not in drafted and 'text = ["stdout"]' in drafted
    assert guess.todo and guess.todo[0].startswith("left out result.error = '[0].code'")



def test_a_probe_refused_as_malformed_teaches_no_code_of_the_kind_it_provoked() -> None:
    from agentconf.init_from.findings import Findings, argument_errors
    from agentconf.init_from.patterns import Answer

    found = Findings()
    found.patterns = [("INVALID_ARGS", r'\A\[\s*\{\s*"code"', "a number for a text argument")]
    found.error_codes = {"custom": ("TIMEOUT", "a command over its timeout answered 'custom'")}
    found.spelled = {"custom": [Answer("TIMEOUT", "a command over its timeout",
                                       '[{"code": "custom", "message": "too small"}]')]}
    argument_errors(found)
    assert "custom" not in found.error_codes
    assert "no TIMEOUT was learned" in found.notes[-1]
