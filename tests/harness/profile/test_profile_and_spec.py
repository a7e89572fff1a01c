"""Implementation specs: good ones load, each mistake is one message naming it.

Profile validation itself is tested in test_profile_validation.py."""

import textwrap
from pathlib import Path

import pytest

from agentconf.contract import DEFAULT_LIMITS
from agentconf.harness.profile.model import parse_profile
from agentconf.harness.resources import fixtures_dir, suites_dir
from agentconf.harness.target.spec import (
    REFERENCE,
    REFERENCE_LIMITS,
    SpecError,
    parse_spec,
    resolve,
)

GOOD = """
[implementation]
spec = "cmd:node server.js {root} --cache {cache}"
name = "toy-server"
version = "2.0"
absolute_paths = true
call_timeout_ms = 2500

[limits]
max_output_chars = 1000

[capabilities]
grep = false
read_before_edit = false

[tools.edit_file]
name = "edit"
args = { path = "file", old_text = "edits[0].oldText", new_text = "edits[0].newText" }
defaults = { dryRun = false }

[error_codes]
path_escape = "OUTSIDE_ROOT"

[[error_patterns]]
code = "OUTSIDE_ROOT"
pattern = "(?i)access denied"

[expected_failures]
"EDIT-03" = "first match on purpose"
"EOL-01::crlf-case" = "one case"
"""


def write(tmp_path: Path, text: str, name: str = "agentconf.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_python_spec_names_module_and_factory() -> None:
    spec = parse_spec("python:harness_toys:create")
    assert (spec.kind, spec.module, spec.factory_name) == ("python", "harness_toys", "create")
    assert callable(spec.load_factory())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty implementation spec"),
        ("python:toys", "must look like python:MODULE:FACTORY"),
        ("python:agentconf_no_such_module:create", "cannot import module"),
        ("python:harness_toys:no_such_factory", "has no factory 'no_such_factory'"),
        ("python:harness_toys:SCHEMA", "is not callable"),
        ("cmd:", "has no command"),
        ("cmd:node 'unclosed", "cannot split the command"),
        ("nonsense", "unknown implementation spec 'nonsense'"),
    ],
)
def test_each_bad_spec_is_one_clear_message(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        parse_spec(text)


def test_a_cmd_spec_is_split_like_a_shell_but_never_run_by_one(monkeypatch) -> None:
    monkeypatch.setenv("AGENTCONF_CACHE", "/cache")
    spec = parse_spec("cmd:node 'my server.js' {root} $HOME {cache}/x")
    assert spec.argv == ("node", "my server.js", "{root}", "$HOME", "/cache/x")
    assert spec.command(Path("/r"), Path("/h"), Path("/t")) == [
        "node", "my server.js", "/r", "$HOME", "/cache/x"]
    assert spec.display_name == "node"


def test_a_profile_path_as_spec_brings_its_implementation_and_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    spec = parse_spec(str(path))
    assert (spec.kind, spec.text, spec.display_name) == ("cmd", str(path), "toy-server")
    assert spec.profile.tool("edit_file").name == "edit"


def test_a_profile_without_a_spec_needs_an_impl(tmp_path: Path) -> None:
    path = write(tmp_path, "[implementation]\nname='x'\n")
    with pytest.raises(SpecError, match=r"no \[implementation\]\.spec"):
        resolve(None, str(path))
    assert resolve("python:harness_toys:create", str(path)).profile.name == "x"


def test_a_bad_spec_inside_a_profile_names_the_profile(tmp_path: Path) -> None:
    path = write(tmp_path, "[implementation]\nspec='python:harness_toys:nope'\n")
    with pytest.raises(SpecError, match=f"profile {path}.*has no factory"):
        parse_spec(str(path))


def test_the_reference_spec_is_the_reference_factory() -> None:
    spec = parse_spec("reference")
    assert spec.target == REFERENCE.removeprefix("python:")
    assert spec.display_name == "reference"


def test_the_reference_is_checked_with_the_short_default_shell_timeout_it_declares() -> None:
    """SHELL-14 waits the declared default out once per run: 5 s for the built-in reference, not
    the contract's 30; a profile naming the reference declares its own."""
    declared = parse_spec("reference").profile.limits.shell_timeout_ms
    assert declared == REFERENCE_LIMITS["shell_timeout_ms"] < DEFAULT_LIMITS.shell_timeout_ms
    own = parse_profile({"limits": {"shell_timeout_ms": 9000}})
    assert parse_spec("reference", own).profile.limits.shell_timeout_ms == 9000


def test_suites_and_fixtures_are_found_in_a_checkout() -> None:
    assert (suites_dir() / "registry" / "test_registry.py").is_file()
    assert fixtures_dir().is_dir()


def test_a_relative_script_path_in_a_command_is_anchored_where_the_user_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The program runs with cwd = the workspace root, so `cmd:node server.mjs {root}` must not
    look for server.mjs there; a bare program name and a module name stay as they are."""
    (tmp_path / "server.mjs").write_text("// a server\n")
    (tmp_path / "agentconf").mkdir()
    monkeypatch.chdir(tmp_path)
    spec = resolve("cmd:node server.mjs {root}", None)
    assert spec.argv == ("node", str(tmp_path / "server.mjs"), "{root}")
    spec = resolve("cmd:python -m agentconf serve --root {root}", None)
    assert spec.argv == ("python", "-m", "agentconf", "serve", "--root", "{root}")
