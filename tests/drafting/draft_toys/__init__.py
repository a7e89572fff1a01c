"""A `cmd:` tool system with the shapes `init --from` once drafted wrong (issue 25): the plain
toy (plain.py) and one small subclass per shape, each saying which real implementation it
reproduces. A test names the shapes it wants and runs draft_toy.py with them:

    python tests/drafting/draft_toys/draft_toy.py claude read-guard

and gets the plain toy with those shapes laid over it, as a real subprocess on a real pipe."""

from draft_toys import answers, commands, files, starts, wordings
from draft_toys.plain import Toy

# Each shape by its name, in the order they are laid over the plain toy: where two change the
# same step, the one listed first answers (claude's wording over spelled's; no-sandbox before
# session-shell; a tool added lower in the list comes earlier in tools/list).
SHAPES: dict[str, type[Toy]] = {
    "zod": wordings.Zod,
    "claude": wordings.Claude,
    "spelled": wordings.Spelled,
    "error-prefix": wordings.ErrorPrefix,
    "unknown-text": wordings.UnknownText,
    "quiet-misses": wordings.QuietMisses,
    "korean": wordings.Korean,
    "quote-text": wordings.QuoteText,
    "claude-files": wordings.ClaudeFiles,
    "json-items": answers.JsonItems,
    "json-status": answers.JsonStatus,
    "wrapped-status": answers.WrappedStatus,
    "report": answers.Report,
    "absolute-only": files.AbsoluteOnly,
    "json-read": answers.JsonRead,
    "edits-fail": files.EditsFail,
    "outside-guard": files.OutsideGuard,
    "read-guard": files.ReadGuard,
    "zero-based": files.ZeroBased,
    "say-base": files.SayBase,
    "start-end": files.StartEnd,
    "no-read": files.NoRead,
    "lists-folders": files.ListsFolders,
    "fixed-allow": files.FixedAllow,
    "write-encoding": files.WriteEncoding,
    "write-encoding-docstring": files.WriteEncodingInDocstring,
    "virtual-root": files.VirtualRoot,
    "say-absolute": files.SayAbsolute,
    "patch": commands.Patch,
    "no-sandbox": commands.NoSandbox,
    "session-shell": commands.SessionShell,
    "json-shell": commands.JsonShell,
    "json-failures": commands.JsonFailures,
    "exit-trailer": commands.ExitTrailer,
    "text-shell": commands.TextShell,
    "split-command": commands.SplitCommand,
    "run-command": commands.RunCommand,
    "list": commands.ListDirectory,
    "shell": commands.Shell,
    "state": starts.State,
    "slow-start": starts.SlowStart,
    "tmp-history": starts.TmpHistory,
}


def compose(names: list[str]) -> type[Toy]:
    """The plain toy with the shapes `names` laid over it, in SHAPES' order."""
    unknown = sorted(set(names) - SHAPES.keys())
    if unknown:
        raise SystemExit(f"draft_toys: no such shape {unknown}; the shapes: {list(SHAPES)}")
    chosen = tuple(shape for name, shape in SHAPES.items() if name in names)
    return type("+".join(names) or "Plain", (*chosen, Toy), {})
