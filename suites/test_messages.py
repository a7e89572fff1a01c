"""Message snapshots: the text a model reads (`data`) is product surface, so it is pinned.

For canonical scenarios of every tool (its success and each error code it can return) the
normalised `data` is compared with the implementation's recorded snapshot (see conftest.py for
where they live; `--snapshot-update` records them). Normalised means: the sandbox root is
`<ROOT>`, the sandbox `<SANDBOX>`, and durations and process ids are placeholders, so a snapshot
changes only when the words do. A snapshot test is charged to no clause; `--agentconf-clauses`
selects it by the clauses of its scenario (marker `scenario`).

Each scenario is played once per worker and its last answer judged by all four of its checks
(the snapshot, RESULT-06, -07 and -08): a scenario that waits (a shell timeout, a FIFO read)
waits once, and a server started per check starts once. A check finding the answer already
played opens no session of its own; the answer is judged against the workspace it was played in.

Beside the snapshots, the same scenarios check message quality (RESULT-06, -07, -08), judged
without reference to any implementation's wording:

- RESULT-06 "says what to do next": a failure's data names at least one thing the model can act
  on: one of the implementation's own tool names, an argument name from one of its input schemas,
  or an action verb from `NEXT_STEP_VERBS`. This is a floor, not a style guide: a message that
  names no tool, no argument and no action ("Error: ENOENT") gives the model nothing to do.
  A NONZERO_EXIT's data is the command's own output, so it is exempt.
- RESULT-07: a failure's data fits in `limits.message_budget_chars` (a command's own output,
  NONZERO_EXIT and TIMEOUT, is bounded by max_output_chars instead).
- RESULT-08: no data contains an absolute path outside the root that the call's own arguments
  did not name: the sandbox around the root (canaries, sibling, home), the harness's real home
  and working directory.
"""

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _checks import code_read

from agentconf.harness.cases.load import Case, load_cases
from agentconf.harness.cases.play import play_case
from agentconf.harness.run.plugin_state import run_state
from agentconf.harness.verdicts.errors import ImplementationFailure, not_applicable

# Case ids (suites/<category>/cases.json) whose last answer is a canonical message, grouped by tool.
SCENARIOS: dict[str, tuple[str, ...]] = {
    "read_file": (
        "read-every-line",
        "read-window-middle",
        "read-empty-file",
        "read-missing",
        "read-folder",
        "read-binary-nul",
        "read-too-large",
        "read-fifo",
        "read-window-past-eof",
        "confine-dotdot-read-canary",
        "symlink-read-file-link-out",
        "symlink-loop-read",
        "validate-missing-path-for-read",
        "validate-two-problems-two-issues",
    ),
    "write_file": (
        "result-write-carries-a-summary",
        "edit-overwrite-not-read",
        "edit-write-folder-is-directory",
        "edit-write-under-a-file",
        "confine-dotdot-write",
        "confine-nul-write",
        "symlink-write-through-file-link-out",
        "symlink-dangling-out-write",
        "validate-missing-content",
        "validate-unknown-argument",
    ),
    "edit_file": (
        "edit-unique-replace",
        "edit-not-found-absent",
        "edit-multiple-two-lines",
        "edit-not-read",
        "edit-stale-read",
        "edit-missing-file",
        "edit-folder-is-directory",
        "edit-empty-old-text",
        "edit-noop-lf",
        "confine-edit-outside-dotdot",
        "validate-edit-without-new-text",
    ),
    "list_files": (
        "list-root-files-and-folders",
        "list-empty-folder",
        "list-missing-folder",
        "list-a-file",
        "list-pattern-no-match",
        "confine-list-outside",
        "symlink-loop-list",
    ),
    "grep": (
        "grep-reports-path-and-line",
        "grep-no-match-is-success",
        "grep-invalid-regex",
        "grep-path-missing",
        "confine-grep-outside",
        "validate-grep-without-pattern",
    ),
    "bash": (
        "shell-echo",
        "shell-empty-output-is-said",
        "shell-nonzero-exit",
        "shell-timeout",
        "validate-bash-command-is-a-list",
    ),
    "apply_patch": (
        "patch-add-update-delete",
        "patch-hunk-not-found",
        "patch-update-missing-file",
        "patch-add-existing-file",
        "patch-not-a-patch",
        "patch-add-outside-dotdot",
    ),
    "registry": ("registry-unknown-tool-plain",),
}

