"""`agentconf serve`: the reference tool system as a `cmd:` peer over stdio (JSON-RPC 2.0)."""

import argparse
import os
from pathlib import Path

from agentconf.cli import UsageError

HELP = "Serve the reference tool system over stdio (the cmd: protocol, newline-delimited JSON-RPC)."
ROOT_VARIABLE = "AGENTCONF_ROOT"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help=f"The workspace root the tools work in (default: ${ROOT_VARIABLE}).",
    )
    parser.add_argument(
        "--grep-engine",
        choices=("auto", "rg", "python"),
        default="auto",
        help="grep's engine: ripgrep, the pure-Python fallback, or rg when installed (default).",
    )


def run(args: argparse.Namespace) -> int:
    root = _root(args.root)
    # Imported here so `agentconf --help` does not load the whole reference.
    from agentconf.contract import Workspace
    from agentconf.reference import create
    from agentconf.reference.serve import run as serve

    return serve(create(Workspace(root=root), grep_engine=args.grep_engine))


def _root(given: Path | None) -> Path:
    if given is None:
        from_environment = os.environ.get(ROOT_VARIABLE)
        if not from_environment:
            raise UsageError(f"--root DIR is required (or set {ROOT_VARIABLE})")
        given = Path(from_environment)
    if not given.exists():
        raise UsageError(f"--root {given}: no such folder")
    if not given.is_dir():
        raise UsageError(f"--root {given}: not a folder")
    return given.resolve()
