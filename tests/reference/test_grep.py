"""The reference grep tool: both engines (ripgrep and the pure-Python fallback) on the same cases,
in real temp dirs with real links and FIFOs (Claude Code grep semantics, dskcode bounded memory)."""

import asyncio
import io
import os
import re
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from agentconf.contract import DEFAULT_LIMITS, Envelope, Limits, Workspace
from agentconf.reference.context import ToolContext
from agentconf.reference.registry import ToolRegistry
from agentconf.reference.results import ToolError
from agentconf.reference.sandbox.bounding import StreamBound
from agentconf.reference.sandbox.paths import real_root
from agentconf.reference.session import Session
from agentconf.reference.tools import grep
from agentconf.reference.tools.grep import GrepArgs, Search, choose_engine, glob_regex, search_file

MARKER = re.compile(r"\[\.\.\. truncated (\d+) chars \.\.\.\]")
HANG_GUARD_S = 60
SECRET = "CANARY-7f3e"  # the canary's content; searches look for its prefix, never all of it
CANARY = "CANARY"


def make_context(root: Path, limits: Limits = DEFAULT_LIMITS, **config: Any) -> ToolContext:
    real = real_root(root)
    return ToolContext(
        workspace=Workspace(root, limits=limits),
        root=real,
        write_roots=(real,),
        limits=limits,
        session=Session(),
        catalogue=ToolRegistry([grep.DECLARATION]),
        **config,
    )


@pytest.fixture(params=["rg", "python"])
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"{SECRET}\n")
    return root


