"""The `cmd:` program a test runs: the shapes toy with the shapes named on its command line,
`python shape_toys/shapes.py SHAPE[=VALUE] ...`."""

import sys
from pathlib import Path


def main() -> None:
    # Run as a script, this folder is first on sys.path and its parent is not: put the parent
    # there instead, so the toy imports as shape_toys.*, the names the tests use, and no module
    # of this folder stands in for a library's of its name.
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    from shape_toys import compose

    compose(sys.argv[1:]).serve()


if __name__ == "__main__":
    main()