_VERB_LINES = (
    "use call read list check choose pick pass give add remove fix run retry try set narrow split",
    "ask copy include create rename provide specify search window omit shorten raise increase",
    "edit write open wait select supply change correct reread re-read verify make send name",
    "delete move replace report rewrite break",
)
NEXT_STEP_VERBS = frozenset(word for line in _VERB_LINES for word in line.split())
# A command's output is its own message: the model reads the exit code and stderr, not advice.
# A timeout still owes the model a next step (shorter command, larger timeout_ms), but its data
# may carry partial output of any length, so only the budget check exempts it.
OWN_OUTPUT = frozenset({"NONZERO_EXIT"})
OWN_OUTPUT_OR_PARTIAL = frozenset({"NONZERO_EXIT", "TIMEOUT"})

_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?)\b")
_PID = re.compile(r"\b(pid|PID|process)(\s*[:=#]?\s*)\d+\b")

_CASES: dict[str, Case] = {case.id: case for case in load_cases()}


def _scenarios(*, failures_only: bool = False) -> list[Any]:
    """One parameter per scenario, needing what the scenario's case needs."""
    params = []
    for tool, case_ids in SCENARIOS.items():
        for case_id in case_ids:
            case = _CASES[case_id]
            if failures_only and (case.expect or {}).get("success") is True:
                continue
            marks = [pytest.mark.scenario(*case.clauses)]
            if case.all_requirements:
                marks.append(pytest.mark.requires(*case.all_requirements))
            params.append(pytest.param(case, tool, marks=marks, id=f"{tool}-{case_id}"))
    return params


def normalise(text: str, ws: Any) -> str:
    for path, name in ((ws.root, "<ROOT>"), (ws.sandbox, "<SANDBOX>")):
        text = text.replace(str(path), name)
        text = text.replace(os.path.realpath(path), name)
    text = _DURATION.sub("<DURATION>", text)
    return _PID.sub(r"\1\2<PID>", text)


@dataclass(frozen=True)
class Played:
    """A scenario's last answer, with the workspace it was played in and the words of the
    listing it was played against (tool and argument names, for RESULT-06)."""

    answer: Any
    root: Path
    sandbox: Path
    listed_words: frozenset[str]
    budget: int  # the profile's message budget (RESULT-07)


def _cause(answer: Any, case: Case) -> str | None:
    """What a failure answered: its code where one is read, else the code its scenario provokes
    (an unread code is RESULT-02's; the message clauses still know a command's own output)."""
    return answer.error if code_read(answer) else case.expected_code


def _said(answer: Any, case: Case) -> str:
    """What the answer was, for a reason: a success is a success (not the code its scenario
    meant to provoke); a failure, its cause."""
    return "success" if answer.success else (_cause(answer, case) or "a failure")


def _played(case: Case, ws: Any, request: pytest.FixtureRequest) -> Played:
    """The scenario's last answer, played on first use in this worker and kept for its other
    checks. A scenario that gets none (a FIFO read that blocks, READ-10) leaves nothing for a
    message clause to judge: that departure is its own clause's, not ours."""
    kept = run_state(request.config).played
    key = f"message-scenario:{case.id}"
    if key not in kept:
        client = request.getfixturevalue("client")
        request.node.funcargs["client"] = client  # as if asked for: the run counts its calls
        try:
            results, _ = play_case(case, ws, client)
        except ImplementationFailure as failure:
            kept[key] = (f"the scenario {case.id} got no answer to judge ({failure}); "
                         f"that is judged under {', '.join(case.clauses)}")
        else:
            listing = client.list_tools()
            words = {tool["name"] for tool in listing} | {
                name for tool in listing
                for name in (tool.get("input_schema") or {}).get("properties", {})}
            kept[key] = Played(results[-1], ws.root, ws.sandbox, frozenset(words),
                               client.limits.message_budget_chars)
    played = kept[key]
    if isinstance(played, str):
        not_applicable(played)
    return played


