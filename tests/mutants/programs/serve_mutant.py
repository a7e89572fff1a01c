"""Serves one mutant over the `cmd:` stdio protocol: `python serve_mutant.py MODULE:CLASS ROOT`.

Mutants run this way exercise the `cmd:` adapter, and their defects (a hang, a stray process,
`~` expanded against $HOME) stay inside a process the harness sandboxes and kills.
"""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the folder holding `mutants`

from agentconf.contract import Workspace  # noqa: E402
from agentconf.reference.serve import run  # noqa: E402


def main() -> int:
    target, root = sys.argv[1], sys.argv[2]
    module_name, class_name = target.split(":")
    mutant_class = getattr(importlib.import_module(module_name), class_name)
    return run(mutant_class(Workspace(root=Path(root))))


if __name__ == "__main__":
    sys.exit(main())
