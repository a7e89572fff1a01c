"""Profile validation: a good profile loads every table; every mistake of a file is reported at
once, each naming its table and key; the CLI says so in one message with exit 2."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentconf.harness.profile.model import ProfileError, load_profile

GOOD = """
[implementation]
spec = "cmd:node server.js {root} --cache {cache}"
name = "toy-server"
version = "2.0"
absolute_paths = true
call_timeout_ms = 2500
exclude_tools = ["kill_process", "set_config_value"]
python = "{profile_dir}/.venv/bin/python"

[limits]
max_output_chars = 1000

[capabilities]
grep = false
read_before_edit = false

[tools.read_file]
name = "Read"
args = { path = "file_path" }
window = "offset_limit"
offset_base = 0
limits = { max_output_tokens = 25000 }
result = { text = "file.content", error = "/error" }

[tools.edit_file]
name = "edit"
args = { path = "file", old_text = "edits[0].oldText", new_text = "edits[0].newText" }
defaults = { dryRun = false }
replace_all = "expected_replacements"

[tools.bash]
units = { timeout_ms = "s" }
limits = { max_output_chars = 30000 }
[tools.bash.result]
text = ["stdout", "stderr"]
exit_code = "exit_code"
failure = { path = "interrupted", equals = true }

[tools.grep]
literal = true

[error_codes]
path_escape = "OUTSIDE_ROOT"

[[error_patterns]]
code = "OUTSIDE_ROOT"
pattern = "(?i)access denied"

[expected_failures]
"EDIT-03" = "first match on purpose"
"EOL-01::crlf-case" = "one case"

[env]
NO_COLOR = "1"
TOOL_HOME = "{home}/.toy"

[setup.files]
"{home}/.toy/config.json" = '{"allowedDirectories": ["{root}"]}'

