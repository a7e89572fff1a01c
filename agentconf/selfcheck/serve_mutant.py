"""Serves one mutant over the `cmd:` stdio protocol:
`python -P -m agentconf.selfcheck.serve_mutant MODULE:CLASS ROOT`.

Mutants run this way exercise the `cmd:` adapter, and their defects (a hang, a stray process,
`~` expanded against $HOME) stay inside a process the harness sandboxes and kills. MODULE:CLASS
is usually `agentconf.selfcheck.gallery:<mutant name>` (gallery.Entry.target).
"""

import importlib
import sys
from pathlib import Path

from agentconf.contract import Workspace
from agentconf.reference.serve import run


def main() -> int:
    target, root = sys.argv[1], sys.argv[2]
    module_name, class_name = target.split(":")
    mutant_class = getattr(importlib.import_module(module_name), class_name)
    return run(mutant_class(Workspace(root=Path(root))))


if __name__ == "__main__":
    sys.exit(main())
