"""What an implementation's process gets from its profile before it starts: the `[env]` table
(and a mode's), the `[setup.files]` written in the sandbox and the `[setup].commands` run in its
root, placeholders filled.
"""

import os
import subprocess
from pathlib import Path
from typing import Any

from agentconf.harness.profile.model import Profile
from agentconf.harness.verdicts.errors import ImplementationFailure

SETUP_COMMAND_BOUND_S = 60


def cache_dir() -> Path:
    """The kit's cache ({cache} in a profile; the bytecode of the processes a run starts)."""
    return Path(os.environ.get("AGENTCONF_CACHE") or Path.home() / ".cache" / "agentconf")


def bytecode_env() -> dict[str, str]:
    """Bytecode of the Python processes a run starts (its pytest child, a served reference),
    kept in the kit's cache: compiled once, never written beside anybody's sources. Each run
    starts such processes afresh, and without it every one compiled and assertion-rewrote the
    kit, the suites and hypothesis again (most of a short run's cost)."""
    return {"PYTHONPYCACHEPREFIX": str(cache_dir() / "pycache")}


# `agentconf matrix --cache DIR` tells the runs it starts where it installed the peers.
PEERS_CACHE_ENV = "AGENTCONF_PEERS_CACHE"


def profile_dir(profile: Profile) -> Path:
    return profile.path.resolve().parent if profile.path is not None else Path.cwd()


def once_values(profile: Profile) -> dict[str, str]:
    """The placeholders filled once per run: {profile_dir}, {cache} and {peers_cache}."""
    folder = profile_dir(profile)
    # By default a peer's profile (peers/<id>/agentconf.toml) finds its install where the matrix
    # puts it when run from the repository: .cache/peers beside the peers folder.
    peers = os.environ.get(PEERS_CACHE_ENV) or str(folder.parent.parent / ".cache" / "peers")
    return {"profile_dir": str(folder), "cache": str(cache_dir()), "peers_cache": peers}


def placeholder_values(profile: Profile, root: Path, home: Path, tmp: Path) -> dict[str, str]:
    return {"root": str(root), "home": str(home), "tmp": str(tmp), **once_values(profile)}


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def fill_json(value: Any, values: dict[str, str]) -> Any:
    """Placeholders filled in every string of a JSON value (defaults, setup request params)."""
    if isinstance(value, str):
        return fill(value, values)
    if isinstance(value, dict):
        return {key: fill_json(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [fill_json(item, values) for item in value]
    return value


def setup_requests(profile: Profile, root: Path, home: Path,
                   tmp: Path) -> list[tuple[str, dict[str, Any]]]:
    """`[[setup.requests]]` as (method, params), placeholders filled."""
    values = placeholder_values(profile, root, home, tmp)
    return [(request.method, fill_json(request.params, values))
            for request in profile.setup_requests]


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


def state_folders(profile: Profile, root: Path, home: Path, tmp: Path) -> list[Path]:
    """`[setup].state`: the implementation's own state folders, placeholders filled."""
    values = placeholder_values(profile, root, home, tmp)
    return [root / fill(name, values) if not fill(name, values).startswith("/")
            else Path(fill(name, values)) for name in profile.setup_state]


def run_setup_commands(profile: Profile, root: Path, home: Path, tmp: Path) -> list[Path]:
    """`[setup].commands`, each in the root with the sandbox's HOME and TMPDIR: the entries of
    the root they made, which are the implementation's starting state from then on."""
    if not profile.setup_commands:
        return []
    values = placeholder_values(profile, root, home, tmp)
    before = set(os.listdir(root))
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(tmp)}
    for argv in profile.setup_commands:
        command = [fill(word, values) for word in argv]
        try:
            done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                                  timeout=SETUP_COMMAND_BOUND_S, stdin=subprocess.DEVNULL,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise ImplementationFailure(f"[setup].commands {command}: {error}") from None
        if done.returncode != 0:
            raise ImplementationFailure(
                f"[setup].commands {command} exited {done.returncode}: "
                f"{(done.stderr or done.stdout).strip()[-300:]}")
    return [root / name for name in sorted(set(os.listdir(root)) - before)]
