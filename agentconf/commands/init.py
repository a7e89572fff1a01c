"""`agentconf init`: a starter profile and CI workflow for an implementation's own repository.

With `--from SPEC` the profile is drafted from the implementation itself (init_from/draft.py):
started once in a scratch sandbox, its tools/list mapped onto the canonical tools and a few
harmless calls probed, every guess commented with its evidence.
"""

import argparse
from pathlib import Path

from agentconf import __version__
from agentconf.cli import UsageError

HELP = "write a starter agentconf.toml and .github/workflows/agentconf.yml"

PROFILE = '''\
# agentconf profile: how agentconf reaches and judges your tool system.
# Check it with `agentconf run --profile agentconf.toml`; `agentconf explain CLAUSE-ID` says what
# a clause asks and why.

[implementation]
# Which implementation to check, in any --impl form:
#   "python:MODULE:FACTORY"  FACTORY(workspace) returns an object with list_tools/call_tool
#   "cmd:COMMAND"            any language, newline-delimited JSON-RPC 2.0 over stdio
#   "mcp:COMMAND"            an MCP server over stdio
# {root} in a command is replaced by the workspace root the tools must stay inside.
spec = "cmd:./my-tool-server --root {root}"
# Shown in reports and used as the report folder's name.
name = "my-tool-server"
# Your version, shown in reports.
version = "0.1.0"
# true: send paths joined to the root (absolute); false: send them as the model wrote them.
absolute_paths = false
# How long one tool call may take before it counts as hung (milliseconds).
call_timeout_ms = 10000
# Tools of yours the kit must never call (it drives only the contract's tools anyway).
# exclude_tools = ["kill_process"]

[env]
# Variables for your implementation's environment, when it needs some to start. Placeholders:
# {root} (the workspace), {home} and {tmp} (its sandboxed HOME and TMPDIR), {profile_dir}.
# MY_TOOL_CONFIG = "{profile_dir}/tool-config.json"

[limits]
# Overrides of the contract's default limits, when yours differ on purpose.
# max_output_chars = 50000

[capabilities]
# Tools or features you do not offer: their clauses become n/a instead of failing.
# grep = false
# read_before_edit = false

# Your tool and argument names, when they differ from the canonical ones:
# [tools.read_file]
# name = "read_text_file"
# args = { path = "path" }
# [tools.edit_file]
# name = "edit_file"
# args = { path = "path", old_text = "edits[0].oldText", new_text = "edits[0].newText" }

# When your envelopes carry no error code, map message text onto the contract's codes (in order):
# [[error_patterns]]
# code = "OUTSIDE_ROOT"
# pattern = "(?i)access denied"

[expected_failures]
# Known gaps, so CI stays green while you track them; one that starts passing turns CI red.
# `agentconf run --write-baseline FILE` writes today's list for you.
# "EDIT-03" = "we apply edits to the first match on purpose"
'''

# The composite action at this repository's root (action.yml), tagged v<kit version> on release.
ACTION = "agentconf-dev/agentconf"

WORKFLOW = '''\
# agentconf conformance check: fails the build when a MUST clause of the contract breaks.
# The action installs agentconf-kit, runs it, publishes junit.xml as test results and writes the
# job's summary: escapes first, then each failure with the line that reproduces it.
name: agentconf
on: [push, pull_request]
permissions:
  contents: read
  # The action publishes junit.xml as a check run; a pull request from a fork gets a read-only
  # token, and then the action only annotates (the job's summary is written either way).
  checks: write
jobs:
  conformance:
    runs-on: ubuntu-latest
    # A run stops itself when the implementation cannot start; this bounds everything else.
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      # First the Python the kit will run on: the action installs agentconf-kit into the Python
      # on PATH, and a python: implementation must be importable there.
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      # Then build or install your implementation here, so the profile's spec can start it:
      #   - run: python -m pip install .      (a python: implementation, into that Python)
      #   - run: npm ci && npm run build      (a cmd: or mcp: server)
      # To pin your messages too, record them once into the repository
      # (agentconf snapshots record --profile agentconf.toml --snapshot-dir agentconf-snapshots)
      # and uncomment snapshot-dir below: a changed message turns the run red.
      - uses: __ACTION__@v__VERSION__
        with:
          profile: agentconf.toml
          # Pinned: a new kit version may add clauses; upgrade on purpose, not by surprise.
          version: "__VERSION__"
          # expected-failures: agentconf-baseline.toml
          # clauses: CONFINE,SYMLINK
          # snapshot-dir: agentconf-snapshots
'''

