"""`python -m agentconf.selfcheck.disguise --disguise FILE|JSON [--mutant MODULE:CLASS --gallery
DIR] ROOT`: the reference (or a mutant of the gallery) served over MCP through a disguise."""

import argparse
import importlib
import json
import sys
from pathlib import Path

from agentconf.contract import Workspace
from agentconf.reference import create
from agentconf.reference.serve import ToolSystem
from agentconf.reference.serve_mcp import run

from .dimensions import Disguise
from .server import SERVER_NAME, DisguisedSystem, mcp_answer


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m agentconf.selfcheck.disguise")
    parser.add_argument("--disguise", required=True,
                        help="the disguise as JSON, or a file holding it")
    parser.add_argument("--mutant", help="MODULE:CLASS of the gallery to serve instead")
    parser.add_argument("--gallery", type=Path, help="the folder holding the `mutants` package")
    parser.add_argument("root", help="the workspace root")
    return parser.parse_args(argv)


def _disguise(given: str) -> Disguise:
    text = given if given.lstrip().startswith("{") else Path(given).read_text("utf-8")
    return Disguise.model_validate(json.loads(text))


def _system(mutant: str | None, gallery: Path | None, root: str) -> ToolSystem:
    workspace = Workspace(root=Path(root))
    if mutant is None:
        return create(workspace)
    if gallery is not None:
        sys.path.insert(0, str(gallery))
    module, _, name = mutant.partition(":")
    system: ToolSystem = getattr(importlib.import_module(module), name)(workspace)
    return system


def main(argv: list[str] | None = None) -> int:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    system = DisguisedSystem(_system(args.mutant, args.gallery, args.root),
                             _disguise(args.disguise), args.root)
    return run(system, mcp_answer, SERVER_NAME)


if __name__ == "__main__":
    sys.exit(main())
