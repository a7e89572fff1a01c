"""A peers folder: the real implementations a conformance matrix judges, one folder each.

    peers/<id>/peer.toml          [peer]: title, package, version, registry, homepage, python,
                                  notes, cannot_judge (why it is listed but not run yet)
    peers/<id>/agentconf.toml     the profile the run uses (or `profile` in peer.toml names one)
    peers/<id>/package.json       npm peers: with package-lock.json, installed by `npm ci`
    peers/<id>/requirements.txt   pypi peers: hashed pins, installed into the peer's own venv
    peers/<id>/expected-failures.toml   the triaged departures (the baseline CI holds it to)

Installs go to `<cache>/<id>/` (node_modules, or venv/), never into the kit's environment: a
peer's install scripts are not run (npm --ignore-scripts) and a Python framework gets its own
interpreter, with the kit installed beside it there, since `python:` peers run in-process.
"""

import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import agentconf

Registry = Literal["npm", "pypi", "local"]


class PeerError(Exception):
    """A peer that cannot be read or installed: one line for the user."""


class PeerTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1, description="the name the matrix shows")
    package: str = Field(min_length=1, description="its name on its registry")
    version: str = Field(min_length=1, description="the exact version judged")
    registry: Registry
    homepage: str | None = None
    python: str | None = Field(default=None, pattern=r"^3\.\d+$",
                               description="pypi peers: the Python its venv is made with")
    notes: str | None = Field(default=None, description="one line: how it is wired")
    profile: str | None = Field(default=None, description=(
        "the profile, relative to this folder, when it lives elsewhere (an example's own); "
        "default agentconf.toml"))
    cannot_judge: str | None = Field(default=None, min_length=1, description=(
        "why the kit cannot judge it fairly yet, in one line: it stays on the matrix as a row "
        "that could not run (stage 'judge') with this reason, and is not run"))


@dataclass(frozen=True)
class Peer:
    id: str
    folder: Path
    table: PeerTable

    @property
    def profile(self) -> Path:
        return Path(os.path.normpath(self.folder / (self.table.profile or "agentconf.toml")))

    @property
    def baseline(self) -> Path | None:
        path = self.folder / "expected-failures.toml"
        return path if path.is_file() else None

    def venv(self, cache: Path) -> Path:
        return cache / self.id / "venv"

    @property
    def in_process(self) -> bool:
        """Its profile's spec is of a kind run in process (python:): the kit runs inside the
        peer's own interpreter. An MCP or cmd: server is driven over stdio from the kit's own
        environment instead, its venv left as its requirements pin it (the kit's mcp 2 beside
        mcp-text-editor's mcp 1 broke it)."""
        # Late: the kinds load the profile's model, which listing the peers does not need.
        from agentconf.harness.target.kinds import kind_of

        try:
            data = tomllib.loads(self.profile.read_text("utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            return False
        spec = data.get("implementation", {}).get("spec", "")
        kind = kind_of(spec) if isinstance(spec, str) else None
        return kind is not None and kind.in_process

    def python(self, cache: Path) -> str:
        """The interpreter that runs the kit against this peer."""
        if self.table.registry == "pypi" and self.in_process:
            return str(self.venv(cache) / "bin" / "python")
        return sys.executable


def load_peers(folder: Path, only: set[str] | None = None) -> list[Peer]:
    if not folder.is_dir():
        raise PeerError(f"{folder} is not a folder of peers")
    peers = []
    for path in sorted(folder.glob("*/peer.toml")):
        peer_id = path.parent.name
        if only is not None and peer_id not in only:
            continue
        try:
            data = tomllib.loads(path.read_text("utf-8"))
            table = PeerTable.model_validate(data.get("peer", {}))
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise PeerError(f"{path}: {error}") from None
        except ValidationError as error:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}"
                                 for e in error.errors())
            raise PeerError(f"{path}: {problems}") from None
        peer = Peer(peer_id, path.parent, table)
        if not peer.profile.is_file():
            raise PeerError(f"{path.parent}: its profile {peer.profile} does not exist")
        peers.append(peer)
    if only is not None and (missing := only - {p.id for p in peers}):
        raise PeerError(f"no such peer in {folder}: {', '.join(sorted(missing))}")
    return peers