FILES = {
    Path("agentconf.toml"): PROFILE,
    Path(".github/workflows/agentconf.yml"): WORKFLOW.replace("__ACTION__", ACTION).replace(
        "__VERSION__", __version__),
}


# The contract's file and shell tools a tool system usually has (not apply_patch, exec,
# tool_search: optional shapes whose absence says little).
_CORE_TOOLS = ("read_file", "write_file", "edit_file", "list_files", "grep", "bash")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", nargs="?", default=".", type=Path,
                        help="the repository to set up (default: the current folder)")
    parser.add_argument("--from", dest="spec", metavar="SPEC",
                        help="draft the profile from this implementation (cmd:, mcp: or python: "
                             "spec): its own tools/list and a few harmless probe calls")


def run(args: argparse.Namespace) -> int:
    directory: Path = args.directory
    if not directory.is_dir():
        raise UsageError(f"{directory} is not a directory")
    existing = [str(directory / name) for name in FILES if (directory / name).exists()]
    if existing:
        # All or nothing: a half-written setup is harder to reason about than none.
        raise UsageError(f"refusing to overwrite {', '.join(existing)}")
    files = dict(FILES)
    if args.spec is not None:
        files[Path("agentconf.toml")] = _drafted(args.spec)
    try:
        for name, text in files.items():
            path = directory / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    except OSError as error:
        raise UsageError(f"cannot write the starter files: {error}") from None
    if args.spec is not None and _nothing_proven(files[Path("agentconf.toml")]):
        print("next: the calls of every tool the draft mapped are unproven (its self-check, at "
              "the top of agentconf.toml, says why), so a run now judges almost nothing: fix "
              "the mapping the self-check names, then agentconf run")
    elif args.spec is not None:
        # The draft is meant to be run as it is: what it could not settle is n/a, never a guess.
        print("next: agentconf run, which checks ./agentconf.toml (TODO lines say what the "
              "draft left n/a and why)")
    else:
        print("next: edit agentconf.toml, then run `agentconf run` (it checks ./agentconf.toml)")
    return 0


def _nothing_proven(text: str) -> bool:
    """Whether every canonical tool the draft maps has its calls unproven ([unproven.<tool>])."""
    import tomllib

    profile = tomllib.loads(text)
    mapped = set(profile.get("tools", {})) - {"extra"}
    unproven = {tool for tool, table in profile.get("unproven", {}).items() if "calls" in table}
    return bool(mapped) and mapped <= unproven


def _drafted(spec_text: str) -> str:
    from agentconf.cli import implementation
    from agentconf.harness.profile.mistakes import ProfileError
    from agentconf.harness.verdicts.errors import ImplementationFailure
    from agentconf.init_from.draft import draft_profile
    from agentconf.init_from.premises import counted

    try:
        # As `run --impl` finds it: a python:MODULE spec names a module in the current folder.
        spec = implementation(argparse.Namespace(impl=spec_text, profile=None))
        draft = draft_profile(spec, spec_text)
    except UsageError as error:
        raise UsageError(f"cannot draft a profile from {spec_text!r}: {error}") from None
    except ImplementationFailure as error:
        raise UsageError(f"cannot draft a profile from {spec_text!r}: {error}") from None
    except ProfileError as error:  # the draft checks itself before it is written: our bug
        raise UsageError(f"the draft of {spec_text!r} does not load as a profile, a bug in "
                         f"agentconf (please report it): {error}") from None
    mapped = ", ".join(f"{g.name} -> {c}" for c, g in draft.mapped.items()) or "no tool"
    print(f"drafted from {len(draft.listing)} advertised tool(s): {mapped}")
    if not draft.mapped and draft.listing:
        print(f"NOTHING MAPPED: none of the {len(draft.listing)} advertised tool(s) was recognised "
              "as one of the contract's; a run judges none of them (and is red for it) until "
              "agentconf.toml names them ([tools.read_file] name = ..., docs/profiles.md)")
    unmapped = [tool for tool in _CORE_TOOLS if tool not in draft.mapped]
    if draft.mapped and unmapped:
        # Said here, not only in the draft: each is a row of n/a clauses in the run.
        print(f"not recognised among its tools: {', '.join(unmapped)} (their clauses will be n/a; "
              "a tool of yours that is one of them: name it under [tools.<tool>] in the draft)")
    failed = [premise for premise in draft.premises if not premise.proven]
    print(f"self-check: {counted(draft.premises)}"
          + ("; NOT PROVEN, their checks will not be judged ([unproven] in the draft):"
             if failed else ""))
    for premise in failed:
        print(f"  {premise.tool} {premise.kind}: {premise.evidence}")
    return draft.text
