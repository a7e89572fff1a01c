"""`agentconf serve` starts once per check of a piped run (the parity runs, every `cmd:`/`mcp:`
run of the reference): it loads the contract and the reference, never the harness, the report
writers or pytest, which the other commands need and it does not."""

import subprocess
import sys
from pathlib import Path

HEAVY = ("agentconf.harness", "agentconf.init_from", "agentconf.learn", "agentconf.selfcheck",
         "agentconf.docs_gen", "pytest", "_pytest", "hypothesis")


def _imported(*arguments: str, stdin: str, cwd: Path) -> set[str]:
    """The modules `python -m agentconf ARGUMENTS` imports, read off -X importtime."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "agentconf", *arguments],
                          input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2}


def test_a_server_started_per_check_imports_neither_the_harness_nor_pytest(tmp_path: Path) -> None:
    listing = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n'
    modules = _imported("serve", "--root", str(tmp_path), stdin=listing, cwd=tmp_path)
    assert "agentconf.reference" in modules and "agentconf.contract" in modules
    assert not sorted(m for m in modules if m.startswith(HEAVY))


def test_the_full_help_still_lists_every_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "agentconf", "--help"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, check=False)
    commands = sorted(p.stem for p in (Path(__file__).parents[2] / "agentconf/commands").glob(
        "[!_]*.py"))
    assert done.returncode == 0 and all(name in done.stdout for name in commands), done.stdout
