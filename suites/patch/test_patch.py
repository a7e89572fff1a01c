"""PATCH: apply_patch changes several files all or nothing, each confined and keeping its own
line endings (@clarvis/agent-tools' staged commit with rollback, Codex's patch format).

The golden cases (suites/patch/cases.json) pin one example of each rule; these checks vary
where in a patch the failure sits, what the files hold and where the paths lead.
"""

from typing import Any

import pytest
from _checks import refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentconf.harness.verdicts.errors import not_applicable

PROPERTY = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)


def patch(*sections: str) -> str:
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def update(path: str, old: str, new: str) -> str:
    return f"*** Update File: {path}\n-{old}\n+{new}\n"


# ---------------------------------------------------------------- PATCH-01 all or nothing

# A section that fails, whatever the implementation's check order: each names a different cause.
# The clause each cause is the subject of, where it has one of its own: a section this
# implementation accepts is that clause's departure, and no section of the patch failed.
OWN_CLAUSE = {"add-of-an-existing-file": "PATCH-05"}
FAILING = {
    "hunk-does-not-match": update("f2.txt", "not in the file", "x"),
    "update-of-a-missing-file": update("missing.txt", "a", "b"),
    "delete-of-a-missing-file": "*** Delete File: missing.txt\n",
    "add-of-an-existing-file": "*** Add File: f1.txt\n+replaced\n",
}


@pytest.mark.clause("PATCH-01")
@pytest.mark.parametrize("failing", sorted(FAILING))
@pytest.mark.parametrize("position", [0, 1, 3])
def test_a_failing_section_anywhere_leaves_every_file_as_it_was(
    ws, client, failing: str, position: int
) -> None:
    for index in range(3):
        ws.write(f"f{index}.txt", f"line {index}\n")
    good = [
        update("f0.txt", "line 0", "changed 0"),
        "*** Add File: new/added.txt\n+added\n",
        "*** Delete File: f2.txt\n",
    ]
    sections = [*good[:position], FAILING[failing], *good[position:]]
    before = ws.tree()
    result = client.call("apply_patch", patch=patch(*sections))
    if result.success and client.call("apply_patch", patch=patch(FAILING[failing])).success:
        # The scenario needs a failing section: one accepted alone never failed here.
        not_applicable(f"the {failing} section alone is accepted, so no section of this patch "
                       f"failed: {OWN_CLAUSE.get(failing, 'another clause')}'s matter")
    refused(result)
    assert ws.tree() == before, "part of a failed patch landed:\n" + result.evidence()


# ---------------------------------------------------------------- PATCH-02 as the patch says

_WORDS = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@st.composite
def _files_and_edits(draw: st.DrawFn) -> list[tuple[list[str], int, int, list[str]]]:
    """Per file: its lines (each unique), and a block [start, stop) replaced by new lines."""
    files = []
    for number in range(draw(st.integers(1, 3))):
        words = draw(st.lists(_WORDS, min_size=1, max_size=6))
        lines = [f"{number}.{index} {word}" for index, word in enumerate(words)]
        start = draw(st.integers(0, len(lines) - 1))
        stop = draw(st.integers(start + 1, len(lines)))
        new = [f"new {word}" for word in draw(st.lists(_WORDS, max_size=3))]
        files.append((lines, start, stop, new))
    return files


@pytest.mark.clause("PATCH-02")
@PROPERTY
@given(files=_files_and_edits())
def test_each_updated_file_has_exactly_its_hunk_applied(ws, client, files) -> None:
    sections = []
    for number, (lines, start, stop, new) in enumerate(files):
        ws.write(f"p{number}.txt", "".join(line + "\n" for line in lines))
        context = lines[start - 1:start]  # one line of context before the block, if any
        body = [f" {line}" for line in context] + [f"-{line}" for line in lines[start:stop]]
        body += [f"+{line}" for line in new]
        sections.append(f"*** Update File: p{number}.txt\n" + "".join(b + "\n" for b in body))
    result = client.call("apply_patch", patch=patch(*sections))
    assert result.success, result.evidence()
    for number, (lines, start, stop, new) in enumerate(files):
        expected = lines[:start] + new + lines[stop:]
        assert ws.read_bytes(f"p{number}.txt") == "".join(x + "\n" for x in expected).encode(), (
            f"p{number}.txt\n" + result.evidence()
        )


@pytest.mark.clause("PATCH-02")
def test_a_move_leaves_the_file_at_its_new_path_only_and_a_delete_removes_it(ws, client) -> None:
    ws.write("src/old.txt", "keep\nold\n")
    ws.write("gone.txt", "bye\n")
    result = client.call("apply_patch", patch=patch(
        "*** Update File: src/old.txt\n*** Move to: dst/new.txt\n keep\n-old\n+new\n",
        "*** Delete File: gone.txt\n",
    ))
    assert result.success, result.evidence()
    assert ws.read_bytes("dst/new.txt") == b"keep\nnew\n"
    assert not ws.exists("src/old.txt") and not ws.exists("gone.txt"), result.evidence()


# ---------------------------------------------------------------- PATCH-03 confined per path


