"""The starter's limits.py says it mirrors the course's agentconf.toml: every number the profile
declares under [limits] is a constant there with the same value (VALIDATE-06 once judged a
learner's 60 against the profile's 40, which limits.py never mentioned)."""

import ast
import tomllib
from pathlib import Path

STARTER = Path(__file__).resolve().parents[2] / "agentconf" / "learn" / "starter" / "python"


def _constants(path: Path) -> dict[str, object]:
    """The module's names and values: it is a list of constants, run as such."""
    namespace: dict[str, object] = {}
    exec(compile(ast.parse(path.read_text("utf-8")), str(path), "exec"), namespace)
    return namespace


def test_every_limit_of_the_profile_is_a_constant_of_limits_py_with_the_same_value() -> None:
    profile = tomllib.loads((STARTER / "agentconf.toml.tmpl").read_text("utf-8"))
    constants = _constants(STARTER / "mytools" / "limits.py.tmpl")
    assert profile["limits"]
    for name, value in profile["limits"].items():
        assert constants.get(name.upper()) == value, (name, value, constants.get(name.upper()))
