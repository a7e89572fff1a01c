"""A PyPI peer that is a server (an `mcp:` or `cmd:` spec) gets a venv of its own pins only; the
kit runs from its own interpreter. Only a `python:` peer, run in the kit's process, gets the kit
installed beside it (mcp-shell-server 1.1.14 pins mcp<2, the kit's mcp extra wants >=2.3: one
venv for both could not be installed)."""

import sys
from pathlib import Path

import pytest

from agentconf.harness.run import peers as peers_module
from agentconf.harness.run.peers import install, load_peers


def _pypi_peer(folder: Path, peer_id: str, spec: str) -> None:
    peer = folder / peer_id
    peer.mkdir(parents=True)
    (peer / "peer.toml").write_text(
        f'[peer]\ntitle = "{peer_id}"\npackage = "{peer_id}"\nversion = "1.0"\n'
        'registry = "pypi"\n', "utf-8")
    (peer / "agentconf.toml").write_text(f'[implementation]\nspec = "{spec}"\n', "utf-8")
    (peer / "requirements.txt").write_text(f"{peer_id}==1.0 --hash=sha256:00\n", "utf-8")


def test_a_pypi_server_gets_its_own_venv_and_the_kit_runs_from_its_own_python(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _pypi_peer(tmp_path / "peers", "a-server", "mcp:{profile_dir}/venv/bin/a-server")
    _pypi_peer(tmp_path / "peers", "a-framework", "python:adapter:create")
    steps: list[list[str]] = []

    def step(command: list[str], cwd: Path, log: Path, peer: object) -> None:
        steps.append(command)
        if command[1:3] == ["-m", "venv"]:
            Path(command[3]).mkdir(parents=True)

    monkeypatch.setattr(peers_module, "_step", step)
    cache = tmp_path / "cache"
    server, framework = sorted(load_peers(tmp_path / "peers"), key=lambda p: p.id != "a-server")

    install(server, cache)
    assert not any("[mcp]" in " ".join(step) for step in steps), steps
    assert server.python(cache) == sys.executable

    steps.clear()
    install(framework, cache)
    assert any("[mcp]" in " ".join(step) for step in steps), steps
    assert framework.python(cache) == str(framework.venv(cache) / "bin" / "python")
