"""A mode's clauses, as the contract lists them (modes.toml `judged_by`, which the draft's TODO
lines name), are exactly the clauses a run leaves n/a for want of that mode."""

import json
import re
import sys
from pathlib import Path

from cli import agentconf

from agentconf.contract.modes import MODES

SERVE = f"{sys.executable} -P -m agentconf.selfcheck.serve_mutant"


def test_the_clauses_a_mode_judges_are_those_n_a_without_it(tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"  # the reference over a pipe, no [modes] declared
    profile.write_text(f'[implementation]\nspec = "cmd:{SERVE} '
                       'agentconf.selfcheck.mutant_base:Mutant {root}"\n', "utf-8")
    report = tmp_path / "report"
    done = agentconf("run", "--profile", str(profile), "--clauses", "SURFACE,PERMISSION,EXEC",
                     "--report", str(report), cwd=tmp_path)
    assert (report / "conformance.json").is_file(), done.stdout + done.stderr
    wanting: dict[str, set[str]] = {}
    for clause in json.loads((report / "conformance.json").read_text("utf-8"))["clauses"]:
        for test in clause["tests"]:
            said = re.search(r"\(\[modes\.(\w+)\]\)", test.get("evidence") or "")
            if said:
                wanting.setdefault(said.group(1), set()).add(clause["id"])
    assert wanting == {name: set(mode.judged_by) for name, mode in MODES.items()}
