"""What an implementation's process gets from its profile before it starts: the `[env]` table
(and a mode's), and the `[setup.files]` written in the sandbox, placeholders filled.
"""

import os
from pathlib import Path

from .profile import Profile


def placeholder_values(profile: Profile, root: Path, home: Path, tmp: Path) -> dict[str, str]:
    profile_dir = profile.path.resolve().parent if profile.path is not None else Path.cwd()
    cache = os.environ.get("AGENTCONF_CACHE") or str(Path.home() / ".cache" / "agentconf")
    return {"root": str(root), "home": str(home), "tmp": str(tmp),
            "profile_dir": str(profile_dir), "cache": cache}


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def launch_env(profile: Profile, root: Path, home: Path, tmp: Path,
               mode: str | None = None) -> dict[str, str]:
    """`[env]`, then `[modes.<mode>].env`, with the placeholders filled."""
    values = placeholder_values(profile, root, home, tmp)
    table = dict(profile.env)
    if mode is not None:
        table.update(profile.modes[mode].env)
    return {name: fill(value, values) for name, value in table.items()}


def write_setup_files(profile: Profile, root: Path, home: Path, tmp: Path) -> list[Path]:
    """`[setup.files]` written (folders made); a relative path is under the root."""
    values = placeholder_values(profile, root, home, tmp)
    written = []
    for name, content in profile.setup_files.items():
        path = Path(fill(name, values))
        if not path.is_absolute():
            path = root / path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(fill(content, values), encoding="utf-8")
        written.append(path)
    return written
