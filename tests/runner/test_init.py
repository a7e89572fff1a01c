"""`agentconf init`: starter files for an implementation's repository, never overwriting."""

from pathlib import Path

from cli import agentconf, assert_usage_error

from agentconf.harness.profile.model import load_profile
from agentconf.harness.target.spec import parse_spec


def test_init_writes_a_profile_that_parses_and_a_workflow(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    done = agentconf("init", "repo", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    profile = load_profile(tmp_path / "repo" / "agentconf.toml")
    assert profile.spec is not None and profile.spec.startswith("cmd:")
    assert parse_spec(profile.spec).kind == "cmd"
    assert profile.expected_failures == {}
    workflow = (tmp_path / "repo" / ".github" / "workflows" / "agentconf.yml").read_text()
    from agentconf import __version__
    assert "timeout-minutes:" in workflow
    # The repository's composite action (action.yml) runs it: tests/runner/test_github_ci.py.
    assert f"uses: agentconf-dev/agentconf@v{__version__}" in workflow
    assert f'version: "{__version__}"' in workflow and "profile: agentconf.toml" in workflow


def test_every_profile_field_has_a_comment(tmp_path: Path) -> None:
    agentconf("init", cwd=tmp_path)
    lines = (tmp_path / "agentconf.toml").read_text().splitlines()
    for number, line in enumerate(lines):
        if "=" in line and not line.startswith(("#", "[")):
            assert lines[number - 1].startswith("#"), f"no comment above {line!r}"


def test_init_refuses_to_overwrite_and_writes_nothing(tmp_path: Path) -> None:
    workflow = tmp_path / ".github" / "workflows" / "agentconf.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("mine\n")
    assert_usage_error(agentconf("init", cwd=tmp_path), "refusing to overwrite", "agentconf.yml")
    assert workflow.read_text() == "mine\n"
    assert not (tmp_path / "agentconf.toml").exists()


def test_init_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    assert_usage_error(agentconf("init", "nowhere", cwd=tmp_path), "not a directory")
