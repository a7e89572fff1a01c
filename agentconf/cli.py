"""The `agentconf` command. Each subcommand lives in `agentconf/commands/<name>.py`.

A command module defines `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`.
Bad input is one line on stderr and exit status 2, never a traceback.
"""

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from agentconf import __version__, commands

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
        self.exit(EXIT_USAGE, f"agentconf: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="agentconf", description="Conformance kit for LLM agent tool systems.")
    parser.add_argument("--version", action="version", version=f"agentconf {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        name = info.name.replace("_", "-")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args._run(args))
    except UsageError as error:
        print(f"agentconf {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("agentconf: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