# A path is named when it stands as whole components: `/root` is not named by `/sandbox/root`.
def _names_path(text: str, path: str) -> bool:
    return re.search(rf"(?<![\w.~-]){re.escape(path)}(?![\w.~-])", text) is not None


# Charged to no clause: a changed message is a regression of wording (outcome message-changed,
# a section of its own), not a departure from the clause its scenario checks.
@pytest.mark.parametrize(("case", "tool"), _scenarios())
def test_message_snapshot(
    case: Case, tool: str, ws: Any, request: pytest.FixtureRequest,
    message_snapshot: Callable[[str], None],
) -> None:
    played = _played(case, ws, request)
    message_snapshot(normalise(played.answer.data, played))


@pytest.mark.clause("RESULT-06")
@pytest.mark.parametrize(("case", "tool"), _scenarios(failures_only=True))
def test_failure_message_says_what_to_do_next(
    case: Case, tool: str, ws: Any, request: pytest.FixtureRequest
) -> None:
    played = _played(case, ws, request)
    answer = played.answer
    if answer.success or _cause(answer, case) in OWN_OUTPUT:
        not_applicable(f"this scenario answered {_said(answer, case)}, not an advisable failure")
    words = set(re.findall(r"[A-Za-z_][A-Za-z_-]*", answer.data))
    listed = played.listed_words
    actionable = words & listed or {w.lower() for w in words} & NEXT_STEP_VERBS
    assert actionable, (
        "the failure names no tool, no argument and no action the model could take next\n"
        + answer.evidence()
    )


@pytest.mark.clause("RESULT-07")
@pytest.mark.parametrize(("case", "tool"), _scenarios(failures_only=True))
def test_failure_message_fits_the_budget(
    case: Case, tool: str, ws: Any, request: pytest.FixtureRequest
) -> None:
    played = _played(case, ws, request)
    answer = played.answer
    if answer.success or _cause(answer, case) in OWN_OUTPUT_OR_PARTIAL:
        not_applicable(f"this scenario answered {_said(answer, case)}, not a message")
    budget = played.budget
    assert len(answer.data) <= budget, (
        f"the failure's data has {len(answer.data)} characters, over the budget of {budget}\n"
        + answer.evidence()
    )


@pytest.mark.clause("RESULT-08")
@pytest.mark.parametrize(("case", "tool"), _scenarios())
def test_message_reveals_no_path_outside_the_root(
    case: Case, tool: str, ws: Any, request: pytest.FixtureRequest
) -> None:
    played = _played(case, ws, request)
    answer = played.answer
    text = answer.data + "\n" + (answer.summary or "")
    named = repr(answer.request.arguments)
    for path in (played.root, Path(os.path.realpath(played.root))):
        text = text.replace(str(path), "<ROOT>")
    # The temporary folder the kit gave it (TMPDIR, the sandbox's tmp/): its own, which it may
    # name (a refusal listing where it may write), not the folder around the root.
    for path in (Path(played.sandbox) / "tmp", Path(os.path.realpath(played.sandbox)) / "tmp"):
        text = re.sub(re.escape(str(path)) + r"(?![\w.-])", "<TMPDIR>", text)
    for argument_path in re.findall(r"/[^\s'\",\]}]+", named):
        text = text.replace(argument_path, "<ARGUMENT>")
    private = {str(played.sandbox), os.path.realpath(played.sandbox), str(Path.cwd()),
               str(Path.home())}
    leaked = sorted(path for path in private if len(path) > 1 and _names_path(text, path))
    assert not leaked, f"the answer reveals {leaked}, outside the root\n" + answer.evidence()
