"""`agentconf init --from`: whether the draft shares one server across checks (`reuse = "worker"`).

A server started for every check is the faithful default: nothing one check does can reach the
next. The draft shares one per pytest worker only where that cannot change a verdict and pays:

- starting it (the process up and its tools/list answered; in process, the factory's object
  built and listing its tools) costs at least START_WORTH_SHARING_S, the lower of two starts
  measured, so the run would spend most of its time starting servers or building objects;
- with the session features (read guard, stale-read check) on, the kit retires a kept server
  after any check that reads, writes, runs a command or reveals tools (harness/target/reuse.py),
  so no check meets a session another shaped. The probes settled them and its shell keeps
  neither a `cd` nor an `export`: `reuse = "worker"`, the features as probed. A shell that
  keeps (or may keep) a `cd`: `reuse = "worker-fresh-shell"`, a check that runs a command
  retires the server too. A feature no probe could settle: `reuse = "worker-stateful"`, the
  server taken to keep a session whatever the features say, so the checks that share one only
  list, grep or are refused before they run.

A kept server gets a fresh sandbox at the same place for every check. It is retired after a
failure that is more than a plain departure (a hang, a death, a late write), or that came after
a command or a cancelled call; after a plain one, the failure's sandbox is copied out and the
server kept. What the probes cannot see (a tool that remembers something else between calls) is why
the comment names the evidence: check it, or drop the line.
"""

import time
from dataclasses import dataclass

from agentconf.harness.profile.tables import SESSION_FEATURES
from agentconf.harness.session.client import Client
from agentconf.harness.target.adapters import open_adapter
from agentconf.harness.target.adapters.base import AdapterEnv
from agentconf.harness.target.spec import ImplSpec
from agentconf.harness.verdicts.errors import (
    ContractViolation,
    ImplementationFailure,
    NotApplicable,
)
from agentconf.init_from.findings import Findings, safely

# A Python stdlib server starts in 0.02-0.05 s; a Node MCP server in 0.08-0.5 s (0.24 s seen for
# the official filesystem server on a busy machine, 0.08 s for @shtse8/filesystem-mcp on a quiet
# one, whose 728 starts then took 74% of its run), a Python one on the MCP SDK in about 1 s.
# At 0.05 s a start costs a minute over a whole run's 1,242 checks.
START_WORTH_SHARING_S = 0.05
_DIR, _VAR = "agentconf-probe-cwd", "AGENTCONF_PROBE_KEPT"


@dataclass
class Sharing:
    share: bool
    why: str  # the evidence, one line, for the profile's comment
    mode: str = "worker"  # the profile's reuse when it shares (profile/tables.py REUSE_MODES)


def time_start(spec: ImplSpec, env: AdapterEnv) -> float | None:
    """Seconds from starting the implementation to its tools/list answer (it is then closed);
    None when this second start failed (a server that cannot start twice in one place is not
    one to keep either)."""
    began = time.monotonic()
    try:
        adapter = open_adapter(spec, env)
    except (ImplementationFailure, ContractViolation, OSError):
        return None
    try:
        adapter.list_tools()
        return time.monotonic() - began
    except (ImplementationFailure, ContractViolation):
        return None
    finally:
        adapter.close()


def shell_keeps_state(client: Client, found: Findings) -> str | None:
    """What a shell carried from one call to the next (a `cd`, an `export`), "unknown" when the
    probe could not tell, or None when it kept nothing."""
    try:
        made = safely(lambda: client.call(
            "bash", command=f"mkdir -p {_DIR} && cd {_DIR} && export {_VAR}=kept"), found,
            "a cd and an export, for a shell's session state")
        if made is None or not made.success:
            return "unknown"
        seen = safely(lambda: client.call("bash", command=f'pwd; echo "[${_VAR}]"'), found,
                      "pwd and the exported variable in the next call")
    except NotApplicable:  # its allow-list refuses the probe's programs
        return "unknown"
    if seen is None or not seen.success:
        return "unknown"
    kept = [what for what, mark in (("a cd", _DIR), ("an export", "[kept]")) if mark in seen.data]
    return " and ".join(kept) or None


def decide(starts: list[float | None], capabilities: dict[str, tuple[bool, str]],
           shell_state: str | None, session_state: str | None = None,
           kept: str | None = None) -> Sharing:
    """Whether to draft reuse, from what was measured and probed. `capabilities` are the
    probes' findings: a session feature they did not settle counts as kept. `session_state`:
    evidence of state no feature names (a read guard outside the root), kept as well. `kept`:
    what the server failed once its sandbox was built again in place, as between checks."""
    if None in starts:
        return Sharing(False, "a second start failed: one server for every check")
    start = min(start for start in starts if start is not None)
    measured = f"a start (up to its tools/list answer) took {start:.2f} s, the lower of " \
               f"{len(starts)}"
    if start < START_WORTH_SHARING_S:
        return Sharing(False, f"{measured}: cheap enough to start one for every check")
    if kept is not None:
        return Sharing(False, f"{measured}; kept while its sandbox was emptied and built again "
                              f"in place, as between checks, it failed ({kept}): one server for "
                              "every check")
    # Off because no probe could settle it ("TODO: not probed ...") is not off: a kept server
    # might carry a session nobody asked about, so it is taken to keep one.
    unsettled = [name for name in SESSION_FEATURES
                 if name not in capabilities or capabilities[name][1].startswith("TODO")]
    retired = ("every check that reads, writes, runs a command or reveals tools retires the "
               "server, the others share one per worker, a fresh sandbox for every check")
    if unsettled:
        return Sharing(True, f"{measured}; whether it keeps session state "
                             f"({' and '.join(unsettled)}) could not be probed, so it is taken "
                             f"to keep it: {retired}", "worker-stateful")
    if session_state:
        return Sharing(True, f"{measured}; it keeps session state ({session_state}): "
                             f"{retired}", "worker-stateful")
    guarded = [name for name in SESSION_FEATURES if capabilities[name][0]]
    session = (f"; it keeps session state ({' and '.join(guarded)}), so a check that reads, "
               "writes or reveals tools retires the server too") if guarded else ""
    if shell_state:
        kept = ("whether its shell keeps a cd or an export between calls could not be probed"
                if shell_state == "unknown" else f"its shell keeps {shell_state} between calls")
        return Sharing(True, f"{measured}; {kept}, so a check that runs a command retires the "
                             f"server{session}: one server per worker otherwise, a fresh "
                             "sandbox for every check", "worker-fresh-shell")
    if guarded:
        return Sharing(True, f"{measured}; it keeps session state ({' and '.join(guarded)}), "
                             "so a check that reads, writes, runs a command or reveals tools "
                             "retires the server; its shell keeps no cd or export: one server "
                             "per worker otherwise, a fresh sandbox for every check")
    return Sharing(True, f"{measured}; no session state seen (no read guard, no stale-read "
                         "check, no shell keeping a cd or an export): one server per worker, "
                         "a fresh sandbox for every check")
