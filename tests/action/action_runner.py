"""Runs a composite action's steps (action.yml) as GitHub's runner would, on this machine: each
`run` step with bash (`-eo pipefail`), its `${{ }}` expressions filled from the inputs, the
earlier steps' outputs and a few runner contexts; GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and
GITHUB_ENV as files. A `uses` step is not run: what it would have been given is recorded.

Only the expression language action.yml uses is understood (context lookups, string literals,
==, !=, &&, ||, !, always(), success(), failure(), hashFiles(), format()); anything else fails
the test rather than being guessed."""

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ACTION = Path(__file__).resolve().parents[2] / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
_TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\)|,)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*))")
_STATUS = ("always(", "failure(", "cancelled(", "success(")


@dataclass
class Step:
    name: str
    ran: bool
    outcome: str = "skipped"  # success, failure or skipped, as steps.<id>.outcome
    status: int | None = None  # a run step's exit status
    outputs: dict[str, str] = field(default_factory=dict)
    given: dict[str, str] = field(default_factory=dict)  # a uses step's `with`, rendered
    output: str = ""  # a run step's stdout and stderr


@dataclass
class Run:
    steps: list[Step]
    summary: str

    def step(self, name: str) -> Step:
        return next(step for step in self.steps if name in step.name)


class Contexts:
    def __init__(self, inputs: dict[str, str], extra: dict[str, Any], workspace: Path) -> None:
        self.values: dict[str, Any] = {"inputs": inputs, "steps": {}, **extra}
        self.workspace = workspace
        self.failed = False

    def lookup(self, path: str) -> Any:
        value: Any = self.values
        for part in path.split("."):
            value = value.get(part, "") if isinstance(value, dict) else ""
        return value

    def evaluate(self, text: str) -> Any:
        python = []
        text = text.strip()
        for match in _TOKEN.finditer(text):
            string, op, name = match.group("string", "op", "name")
            if string is not None:
                python.append(repr(string[1:-1].replace("''", "'")))
            elif op is not None:
                python.append({"&&": " and ", "||": " or ", "!": " not "}.get(op, op))
            elif text[match.end():].lstrip().startswith("("):
                python.append(f"_{name}")
            else:
                python.append(f"_get({name!r})")
        assert "".join(m.group(0) for m in _TOKEN.finditer(text)) == text, text
        functions = {"_get": self.lookup, "_always": lambda: True,
                     "_success": lambda: not self.failed, "_failure": lambda: self.failed,
                     "_format": lambda f, *a: re.sub(r"\{(\d+)\}", lambda m: str(a[int(m[1])]), f),
                     "_hashFiles": lambda p: "hash" if (self.workspace / p).exists() else ""}
        return eval("".join(python), {"__builtins__": {}}, functions)

    def render(self, text: Any) -> str:
        text = str(text)
        whole = _EXPRESSION.fullmatch(text.strip())
        if whole:
            value = self.evaluate(whole[1])
            return "" if value is None else str(value).lower() if isinstance(value, bool) \
                else str(value)
        return _EXPRESSION.sub(lambda m: str(self.evaluate(m[1])), text)

    def condition(self, text: Any) -> bool:
        if text is None:
            return not self.failed
        expression = _EXPRESSION.fullmatch(str(text).strip())
        source = expression[1] if expression else str(text)
        value = bool(self.evaluate(source))
        return value if any(s in source for s in _STATUS) else value and not self.failed


def run_action(inputs: dict[str, str], workspace: Path, env: dict[str, str], temp: Path,
               github: dict[str, Any] | None = None, job_index: int = 0) -> Run:
    action = YAML(typ="safe").load(ACTION.read_text("utf-8"))
    given = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    unknown = set(inputs) - set(given)
    assert not unknown, f"the action declares no input {unknown}"
    given.update(inputs)
    contexts = Contexts(given, {
        "github": {"job": "conformance", "run_attempt": "1", "event_name": "push",
                   "repository": "someone/tools", **(github or {})},
        "runner": {"temp": str(temp)}, "strategy": {"job-index": job_index}}, workspace)
    summary = temp / "summary.md"
    summary.touch()
    steps = []
    for number, spec in enumerate(action["runs"]["steps"]):
        name = spec.get("name") or spec.get("uses") or f"step {number}"
        step = Step(contexts.render(name), ran=contexts.condition(spec.get("if")))
        if step.ran:
            _run_step(spec, step, contexts, env, workspace, summary)
            if step.outcome == "failure" and not spec.get("continue-on-error"):
                contexts.failed = True
        if "id" in spec:
            contexts.values["steps"][spec["id"]] = {"outputs": step.outputs,
                                                    "outcome": step.outcome}
        steps.append(step)
    return Run(steps, summary.read_text("utf-8"))


def _run_step(spec: dict[str, Any], step: Step, contexts: Contexts, env: dict[str, str],
              workspace: Path, summary: Path) -> None:
    if "uses" in spec:
        given = spec.get("with") or {}
        step.given = {key: contexts.render(value) for key, value in given.items()}
        step.outcome = "success"
        return
    assert spec.get("shell") == "bash", spec
    output = summary.parent / f"output-{id(step)}"
    output.touch()
    script = summary.parent / f"step-{id(step)}.sh"
    script.write_text(contexts.render(spec["run"]), "utf-8")
    step_env = {**env, **{key: contexts.render(value) for key, value in
                          (spec.get("env") or {}).items()},
                "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary),
                "GITHUB_JOB": contexts.lookup("github.job"),
                "GITHUB_RUN_ATTEMPT": contexts.lookup("github.run_attempt"),
                "RUNNER_TEMP": contexts.lookup("runner.temp")}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=workspace, env=step_env, capture_output=True, text=True,
                          timeout=600, check=False, stdin=subprocess.DEVNULL)
    step.status, step.output = done.returncode, done.stdout + done.stderr
    step.outcome = "success" if done.returncode == 0 else "failure"
    for line in output.read_text("utf-8").splitlines():
        key, _, value = line.partition("=")
        step.outputs[key] = value


def clean_environment() -> dict[str, str]:
    """This machine's environment without the kit's own venv or test settings on it."""
    kit_bin = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "HYPOTHESIS_", "VIRTUAL_ENV", "PYTHON", "PIP_"))}
    env["PATH"] = os.pathsep.join(part for part in env.get("PATH", "").split(os.pathsep)
                                  if part and part != kit_bin)
    return env
