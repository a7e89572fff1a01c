"""Profiles that start the small tool systems of shape_toys/, of the shapes real ones have and
a profile must fit: the `cmd:` shapes toy (shapes.py, one named shape per behaviour) and a raw
MCP server over stdio (mcp_shapes.py) for what only MCP carries (structured content, the SDK's
wrapping). Each profile is written into a test's temp dir; the programs run from shape_toys/."""

import sys
import textwrap
from pathlib import Path

TOYS = Path(__file__).resolve().parent / "shape_toys"

# The mapping shapes.py needs whatever its shapes: names and arguments only, no shape keys.
MAPPING = textwrap.dedent('''
    [implementation]
    spec = "cmd:{python} {program} {shapes}"
    name = "shapes"

    [tools.read_file]
    name = "read"
    window = "offset_limit"
    {read}

    [tools.write_file]
    name = "write"

    [tools.edit_file]
    name = "edit"
    args = {{ old_text = "old", new_text = "new" }}

    [tools.list_files]
    name = "list"

    [tools.grep]
    name = "search"
    {grep}

    [tools.bash]
    name = "shell"
''')


def write_shapes(folder: Path, *shapes: str, extra: str = "", grep: str = "",
                 read: str = "") -> Path:
    """A profile in `folder` that runs shape_toys/shapes.py with these shapes (`grep0`,
    `only=read,write`): MAPPING plus `extra` TOML, `grep` and `read` in [tools.grep] and
    [tools.read_file]. The profile's path."""
    profile = folder / "agentconf.toml"
    profile.write_text(MAPPING.format(python=sys.executable, program=TOYS / "shapes.py",
                                      shapes=" ".join(shapes), grep=grep, read=read) + extra)
    return profile


def mcp_spec(mode: str) -> str:
    """The `mcp:` spec that runs shape_toys/mcp_shapes.py in `mode`."""
    return f"mcp:{sys.executable} {TOYS / 'mcp_shapes.py'} {mode}"


def write_mcp_shapes(folder: Path, mode: str, extra: str = "") -> Path:
    """A profile in `folder` that runs shape_toys/mcp_shapes.py in `mode` and maps its `read`
    (plus `extra`); the profile's path."""
    profile = folder / "agentconf.toml"
    profile.write_text(
        f'[implementation]\nspec = "{mcp_spec(mode)}"\n\n'
        f'[tools.read_file]\nname = "read"\n' + extra)
    return profile