def write(root: Path, relative: str, content: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def call(root: Path, engine: str, pattern: str, **arguments: Any) -> Envelope:
    limits = DEFAULT_LIMITS.with_overrides(arguments.pop("limits", {}))
    context = make_context(root, limits, grep_engine=engine)
    args = GrepArgs(pattern=pattern, **arguments)
    return asyncio.run(asyncio.wait_for(grep.handler(args, context), HANG_GUARD_S))


def call_error(root: Path, engine: str, pattern: str, **arguments: Any) -> ToolError:
    with pytest.raises(ToolError) as raised:
        call(root, engine, pattern, **arguments)
    return raised.value


def test_matches_are_reported_with_root_relative_path_and_line_number(
    root: Path, engine: str
) -> None:
    write(root, "a.txt", "one\nneedle here\nthree\n")
    write(root, "src/deep/b.py", "needle = 1\n")
    result = call(root, engine, "needle")
    assert result.success
    assert result.data == "a.txt:2:needle here\nsrc/deep/b.py:1:needle = 1\n"
    assert str(root) not in result.data


def test_files_come_in_path_order_folders_among_files(root: Path, engine: str) -> None:
    for name in ["z.txt", "b/x.txt", "A.txt", "a.txt", ".hidden", "b/a/y.txt", "c.txt"]:
        write(root, name, "hit\n")
    result = call(root, engine, "hit")
    names = [line.split(":")[0] for line in result.data.splitlines()]
    assert names == [".hidden", "A.txt", "a.txt", "b/a/y.txt", "b/x.txt", "c.txt", "z.txt"]


def test_no_match_is_a_success_that_says_so(root: Path, engine: str) -> None:
    write(root, "a.txt", "nothing to see\n")
    result = call(root, engine, "absent")
    assert result.success
    assert result.error is None
    assert result.data == "No matches for this pattern in the workspace."
    in_file = call(root, engine, "absent", path="a.txt")
    assert in_file.data == "No matches for this pattern in a.txt."
    assert call(root, engine, "absent", path=".").data == result.data


@pytest.mark.parametrize("include", [None, "*.nothing"])
def test_nothing_to_search_is_no_match_not_an_error(
    root: Path, engine: str, include: str | None
) -> None:
    if include:
        write(root, "a.txt", "hit\n")
    result = call(root, engine, "hit", include=include)
    assert result.success, result.data
    assert result.data == "No matches for this pattern in the workspace."


def test_a_pattern_that_begins_with_a_dash_is_a_pattern(root: Path, engine: str) -> None:
    write(root, "flags.txt", "plain\n-e is a flag\n--pre=cat too\n")
    assert call(root, engine, "-e").data == "flags.txt:2:-e is a flag\n"
    assert call(root, engine, "--pre=cat").data == "flags.txt:3:--pre=cat too\n"


def test_binary_files_found_while_recursing_are_skipped(root: Path, engine: str) -> None:
    write(root, "blob.bin", b"\x00\x01\x02needle\xff\xfe\x00needle\n")
    write(root, "text.txt", "needle\n")
    result = call(root, engine, "needle")
    assert result.data == "text.txt:1:needle\n"


def test_a_nul_after_the_first_block_stops_that_file(root: Path, engine: str) -> None:
    write(root, "late.bin", b"filler\n" * 20_000 + b"\x00needle after nul\n")
    result = call(root, engine, "needle")
    assert result.data.startswith("No matches")


def test_an_explicitly_named_binary_file_is_skipped_too(root: Path, engine: str) -> None:
    write(root, "blob.bin", b"needle\x00\xff\xfeneedle\n")
    result = call(root, engine, "needle", path="blob.bin")
    assert result.success
    assert result.data == "No matches: blob.bin is a binary file, so it was skipped."
    assert "\x00" not in result.data and "\ufffd" not in result.data


def test_results_are_bounded_with_head_tail_and_the_count_cut(root: Path, engine: str) -> None:
    expected = ""
    for number in range(40):
        name = f"logs/f{number:02d}.log"
        lines = "".join(f"match {number} {line}\n" for line in range(200))
        write(root, name, lines)
        expected += "".join(f"{name}:{line + 1}:match {number} {line}\n" for line in range(200))
    limit = 3_000
    result = call(root, engine, "match", limits={"max_output_chars": limit})
    assert result.success
    assert len(result.data) <= limit + DEFAULT_LIMITS.marker_budget_chars
    assert result.data.startswith(expected[:1000])
    assert result.data.endswith(expected[-1000:])
    found = MARKER.search(result.data)
    assert found is not None
    assert int(found.group(1)) == len(expected) - limit


def test_an_invalid_regex_is_invalid_args_with_a_readable_message(root: Path, engine: str) -> None:
    write(root, "a.txt", "text\n")
    error = call_error(root, engine, "a(")
    assert error.code == "INVALID_ARGS"
    assert "a(" in error.message
    assert len(error.message) < 1_000


def test_include_restricts_the_search_to_matching_file_names(root: Path, engine: str) -> None:
    write(root, "a.py", "hit\n")
    write(root, "pkg/b.py", "hit\n")
    write(root, "c.txt", "hit\n")
    assert call(root, engine, "hit", include="*.py").data == "a.py:1:hit\npkg/b.py:1:hit\n"
    braces = call(root, engine, "hit", include="*.{py,txt}").data
    assert braces == "a.py:1:hit\nc.txt:1:hit\npkg/b.py:1:hit\n"
    assert call(root, engine, "hit", include="pkg/*.py").data == "pkg/b.py:1:hit\n"


def test_path_restricts_the_search_to_a_folder_or_a_file(root: Path, engine: str) -> None:
    write(root, "a.txt", "hit\n")
    write(root, "sub/b.txt", "hit\n")
    write(root, "sub/c.txt", "hit\n")
    assert call(root, engine, "hit", path="sub").data == "sub/b.txt:1:hit\nsub/c.txt:1:hit\n"
    assert call(root, engine, "hit", path="sub/c.txt").data == "sub/c.txt:1:hit\n"
    assert call(root, engine, "hit", path="@sub/b.txt").data == "sub/b.txt:1:hit\n"


@pytest.mark.parametrize("path", ["..", "../outside", "/", "sub/../../outside/secret.txt"])
def test_a_path_outside_the_root_is_refused(root: Path, engine: str, path: str) -> None:
    (root / "sub").mkdir()
    error = call_error(root, engine, CANARY, path=path)
    assert error.code == "OUTSIDE_ROOT"
    assert SECRET not in error.message


def test_links_out_of_the_root_are_never_followed(root: Path, engine: str) -> None:
    outside = root.parent / "outside"
    (root / "link_dir").symlink_to(outside)
    (root / "link_file").symlink_to(outside / "secret.txt")
    write(root, "inner.txt", "nothing\n")
    result = call(root, engine, CANARY)
    assert result.success
    assert result.data.startswith("No matches")
    assert SECRET not in result.data
    for named in ("link_dir", "link_file", "link_dir/secret.txt"):
        assert call_error(root, engine, CANARY, path=named).code == "OUTSIDE_ROOT"


def test_an_explicit_link_inside_the_root_is_searched_at_its_target(
    root: Path, engine: str
) -> None:
    write(root, "sub/inner.txt", "hit\n")
    (root / "link_in").symlink_to("sub")
    assert call(root, engine, "hit", path="link_in").data == "sub/inner.txt:1:hit\n"


def test_a_missing_path_is_not_found(root: Path, engine: str) -> None:
    assert call_error(root, engine, "x", path="nope/nothing").code == "NOT_FOUND"


def test_a_fifo_is_refused_when_named_and_skipped_when_met(root: Path, engine: str) -> None:
    os.mkfifo(root / "pipe")
    write(root, "a.txt", "hit\n")
    assert call_error(root, engine, "hit", path="pipe").code == "INVALID_ARGS"
    assert call(root, engine, "hit").data == "a.txt:1:hit\n"


def test_version_control_folders_are_skipped(root: Path, engine: str) -> None:
    write(root, ".git/config", "hit\n")
    write(root, "a.txt", "hit\n")
    assert call(root, engine, "hit").data == "a.txt:1:hit\n"


def test_crlf_and_a_missing_final_newline_come_out_alike(root: Path, engine: str) -> None:
    write(root, "crlf.txt", b"one\r\nhit two\r\nhit three")
    assert call(root, engine, "hit").data == "crlf.txt:2:hit two\r\ncrlf.txt:3:hit three\n"


def test_the_fallback_is_chosen_when_rg_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert choose_engine("auto") == ("python", None)
    with pytest.raises(RuntimeError, match="rg"):
        choose_engine("rg")
    with pytest.raises(ValueError, match="engine"):
        choose_engine("grep")


def test_rg_is_found_beside_the_interpreter() -> None:
    engine, rg = choose_engine("auto")
    assert engine == "rg"
    assert rg is not None and os.access(rg, os.X_OK)
    assert choose_engine("python") == ("python", None)


def test_arguments_are_validated() -> None:
    with pytest.raises(ValidationError):
        GrepArgs(pattern="")
    with pytest.raises(ValidationError):
        GrepArgs.model_validate({"pattern": "x", "follow": True})
    assert grep.DECLARATION.input_schema["required"] == ["pattern"]


@pytest.mark.parametrize(
    ("glob", "matches", "misses"),
    [
        ("*.py", ["a.py", ".py"], ["a.pyc", "a/b.py"]),
        ("src/**/*.rs", ["src/a.rs", "src/x/y/a.rs"], ["lib/a.rs", "src/a.rsx"]),
        ("file?.[ch]", ["file1.c", "filex.h"], ["file12.c", "file1.o"]),
        ("[!a]*", ["b", "ba"], ["a", "ab"]),
        ("{a,b}.md", ["a.md", "b.md"], ["c.md", "{a,b}.md"]),
    ],
)
def test_globs_follow_gitignore_rules(glob: str, matches: list[str], misses: list[str]) -> None:
    regex = glob_regex(glob)
    assert all(regex.fullmatch(name) for name in matches)
    assert not any(regex.fullmatch(name) for name in misses)


class Generated(io.RawIOBase):
    """A readable stream of `total` bytes of log lines, produced on demand, never held whole."""

    def __init__(self, total: int, line: bytes, last: bytes) -> None:
        self.remaining = total
        self.line = line
        self.last = last
        self.pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while len(self.pending) < len(buffer) and self.remaining > 0:
            final = self.remaining <= len(self.line)
            self.pending += self.last if final else self.line
            self.remaining = 0 if final else self.remaining - len(self.line)
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size


def test_the_fallback_searches_a_gigabyte_with_bounded_memory() -> None:
    gigabyte = 1 << 30
    line = b"x" * 16_383 + b"\n"
    stream = io.BufferedReader(Generated(gigabyte, line, b"the needle at the end\n"), 64 * 1024)
    search = Search(1_000)
    tracemalloc.start()
    try:
        search_file(stream, "huge.log", re.compile("needle"), search, lambda: False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert search.matched
    assert search.output.render() == f"huge.log:{gigabyte // len(line)}:the needle at the end\n"
    assert peak < 5_000_000, peak


def test_the_fallback_stops_when_asked(root: Path) -> None:
    path = write(root, "a.txt", "hit\n" * 100)
    search = Search(100_000)
    with path.open("rb") as handle:
        search_file(handle, "a.txt", re.compile("hit"), search, lambda: True)
    assert not search.matched
    assert isinstance(search.output, StreamBound)


def test_an_include_glob_rg_cannot_parse_is_invalid_args(root: Path) -> None:
    write(root, "a.py", "x\n")
    error = call_error(root, "rg", "x", include="{a")
    assert error.code == "INVALID_ARGS" and "include" in error.message
