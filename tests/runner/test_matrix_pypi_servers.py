"""A PyPI peer that is an MCP (or cmd:) server runs in its own venv untouched: the kit drives it
over stdio from the kit's own environment. Installing the kit beside it (as a python: peer needs)
upgraded mcp-text-editor's pinned mcp 1.30 to the kit's mcp 2.3, and the server no longer
started (`No module named 'mcp.server.fastmcp'`)."""

import sys
from pathlib import Path

import pytest

import agentconf
from agentconf.harness.run import peers as peers_module
from agentconf.harness.run.peers import load_peers

PEER = '''[peer]
title = "t"
package = "p"
version = "1.0"
registry = "pypi"
'''


def _peer(tmp_path: Path, spec: str) -> peers_module.Peer:
    folder = tmp_path / "peers" / "p"
    folder.mkdir(parents=True)
    (folder / "peer.toml").write_text(PEER)
    (folder / "agentconf.toml").write_text(f'[implementation]\nspec = "{spec}"\n')
    (folder / "requirements.txt").write_text("p==1.0\n")
    return load_peers(tmp_path / "peers")[0]


def _installs_the_kit(step: list[str]) -> bool:
    """pip given this checkout (-e) or the kit's release as what to install. Not a substring of
    the whole command: the checkout's own path, in every step's interpreter, may hold
    "agentconf" (a clone into a folder of that name failed the test that way)."""
    checkout = str(Path(agentconf.__file__).resolve().parents[1])
    return "install" in step and (step[-1] == checkout or step[-1].startswith("agentconf-kit"))


def _record_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The installers' commands, not run (the venv's folder made as `python -m venv` would)."""
    steps: list[list[str]] = []

    def step(command: list[str], *_: object) -> None:
        steps.append(command)
        (tmp_path / "cache" / "p" / "venv").mkdir(parents=True, exist_ok=True)

    monkeypatch.setattr(peers_module, "_step", step)
    return steps


@pytest.mark.parametrize("spec", ["mcp:{profile_dir}/venv/bin/p", "cmd:p {root}"])
def test_a_pypi_server_is_driven_from_the_kits_own_environment(
        tmp_path: Path, spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    peer = _peer(tmp_path, spec)
    assert peer.python(tmp_path / "cache") == sys.executable
    steps = _record_steps(tmp_path, monkeypatch)
    peers_module.install(peer, tmp_path / "cache")
    assert steps and not any(_installs_the_kit(step) or "[mcp]" in " ".join(step)
                             for step in steps), steps


def test_a_pypi_framework_in_process_still_gets_the_kit_in_its_venv(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    peer = _peer(tmp_path, "python:adapter:create")
    assert peer.python(tmp_path / "cache") == str(tmp_path / "cache" / "p" / "venv" / "bin"
                                                   / "python")
    steps = _record_steps(tmp_path, monkeypatch)
    peers_module.install(peer, tmp_path / "cache")
    kit = [step for step in steps if _installs_the_kit(step)]
    assert kit, steps


def test_the_kit_beside_an_in_process_framework_leaves_its_mcp_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit's [mcp] extra (mcp>=2.3) upgraded openhands-sdk's pinned mcp 1.28.1 in its venv,
    and fastmcp, which the SDK imports, no longer imported ("FastMCP client support is not
    installed"). A python: run never imports the MCP SDK: the extra is not installed there."""
    peer = _peer(tmp_path, "python:adapter:create")
    steps = _record_steps(tmp_path, monkeypatch)
    peers_module.install(peer, tmp_path / "cache")
    assert not any("[mcp]" in " ".join(step) for step in steps), steps