[modes.read_only]
args = ["--read-only"]
env = { TOY_MODE = "ro" }
"""


def write(tmp_path: Path, text: str, name: str = "agentconf.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_full_profile_loads_every_table(tmp_path: Path) -> None:
    profile = load_profile(write(tmp_path, GOOD))
    assert (profile.name, profile.version, profile.absolute_paths) == ("toy-server", "2.0", True)
    assert profile.call_timeout_ms == 2500
    assert profile.exclude_tools == frozenset({"kill_process", "set_config_value"})
    assert profile.python == "{profile_dir}/.venv/bin/python"
    assert profile.limits.max_output_chars == 1000
    assert profile.capabilities == {"grep": False, "read_before_edit": False}
    edit = profile.tool("edit_file")
    assert edit.name == "edit" and edit.target("old_text") == "edits[0].oldText"
    assert edit.target("replace_all") == "expected_replacements"
    read = profile.tool("read_file")
    assert (read.name, read.target("start_line"), read.target("end_line")) == (
        "Read", "offset", "limit")
    assert read.first_offset == 0
    assert read.result.text_places() == ("file.content",)
    assert profile.tool("bash").unit("timeout_ms") == "s"
    assert profile.tool("bash").result.failure is not None
    assert profile.tool("grep").is_literal
    assert profile.tool("write_file").name == "write_file"  # unmapped: identity
    assert profile.error_codes == {"path_escape": "OUTSIDE_ROOT"}
    assert profile.error_patterns[0].pattern.search("Access Denied to /etc")
    assert set(profile.expected_failures) == {"EDIT-03", "EOL-01::crlf-case"}
    assert profile.env == {"NO_COLOR": "1", "TOOL_HOME": "{home}/.toy"}
    assert list(profile.setup_files) == ["{home}/.toy/config.json"]
    assert profile.modes["read_only"].args == ["--read-only"]
    assert profile.path == tmp_path / "agentconf.toml"


def test_per_tool_limits_are_converted_to_characters(tmp_path: Path) -> None:
    profile = load_profile(write(tmp_path, GOOD))
    assert profile.limits_for("bash").max_output_chars == 30000
    assert profile.limits_for("read_file").max_output_chars == 4 * 25000  # tokens ≈ chars / 4
    assert profile.limits_for("write_file") == profile.limits
    assert profile.limits_for("bash").max_read_bytes == profile.limits.max_read_bytes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[implementation\n", "is not valid TOML"),
        ("[implementaton]\nspec='reference'\n", "top level: implementaton: unknown key"),
        ("[implementation]\nspce='reference'\n", "[implementation].spce: unknown key; allowed:"),
        ("[implementation]\ncall_timeout_ms='10'\n", "[implementation].call_timeout_ms:"),
        ("[implementation]\ncall_timeout_ms=0\n", "greater than 0"),
        ("[implementation]\nreuse='always'\n", "[implementation].reuse: Input should be"),
        ("[implementation]\nspec='cmd:x {rot}'\n", "unknown placeholder(s) {rot}"),
        ("[limits]\nmax_output_char=5\n", "[limits].max_output_char: unknown key"),
        ("[limits]\nmax_output_chars=-5\n", "[limits].max_output_chars:"),
        ("[capabilities]\ngrepp=false\n", "[capabilities].grepp: unknown key"),
        ("[capabilities]\ngrep='no'\n", "[capabilities].grep:"),
        ("[tools.read]\nname='r'\n", "[tools].read: unknown key; allowed: apply_patch, bash"),
        ("[tools.read_file]\nargs={file='path'}\n", "[tools.read_file.args].file: Input should be"),
        ("[tools.read_file]\nargs={path='a..b'}\n", "is not a target like"),
        ("[tools.read_file]\nalias='x'\n", "[tools.read_file].alias: unknown key"),
        ("[tools.read_file]\nliteral=true\n", "[tools.read_file].literal: unknown key"),
        ("[tools.grep]\nwindow='offset_limit'\n", "[tools.grep].window: unknown key"),
        ("[tools.bash]\nunits={timeout_ms='h'}\n", "[tools.bash.units].timeout_ms:"),
        ("[tools.bash]\nresult={failure={path='x'}}\n", "exactly one of `equals"),
        ("[tools.bash]\nresult={text='a..b'}\n", "is not a place in the answer"),
        ("[tools.bash]\nlimits={max_output_chars=1, max_output_tokens=1}\n", "in one unit"),
        ("[error_codes]\nnope='MISSING'\n", "'MISSING' is not a contract error code"),
        ("[[error_patterns]]\ncode='OUTSIDE_ROOT'\npattern='(unclosed'\n",
         "is not a valid regular expression"),
        ("[[error_patterns]]\ncode='ESCAPE'\npattern='x'\n", "[error_patterns #1].code:"),
        ("[expected_failures]\n'EDIT-99'='why'\n", "unknown clause id 'EDIT-99'"),
        ("[expected_failures]\n'EDIT-03'=''\n", "[expected_failures].EDIT-03:"),
        ("[env]\n'1BAD'='x'\n", "[env].1BAD:"),
        ("[setup.files]\n'{home}/x'='{nope}'\n", "unknown placeholder(s) {nope}"),
        ("[modes.ReadOnly]\nargs=[]\n", "[modes].ReadOnly:"),
        ("[implementation]\nexclude_tools=['Read']\n[tools.read_file]\nname='Read'\n",
         "which [tools.read_file] maps"),
    ],
)
def test_each_profile_mistake_names_its_table_and_key(
        tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_every_mistake_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, """
        [implementation]
        call_timeout_ms = 0
        spce = "x"
        [limits]
        max_output_chars = -1
        [tools.read_file]
        args = { file = "path" }
        [[error_patterns]]
        code = "OUTSIDE_ROOT"
        pattern = "(unclosed"
    """)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: 5 problems")
    for place in ("[implementation].call_timeout_ms", "[implementation].spce",
                  "[limits].max_output_chars", "[tools.read_file.args].file",
                  "[error_patterns #1].pattern"):
        assert place in message


def test_a_missing_profile_file_is_a_profile_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="cannot read profile"):
        load_profile(tmp_path / "absent.toml")


def test_the_shipped_server_filesystem_profile_is_valid() -> None:
    shipped = Path(__file__).resolve().parents[3] / "peers/server-filesystem/agentconf.toml"
    profile = load_profile(shipped)
    assert profile.tool("edit_file").target("old_text") == "edits[0].oldText"
    assert profile.reuse == "worker"


def test_run_with_a_bad_profile_prints_every_error_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "[implementation]\nspec = 'reference'\ncall_timeout_ms = -1\n"
                           "[capabilities]\ngrepp = false\n", name="bad.toml")
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl", str(path),
         "--report", str(tmp_path / "reports")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "[implementation].call_timeout_ms" in done.stderr
    assert "[capabilities].grepp" in done.stderr
    assert not (tmp_path / "reports").exists()
