"""The `agentconf` command. Each subcommand lives in `agentconf/commands/<name>.py`.

A command module defines `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`.
Bad input is one line on stderr and exit status 2, never a traceback.
"""

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentconf import __version__, commands

if TYPE_CHECKING:
    from agentconf.harness.target.spec import ImplSpec

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


def implementation(args: argparse.Namespace) -> "ImplSpec":
    """The implementation `--impl`/`--profile` name, or a UsageError saying why not. A
    python:MODULE spec names a module in the current folder, as `python -m` would find it."""
    from agentconf.harness.profile.model import ProfileError  # not every command needs the harness
    from agentconf.harness.target.spec import SpecError, resolve

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return resolve(args.impl, args.profile)
    except (SpecError, ProfileError) as error:
        raise UsageError(str(error)) from None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "NoReturn":  # type: ignore[name-defined]  # noqa: F821
        self.exit(EXIT_USAGE, f"agentconf: {message}\n")


def command_names() -> list[str]:
    return sorted(info.name.replace("_", "-") for info in pkgutil.iter_modules(commands.__path__)
                  if not info.name.startswith("_"))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or only the subcommand `only` (when argv names it): a command
    module imports what its command needs, and every server a run starts (`agentconf serve` per
    check) would otherwise pay for importing all of them."""
    parser = _Parser(prog="agentconf", description="Conformance kit for LLM agent tool systems.")
    parser.add_argument("--version", action="version", version=f"agentconf {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in command_names():
        if only is not None and name != only:
            continue
        module = importlib.import_module(f"{commands.__name__}.{name.replace('-', '_')}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    named = given[0] if given and given[0] in command_names() else None
    parser = build_parser(only=named)
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        _choose(args)
        _hand_over(args, given)
        return int(args._run(args))
    except UsageError as error:
        print(f"agentconf {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("agentconf: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `agentconf explain X | head`: the reader left; say nothing more, as cat does.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _choose(args: argparse.Namespace) -> None:
    """A command that takes --impl and --profile checks ./agentconf.toml when nobody named
    another implementation (harness/run/discover.py); `origin` says how it was chosen."""
    if not (hasattr(args, "impl") and hasattr(args, "profile")):
        return
    from pathlib import Path

    from agentconf.harness.run.discover import choose

    choice = choose(args.impl, args.profile, Path.cwd())
    args.impl, args.profile, args.origin = choice.impl, choice.profile, choice.origin


def _hand_over(args: argparse.Namespace, argv: list[str]) -> None:
    """Re-run this very command under the interpreter a profile's `[implementation].python`
    names (a framework's own venv), which must have agentconf-kit installed too."""
    if not hasattr(args, "impl"):
        return
    from agentconf.harness.profile.model import ProfileError
    from agentconf.harness.target.spec import HANDED_OVER, SpecError, profile_interpreter

    try:
        python = profile_interpreter(args.impl, getattr(args, "profile", None))
    except (SpecError, ProfileError):
        return  # the command reports it, as it reports every bad profile
    if python is None:
        return
    import os
    import subprocess

    probe = subprocess.run([python, "-c", "import agentconf"], capture_output=True, check=False)
    if probe.returncode != 0:
        raise UsageError(f"the profile's python {python} has no agentconf-kit: install it "
                         f"there ({python} -m pip install 'agentconf-kit[mcp]')")
    sys.stdout.flush()
    os.environ[HANDED_OVER] = "1"
    os.execv(python, [python, "-m", "agentconf", *argv])


if __name__ == "__main__":
    sys.exit(main())