def install(peer: Peer, cache: Path) -> None:
    """Install what the peer needs into `cache/<id>/`, unless it is there already; what the
    installers said is kept in `cache/<id>/install.log`."""
    cache = cache.resolve()
    log = cache / peer.id / "install.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    if peer.table.registry == "npm":
        _install_npm(peer, cache / peer.id, log)
    elif peer.table.registry == "pypi":
        _install_pypi(peer, peer.venv(cache), log)


def _install_npm(peer: Peer, target: Path, log: Path) -> None:
    lock = (peer.folder / "package-lock.json").resolve()
    if not lock.is_file():
        raise PeerError(f"{peer.folder}: an npm peer needs package.json and package-lock.json")
    stamp = target / "node_modules" / ".package-lock.json"
    installed = target / "package-lock.json"
    if stamp.is_file() and installed.is_file() and installed.read_bytes() == lock.read_bytes():
        return
    if shutil.which("npm") is None:
        raise PeerError("npm is not on PATH; install Node.js 20 or newer first")
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(peer.folder / name, target / name)
    # --ignore-scripts: a peer under test gets no install-time code execution on the host.
    _step(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
          target, log, peer)


def _install_pypi(peer: Peer, venv: Path, log: Path) -> None:
    requirements = (peer.folder / "requirements.txt").resolve()
    if not requirements.is_file():
        raise PeerError(f"{peer.folder}: a pypi peer needs requirements.txt")
    stamp = venv / "agentconf-peer.txt"
    wanted = requirements.read_text("utf-8") + f"\nkit {agentconf.__version__}\n"
    if stamp.is_file() and stamp.read_text("utf-8") == wanted:
        return
    if venv.exists():
        shutil.rmtree(venv)
    _step([find_python(peer.table.python), "-m", "venv", str(venv)], peer.folder, log, peer)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
           "--disable-pip-version-check"]
    _step([*pip, "--require-hashes", "-r", str(requirements)], peer.folder, log, peer)
    if not peer.in_process:  # a server: driven over stdio, from the kit's own environment
        stamp.write_text(wanted, "utf-8")
        return
    # The kit beside the framework, as a user of a python: spec has it: this checkout when the
    # kit runs from one, else the same release from PyPI. Without its [mcp] extra: a python: run
    # never imports the MCP SDK, and the framework's own pinned mcp must stay (the extra's
    # mcp>=2.3 broke openhands-sdk's fastmcp, which needs mcp 1).
    checkout = Path(agentconf.__file__).resolve().parents[1]
    kit = (str(checkout) if (checkout / "pyproject.toml").is_file()
           else f"agentconf-kit=={agentconf.__version__}")
    _step([*pip, *(["-e"] if not kit.startswith("agentconf-kit") else []), kit],
          peer.folder, log, peer)
    stamp.write_text(wanted, "utf-8")


def find_python(version: str | None) -> str:
    """An interpreter of `version` (3.12): on PATH, or one pyenv installed."""
    if version is None or sys.version_info[:2] == tuple(map(int, version.split("."))):
        return sys.executable
    candidates = [shutil.which(f"python{version}")]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += sorted(map(str, pyenv.glob(f"{version}.*/bin/python{version}")), reverse=True)
    for candidate in filter(None, candidates):
        probe = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                               capture_output=True, text=True, check=False)
        if probe.returncode == 0 and probe.stdout.strip() == str(
                tuple(map(int, version.split(".")))):
            return candidate
    raise PeerError(f"this peer needs Python {version}, and no python{version} was found")


def _step(command: list[str], cwd: Path, log: Path, peer: Peer) -> None:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(command)}\n")
        out.flush()
        done = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                              check=False)
    if done.returncode != 0:
        raise PeerError(f"installing {peer.id} failed ({' '.join(command[:3])} ...: exit "
                        f"{done.returncode}); see {log}")
