"""Profiles and implementation specs: good ones load, each mistake is one message naming it."""

import textwrap
from pathlib import Path

import pytest

from agentconf.harness.profile import ProfileError, load_profile
from agentconf.harness.resources import fixtures_dir, suites_dir
from agentconf.harness.spec import REFERENCE, SpecError, parse_spec, resolve

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


def test_a_full_profile_loads_every_table(tmp_path: Path) -> None:
    profile = load_profile(write(tmp_path, GOOD))
    assert (profile.name, profile.version, profile.absolute_paths) == ("toy-server", "2.0", True)
    assert profile.call_timeout_ms == 2500
    assert profile.limits.max_output_chars == 1000
    assert profile.capabilities == {"grep": False, "read_before_edit": False}
    edit = profile.tool("edit_file")
    assert edit.name == "edit" and edit.target("old_text") == "edits[0].oldText"
    assert edit.target("replace_all") == "replace_all"
    assert profile.tool("read_file").name == "read_file"
    assert profile.error_codes == {"path_escape": "OUTSIDE_ROOT"}
    assert profile.error_patterns[0].pattern.search("Access Denied to /etc")
    assert set(profile.expected_failures) == {"EDIT-03", "EOL-01::crlf-case"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[implementation\n", "is not valid TOML"),
        ("[implementaton]\nspec='reference'\n", "unknown key(s) 'implementaton' in top level"),
        ("[implementation]\nspce='reference'\n", "unknown key(s) 'spce' in [implementation]"),
        ("[implementation]\ncall_timeout_ms='10'\n", "call_timeout_ms must be a int"),
        ("[implementation]\ncall_timeout_ms=0\n", "call_timeout_ms must be > 0"),
        ("[limits]\nmax_output_char=5\n", "unknown limit(s) max_output_char"),
        ("[limits]\nmax_output_chars=-5\n", "max_output_chars must be a positive integer"),
        ("[capabilities]\ngrepp=false\n", "unknown capability 'grepp'"),
        ("[capabilities]\ngrep='no'\n", "grep must be true or false"),
        ("[tools.read]\nname='r'\n", "'read' is not a canonical tool"),
        ("[tools.read_file]\nargs={file='path'}\n", "'file' is not an argument of read_file"),
        ("[tools.read_file]\nargs={path='a..b'}\n", "is not a target like"),
        ("[tools.read_file]\nalias='x'\n", "unknown key(s) 'alias' in [tools.read_file]"),
        ("[error_codes]\nnope='MISSING'\n", "'MISSING' is not a contract error code"),
        ("[[error_patterns]]\ncode='OUTSIDE_ROOT'\npattern='(unclosed'\n",
         "is not a valid regular expression"),
        ("[[error_patterns]]\ncode='ESCAPE'\npattern='x'\n", "code 'ESCAPE' is not a contract"),
        ("[expected_failures]\n'EDIT-99'='why'\n", "unknown clause id 'EDIT-99'"),
        ("[expected_failures]\n'EDIT-03'=''\n", "needs a reason"),
    ],
)
def test_each_profile_mistake_is_one_clear_message(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_a_missing_profile_file_is_a_profile_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="cannot read profile"):
        load_profile(tmp_path / "absent.toml")


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


def test_suites_and_fixtures_are_found_in_a_checkout() -> None:
    assert (suites_dir() / "test_registry.py").is_file()
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
