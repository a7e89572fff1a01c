"""`agentconf init --from`: failures provoked by the golden cases marked `probe`, not written
here. Each is played in the scratch sandbox beside its twin (harness/cases/probes.py): the same
provocations RESULT-02 plays, so what a draft learns to read is what the run asks it to read,
and a new probe case is one case's change in its category's folder.

A probe case without a twin is RESULT-02's alone: a provocation whose incidental names cannot
be varied (the root itself) would teach a pattern the probe's own text, and a session's guard
(an edit of a file never read) may be satisfied by a case played before it on the same file:
those are probed on files of their own (probe_edits.py). Failures whose code the contract
leaves open (a link out, a write of a folder) are provoked in probe.py; the shell's, whose
answers are read for an exit status and a timeout as much as for a code, in probe_shell.py.
"""

import re
from functools import partial

from agentconf.contract import CANONICAL_TOOLS
from agentconf.harness.cases.judged import about_form, documented_form
from agentconf.harness.cases.load import Case, load_cases
from agentconf.harness.cases.play import provoke
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.client import Client
from agentconf.harness.session.shell_words import not_allowed
from agentconf.init_from.findings import Findings, learn, safely

# The tools whose success changes the disk: one that answers success and changed nothing refused.
_CHANGING_TOOLS = frozenset({"write_file", "edit_file", "apply_patch"})

# Answers a server may crash or hang on (a binary file, one over max_read_bytes): played after
# every other probe, so that a crash costs none of them.
LATE_CODES = frozenset({"BINARY_FILE", "FILE_TOO_LARGE"})


# A spelling of a code of its own (`no_such_file`) is mapped by the first provocation that
# shows it: the plainest refusals first, before those an implementation may answer in their
# words (a path outside the root answered as a missing file).
_PLAINEST_FIRST = ("NOT_FOUND", "IS_DIRECTORY")


def drawn(client: Client, mapped: set[str]) -> list[Case]:
    """The shipped probe cases with a twin that this implementation's mapped tools can play,
    the plainest refusals first."""
    cases = [case for case in load_cases()
             if case.probe and case.twin and _playable(case, client, mapped)]
    return sorted(cases, key=lambda case: _PLAINEST_FIRST.index(case.expected_code)
                  if case.expected_code in _PLAINEST_FIRST else len(_PLAINEST_FIRST))


def play_drawn(client: Client, ws: SandboxWorkspace, found: Findings, cases: list[Case],
               late: bool) -> None:
    """Each case and its twin, as one provocation of the code its last call expects."""
    for case in cases:
        code = case.expected_code
        if code is None or (code in LATE_CODES) != late:
            continue
        label = f"case {case.id}"
        if (why := _documented(client, case)) is not None:
            found.notes.append(f"{label}: {why}")
            continue
        for played in (case, case.twin_case()):
            provoked = safely(partial(provoke, played, ws, client), found, label)
            if provoked is None:
                continue
            result, changed = provoked
            # A "success" of a write or an edit that changed nothing: refused in words.
            learn(found, code, label, result,
                  did_nothing=not changed and result.request.tool in _CHANGING_TOOLS,
                  clauses=case.clauses)


def _documented(client: Client, case: Case) -> str | None:
    """Why a case's ill-typed call is no refusal to learn: its tool's schema documents the form
    (VALIDATE judges it so, harness/cases/judged.py), so a success forecasts no departure."""
    last = case.calls[-1]
    arguments, tool = last.get("arguments"), str(last.get("tool"))
    if case.expected_code != "INVALID_ARGS" or not about_form(case) or not isinstance(
            arguments, dict) or not client.advertises(tool):
        return None
    return documented_form(client, tool, arguments)


def names_in(cases: list[Case]) -> tuple[str, ...]:
    """What a message to another call may quote back of these cases, never part of a pattern:
    the file and tool names each twin varies, on both sides. Not its other words ("ab" of an
    edit's old text would be cut out of "absent"): each answer's own call says those
    (patterns.py `said`)."""
    return tuple(name for case in cases for pair in (case.twin or {}).items() for name in pair
                 if _NAME.fullmatch(name))


# A file or tool name: a word with a dot, a slash or an underscore in it.
_NAME = re.compile(r"(?=.*[./_])[\w./-]{4,}")


def _playable(case: Case, client: Client, mapped: set[str]) -> bool:
    tools = {call["tool"] for call in case.calls if "tool" in call}
    needed = tools | {need for need in case.requires if need in CANONICAL_TOOLS}
    if not needed <= mapped:
        return False
    # A pattern that is no regex provokes nothing in a search that takes it literally.
    if "grep" in tools and client.profile.tool("grep").is_literal:
        return False
    calls = [call for call in case.calls if "tool" in call]
    # A program the shell's gate refuses is answered PERMISSION_DENIED, not what is provoked.
    if any(not_allowed(client.profile, call["tool"], call.get("arguments") or {})
           for call in calls if isinstance(call.get("arguments"), dict)):
        return False
    # Where `/` is the root, an absolute path out names a missing file of the root: a refusal
    # of another kind, which would teach OUTSIDE_ROOT the words of NOT_FOUND.
    return not (client.profile.virtual_absolute_paths and any(
        _absolute(call.get("arguments")) for call in calls))


def _absolute(arguments: object) -> bool:
    """A path argument that is absolute, as written or once a placeholder (`<OUTSIDE>`) is
    filled."""
    return isinstance(arguments, dict) and any(
        isinstance(value, str) and (value.startswith("/") or _PLACE.match(value) is not None)
        for value in arguments.values())


# A placeholder the player fills with an absolute path: `<OUTSIDE>`, `<HOME>`, `<ROOT>`.
_PLACE = re.compile(r"<[A-Z_]+>")
