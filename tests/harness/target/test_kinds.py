"""Target kinds (harness/target/kinds.py): one registry of the schemes a spec may start with, each
kind declaring what it is (in process, over a pipe, from a command line); a third party's kind
comes in through the `agentconf.kinds` entry-point group and is parsed and opened like the
built-in ones; an unknown scheme is still one clear SpecError."""

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agentconf.harness.profile.model import Profile
from agentconf.harness.target import kinds
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.kinds import ENTRY_POINT_GROUP, SpecError, TargetKind
from agentconf.harness.target.spec import parse_spec


class MyKind(TargetKind):
    """A third party's kind: a URL, neither in process nor over a pipe."""

    scheme, usage = "myscheme", "myscheme:URL"

    def parse(self, text: str, rest: str, profile: Profile) -> tuple[str, tuple[str, ...]]:
        if not rest.startswith("//"):
            raise SpecError(f"myscheme spec {text!r} must look like myscheme://HOST")
        return rest, ()

    def open(self, target: str, argv: list[str], profile: Profile, env: AdapterEnv) -> Any:
        return ("opened", target, argv, env.root)


def _entry(name: str, loaded: Any) -> SimpleNamespace:
    return SimpleNamespace(name=name, value=f"thirdparty.kind:{name}", load=lambda: loaded)


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[SimpleNamespace]]:
    """The `agentconf.kinds` entry points this test installs; the registry re-read with them,
    and again without them afterwards."""
    installed: list[SimpleNamespace] = []

    def fake(*, group: str) -> list[SimpleNamespace]:
        return installed if group == ENTRY_POINT_GROUP else []

    monkeypatch.setattr(kinds, "entry_points", fake)
    kinds.registered.cache_clear()
    yield installed
    kinds.registered.cache_clear()


def test_the_registry_lists_the_three_built_in_kinds_with_what_each_is(
    entry_points: list[SimpleNamespace],
) -> None:
    facts = {scheme: (kind.in_process, kind.over_pipe, kind.has_command)
             for scheme, kind in kinds.registered().items()}
    assert facts == {"python": (True, False, False), "cmd": (False, True, True),
                     "mcp": (False, True, True)}
    assert kinds.usages() == "python:MODULE:FACTORY, cmd:COMMAND, mcp:COMMAND"


def test_a_kind_of_an_entry_point_is_parsed_and_opened(
    entry_points: list[SimpleNamespace], tmp_path: Path,
) -> None:
    entry_points.append(_entry("myscheme", MyKind))
    spec = parse_spec("myscheme://example.test/tools")
    assert (spec.kind, spec.target, spec.argv) == ("myscheme", "//example.test/tools", ())
    assert isinstance(spec.target_kind, MyKind) and not spec.target_kind.in_process
    assert spec.display_name == "//example.test/tools"  # not a module's name: not in process
    env = AdapterEnv(root=tmp_path, home=tmp_path, tmp=tmp_path)
    assert open_adapter(spec, env) == ("opened", "//example.test/tools", [], tmp_path)
    with pytest.raises(SpecError, match="must look like myscheme://HOST"):
        parse_spec("myscheme:nohost")
    # Its usage joins the others in what an unknown spec is told.
    with pytest.raises(SpecError, match="mcp:COMMAND, myscheme:URL or the path"):
        parse_spec("elsewhere:thing")


def test_an_unknown_scheme_is_one_clear_spec_error(entry_points: list[SimpleNamespace]) -> None:
    with pytest.raises(SpecError, match=r"unknown implementation spec 'myscheme://x': use "
                                        r"reference, python:MODULE:FACTORY, cmd:COMMAND, "
                                        r"mcp:COMMAND or the path of a profile \.toml"):
        parse_spec("myscheme://x")


@pytest.mark.parametrize(("entry", "message"), [
    (_entry("cmd", MyKind), "cmd: is already a kind"),
    (_entry("other", MyKind), "is not a TargetKind whose scheme is 'other'"),
    (_entry("myscheme", object), "is not a TargetKind"),
])
def test_a_kind_that_would_take_over_or_misname_a_scheme_is_refused(
    entry_points: list[SimpleNamespace], entry: SimpleNamespace, message: str,
) -> None:
    entry_points.append(entry)
    with pytest.raises(SpecError, match=message):
        parse_spec("cmd:echo")


def test_a_mode_with_arguments_needs_a_kind_started_from_a_command(tmp_path: Path) -> None:
    profile = tmp_path / "agentconf.toml"
    profile.write_text('[implementation]\nspec = "python:harness_toys:create"\n\n'
                       '[modes.read_only]\nargs = ["--read-only"]\n', "utf-8")
    spec = parse_spec(str(profile))
    with pytest.raises(SpecError, match="needs a cmd: or mcp: spec; a python: implementation"):
        spec.with_mode("read_only")
