"""Small tool systems of the shapes real ones have and a profile must fit: a `cmd:` toy
(cmd_toy.py, its shapes in cmd_shapes.py) and a raw MCP server over stdio (mcp_toy.py) for what
only MCP carries. A test runs one as a real subprocess, naming the shapes or the mode it wants:

    python tests/harness/shape_toys/shapes.py grep0 max-lines=1000
    python tests/harness/shape_toys/mcp_shapes.py structured"""

from shape_toys import cmd_shapes
from shape_toys.cmd_toy import ShapesToy

# Each cmd shape by its name (`name=value` for the ones that take a value), in the order they
# are laid over the plain toy: where two change the same step, the one listed first answers
# (argv's shell over allow's), and one listed lower changes it first (a tool added before
# `only` filters the list).
SHAPES: dict[str, type[ShapesToy]] = {
    "state-in-root": cmd_shapes.StateInRoot,
    "noisy": cmd_shapes.Noisy,
    "cancel-error": cmd_shapes.CancelError,
    "needs-sandbox": cmd_shapes.NeedsSandbox,
    "unconfined-write": cmd_shapes.UnconfinedWrite,
    "status": cmd_shapes.Status,
    "only": cmd_shapes.Only,
    "mkdir-anywhere": cmd_shapes.MkdirAnywhere,
    "workdir": cmd_shapes.Workdir,
    "timeout-any": cmd_shapes.TimeoutAny,
    "argv": cmd_shapes.Argv,
    "allow": cmd_shapes.Allow,
    "rc": cmd_shapes.Rc,
    "max-bytes": cmd_shapes.MaxBytes,
    "max-lines": cmd_shapes.MaxLines,
    "too-long": cmd_shapes.TooLong,
    "match-only": cmd_shapes.MatchOnly,
    "grep0": cmd_shapes.Grep0,
}


def compose(args: list[str]) -> ShapesToy:
    """The plain toy with the shapes `args` name (`only=read,write`) laid over it, in SHAPES'
    order, given their values."""
    options = dict([*arg.split("=", 1), ""][:2] for arg in args)
    unknown = sorted(options.keys() - SHAPES.keys())
    if unknown:
        raise SystemExit(f"shape_toys: no such shape {unknown}; the shapes: {list(SHAPES)}")
    chosen = tuple(shape for name, shape in SHAPES.items() if name in options)
    return type("+".join(options) or "Plain", (*chosen, ShapesToy), {})(options)
