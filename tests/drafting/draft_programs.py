"""`init --from`'s drafts of the toy in draft_toys/ with the shapes a test names (draft_toys'
SHAPES: "claude", "read-guard", ...), run as a `cmd:` subprocess from this folder."""

import sys
import tomllib
from pathlib import Path
from typing import Any

from draft_toys import SHAPES

from agentconf.harness.target.spec import parse_spec
from agentconf.init_from.draft import draft_profile

PROGRAM = Path(__file__).resolve().parent / "draft_toys" / "draft_toy.py"


def toy_spec(*shapes: str) -> str:
    """The `cmd:` spec that runs the toy with these shapes."""
    unknown = sorted(set(shapes) - SHAPES.keys())
    assert not unknown, f"no such shape {unknown}: draft_toys/__init__.py lists them"
    return f"cmd:{sys.executable} {PROGRAM} {' '.join(shapes)}".rstrip()


def draft_toy(folder: Path, *shapes: str) -> tuple[dict[str, Any], str]:
    """`init --from`'s draft of the toy with these shapes: the profile loaded, and its text.
    `folder` is the test's scratch folder: the draft needs none of it, the toy runs from
    draft_toys/, but a test that drafts twice keeps the two apart by it."""
    spec = toy_spec(*shapes)
    draft = draft_profile(parse_spec(spec), spec)
    return tomllib.loads(draft.text), draft.text
