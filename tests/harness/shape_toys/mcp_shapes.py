"""The MCP program a test runs: the MCP toy in the mode named on its command line,
`python shape_toys/mcp_shapes.py MODE` (mcp_toy.py's MODES)."""

import sys
from pathlib import Path


def main() -> None:
    # As shapes.py: the toy imports as shape_toys.*, not as modules of this folder.
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    from shape_toys.mcp_toy import MODES

    mode = sys.argv[1]
    if mode not in MODES:
        raise SystemExit(f"mcp_shapes: no such mode {mode!r}; the modes: {list(MODES)}")
    MODES[mode]().serve()


if __name__ == "__main__":
    main()
