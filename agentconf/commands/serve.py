"""`agentconf serve`: the reference tool system as a `cmd:` peer over stdio (JSON-RPC 2.0), or as
an MCP server with `--mcp`."""

import argparse
import os
from pathlib import Path

from agentconf.cli import UsageError

HELP = (
    "Serve the reference tool system over stdio: the cmd: protocol (newline-delimited JSON-RPC), "
    "or MCP with --mcp."
)
ROOT_VARIABLE = "AGENTCONF_ROOT"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help=f"The workspace root the tools work in (default: ${ROOT_VARIABLE}).",
    )
    parser.add_argument(
        "--mcp",
        action="store_true",
        help="speak MCP (the official SDK's stdio server) instead of the cmd: protocol",
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        default=None,
        help="serve the read tools alone: the others are neither listed nor callable "
        "(default: $AGENTCONF_READ_ONLY)",
    )
    parser.add_argument(
        "--deny",
        action="append",
        metavar="TOOL[:GLOB]",
        default=None,
        help="refuse calls of TOOL (on paths matching GLOB, relative to the root) with "
        "PERMISSION_DENIED; repeatable (default: $AGENTCONF_DENY, rules split like a shell line)",
    )
    parser.add_argument(
        "--allow-program",
        action="append",
        metavar="PROGRAM",
        default=None,
        help="let exec run only PROGRAM (by name or any path to it); repeatable; any other is "
        "refused with PERMISSION_DENIED (default: $AGENTCONF_ALLOWED_PROGRAMS)",
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
    modes: dict[str, object] = {}  # flags given win over the environment (create reads it)
    if args.read_only:
        modes["read_only"] = True
    if args.deny:
        modes["deny"] = args.deny
    if args.allow_program:
        modes["allowed_programs"] = args.allow_program
    try:
        system = create(Workspace(root=root), grep_engine=args.grep_engine, **modes)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.mcp:
        from agentconf.reference.serve_mcp import run as serve_mcp

        return serve_mcp(system)
    from agentconf.reference.serve import run as serve

    return serve(system)


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
