"""Every departure of mini-swe-agent 2.4.6's bash the kit reported, shown with mini-swe-agent's
own code and nothing of the kit: its LocalEnvironment and its default config's observation
template, as DefaultAgent runs a model's tool call. One line each, exit 1 when any shows.

    .cache/peers/mini-swe-agent/venv/bin/python peers/mini-swe-agent/repro/departures.py
"""

import sys
import tempfile
import time

import yaml
from jinja2 import StrictUndefined, Template
from minisweagent.config import builtin_config_dir
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.utils.actions_toolcall import BASH_TOOL

config = yaml.safe_load((builtin_config_dir / "default.yaml").read_text())
template = config["model"]["observation_template"]
root = tempfile.mkdtemp(prefix="repro-mini-")
seen = []


def observe(command: str, timeout: int | None = None) -> str:
    env = LocalEnvironment(**{**config["environment"], "cwd": root})
    output = env.execute({"command": command}, timeout=timeout)
    return Template(template, undefined=StrictUndefined).render(output=output)


def check(clause: str, departed: bool, what: str, answer: object = None) -> None:
    shown = "" if answer is None else f"  <- {str(answer)[:150]!r}"
    print(f"{'DEPARTS' if departed else 'conforms'}  {clause}: {what}{shown}")
    if departed:
        seen.append(clause)


# The template keeps output under 10,000 characters whole; past that, its first and last 5,000
# with a warning: the bound the profile declares ([tools.bash] limits).
text = observe("head -c 10000 /dev/zero | tr '\\0' z")
check(
    "TRUNCATE-06",
    "<warning>" in text,
    "an output of exactly 10,000 characters is cut (the template keeps `length < 10000`): "
    f"{len(text)} characters",
    text[:80],
)
text = observe("seq 1 50000")
check(
    "TRUNCATE-01",
    len(text) > 10200,
    f"an output far over the bound answers {len(text)} characters: the warning and tags are "
    "about 600 over it (TRUNCATE-02, -04, -05, SHELL-08, SHELL-12 measure the same bound)",
)
text = observe("echo before-signal; kill -KILL $$")
check(
    "SHELL-11",
    "<returncode>-9</returncode>" in text,
    "a command killed by SIGKILL answers returncode -9 (Python's Popen convention): no signal "
    "named, not 128+9",
    text,
)
start = time.time()
text = observe("sleep 60 & echo started", timeout=5)
check(
    "SHELL-10",
    time.time() - start >= 5,
    f"(SHOULD) a background process keeping stdout open holds the call until the {5} s timeout",
    text[:120],
)
check("REGISTRY-05", "kind" not in BASH_TOOL["function"], "(SHOULD) BASH_TOOL declares no kind")
check(
    "ANNOTATION-04",
    "annotations" not in BASH_TOOL,
    "(SHOULD) BASH_TOOL declares no behaviour hints",
)

print(f"{len(seen)} departure(s) shown: {', '.join(seen)}")
sys.exit(1 if seen else 0)
