"""`agentconf init --from`: failures provoked by the golden cases marked `probe`, not written
here. Each is played in the scratch sandbox beside its twin (harness/cases/probes.py): the same
provocations RESULT-02 plays, so what a draft learns to read is what the run asks it to read,
and a new probe case is one case's change in its category's folder.

A probe case without a twin is RESULT-02's alone: a provocation whose incidental names cannot
be varied (the root itself) would teach a pattern the probe's own text.
"""

from functools import partial

from agentconf.contract import CANONICAL_TOOLS
from agentconf.harness.cases.load import Case, load_cases
from agentconf.harness.cases.play import provoke
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.client import Client
from agentconf.init_from.findings import Findings, failure

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
        failure(found, code, f"case {case.id}", partial(provoke, case, ws, client),
                partial(provoke, case.twin_case(), ws, client))


def names_in(cases: list[Case]) -> tuple[str, ...]:
    """What a message may quote back of these cases, never part of a pattern: the names each
    twin varies, on both sides."""
    return tuple(name for case in cases for pair in (case.twin or {}).items() for name in pair)


def _playable(case: Case, client: Client, mapped: set[str]) -> bool:
    tools = {call["tool"] for call in case.calls if "tool" in call}
    needed = tools | {need for need in case.requires if need in CANONICAL_TOOLS}
    if not needed <= mapped:
        return False
    # A pattern that is no regex provokes nothing in a search that takes it literally.
    return not ("grep" in tools and client.profile.tool("grep").is_literal)