def _outside_sections(ws: Any, kind: str) -> dict[str, str]:
    """Sections of one kind whose path leads outside the root, by how it gets there."""
    ws.link_farm()
    escapes = {
        "dotdot": "../escape.txt",
        "deep-dotdot": "sub/../../escape.txt",
        "absolute": str(ws.outside / "planted.txt"),
        "sibling": str(ws.sibling / "planted.txt"),
        "link-folder": "link_out/planted.txt",
        "home": str(ws.home / ".ssh" / "planted_keys"),
    }
    if kind == "add":
        return {name: f"*** Add File: {path}\n+planted\n" for name, path in escapes.items()}
    if kind == "move-to":
        return {
            name: f"*** Update File: a.txt\n*** Move to: {path}\n-a\n+b\n"
            for name, path in escapes.items()
        }
    secret = (ws.outside / "secret.txt").read_text().splitlines()[0]
    if kind == "update-through-link":  # the hunk matches, so only confinement can refuse it
        return {"link-file": update("link_out_file", secret, "replaced")}
    return {"dotdot": "*** Delete File: ../outside/secret.txt\n"}


@pytest.mark.clause("PATCH-03")
@pytest.mark.requires("symlinks")
@pytest.mark.parametrize("kind", ["add", "move-to", "update-through-link", "delete"])
def test_a_path_outside_the_root_fails_the_whole_patch(ws, client, kind: str) -> None:
    ws.write("a.txt", "a\n")
    for name, failing in _outside_sections(ws, kind).items():
        before = ws.tree()
        result = client.call("apply_patch", patch=patch("*** Add File: inside.txt\n+in\n",
                                                        failing))
        refused(result, "OUTSIDE_ROOT", context=name)
        assert ws.tree() == before, f"{name}: the root changed\n{result.evidence()}"


# ---------------------------------------------------------------- PATCH-04 endings per file

VARIANTS = {
    "lf": ("", "\n", True),
    "crlf": ("", "\r\n", True),
    "crlf-no-final-newline": ("", "\r\n", False),
    "bom-crlf": ("\ufeff", "\r\n", True),
    "bom-lf-no-final-newline": ("\ufeff", "\n", False),
}


def _text(bom: str, ending: str, final: bool, lines: list[str]) -> str:
    return bom + ending.join(lines) + (ending if final else "")


@pytest.mark.clause("PATCH-04")
@pytest.mark.parametrize("changed", ["first", "middle", "last"])
def test_every_file_of_one_patch_keeps_its_own_endings(ws, client, changed: str) -> None:
    lines = ["alpha", "beta", "gamma"]
    index = {"first": 0, "middle": 1, "last": 2}[changed]
    sections = []
    for name, (bom, ending, final) in VARIANTS.items():
        ws.write(f"{name}.txt", _text(bom, ending, final, lines).encode())
        sections.append(update(f"{name}.txt", lines[index], lines[index].upper()))
    result = client.call("apply_patch", patch=patch(*sections))
    assert result.success, result.evidence()
    wanted = [line.upper() if i == index else line for i, line in enumerate(lines)]
    for name, (bom, ending, final) in VARIANTS.items():
        assert ws.read_bytes(f"{name}.txt") == _text(bom, ending, final, wanted).encode(), (
            f"{name}.txt lost its own endings\n" + result.evidence()
        )


@pytest.mark.clause("PATCH-04")
def test_lines_added_to_a_mixed_file_take_its_dominant_ending_and_the_rest_is_kept(
    ws, client
) -> None:
    ws.write("mixed.txt", b"one\r\ntwo\r\nthree\nfour\r\n")
    result = client.call("apply_patch", patch=patch(
        "*** Update File: mixed.txt\n one\n-two\n+2\n+2b\n"
    ))
    assert result.success, result.evidence()
    assert ws.read_bytes("mixed.txt") == b"one\r\n2\r\n2b\r\nthree\nfour\r\n"


# ---------------------------------------------------------------- PATCH-05 codes


@pytest.mark.clause("PATCH-05")
@pytest.mark.parametrize(
    ("section", "code"),
    [
        (update("a.txt", "absent", "x"), "TEXT_NOT_FOUND"),
        (update("missing.txt", "a", "b"), "NOT_FOUND"),
        ("*** Delete File: missing.txt\n", "NOT_FOUND"),
        ("*** Add File: a.txt\n+again\n", "ALREADY_EXISTS"),
    ],
)
def test_a_failed_patch_answers_the_code_of_its_cause(ws, client, section: str, code: str) -> None:
    ws.write("a.txt", "a\n")
    result = client.call("apply_patch", patch=patch(section))
    refused(result, code)


@pytest.mark.clause("PATCH-05")
@pytest.mark.parametrize(
    "text",
    ["", "*** Begin Patch\n*** Add File: x.txt\n+x\n", "diff --git a/a.txt b/a.txt\n",
     "*** Begin Patch\n*** Rename File: a.txt\n*** End Patch\n"],
)
def test_text_that_is_not_a_patch_is_invalid_args(ws, client, text: str) -> None:
    ws.write("a.txt", "a\n")
    before = ws.tree()
    result = client.call("apply_patch", patch=text)
    refused(result, "INVALID_ARGS")
    assert ws.tree() == before
