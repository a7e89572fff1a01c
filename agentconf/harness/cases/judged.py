"""Whether a golden case is judged at all: what its verdict stands on, confirmed before it stands:
the tools it calls make the declaration it judges, the long output it bounds was printed, and
the output whose cut it judges was cut. Where not, the case is not judged (n/a, with the
reason), never failed."""

from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, UndefinedTypeCheck
from referencing.exceptions import Unresolvable

from agentconf.contract import Limits
from agentconf.contract.tools import declares_read_only
from agentconf.harness.cases.answer_checks import expects_failure
from agentconf.harness.cases.load import Case
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.arguments import declared_types, shape
from agentconf.harness.session.client import Client
from agentconf.harness.session.listing import listed
from agentconf.harness.session.result import Result
from agentconf.harness.verdicts.errors import not_applicable
from agentconf.harness.verdicts.wording import CUT_SAID

_TYPES = Draft202012Validator.TYPE_CHECKER


def called_tools(case: Case) -> list[str]:
    """The canonical tools its calls name, concurrent ones too."""
    found: list[str] = []
    for step in case.calls:
        for call in step.get("concurrently", [step]):
            if "tool" in call and call["tool"] not in found:
                found.append(str(call["tool"]))
    return found


def declared(case: Case, client: Client) -> None:
    """A case of what a declaration promises is judged only on tools that make it."""
    wrong_types_documented(case, client)
    literal_patterns(case, client)
    if "read_only" not in case.declares:
        return
    for tool in called_tools(case):
        entry = listed(client, tool)
        if entry is None or not declares_read_only(entry):
            not_applicable(f"not judged: {tool} is not declared read-only (kind read or "
                           "readOnlyHint)")


def documented_form(client: Client, tool: str, arguments: dict[str, Any]) -> str | None:
    """Why a call a check sends as ill-typed is not for this tool: its own input schema accepts
    the call as sent and declares the JSON type of every value in it (a read taking `path:
    anyOf[string, array]` reads each listed file). An untyped property declares nothing, and a
    call the schema rejects (a missing argument) is judged."""
    mapping = client.profile.tool(tool)
    schema = client.schema(tool)
    declared = {name: declared_types(schema, mapping.target(name)) for name in arguments}
    if not arguments or not all(any(_is_type(arguments[name], kind) for kind in kinds)
                                for name, kinds in declared.items()):
        return None
    sent = shape(tool, arguments, client.profile, client.root, schema).sent
    try:
        Draft202012Validator.check_schema(schema)
        if not Draft202012Validator(schema).is_valid(sent):
            return None
    except (SchemaError, Unresolvable):  # a schema JSON Schema cannot read declares nothing
        return None
    said = ", ".join(f"{mapping.target(name)} {sorted(kinds)}" for name, kinds in declared.items())
    return (f"not judged: {mapping.name}'s input schema accepts this call and declares the "
            f"type of every value it sends ({said}): a form it documents, not a wrong type")


def _is_type(value: Any, kind: str) -> bool:
    try:
        return bool(_TYPES.is_type(value, kind))
    except UndefinedTypeCheck:  # a type JSON Schema does not define declares nothing
        return False


# What a regular expression reads apart from text: a pattern holding one means two searches.
_REGEX_SIGNS = frozenset(".^$*+?{}[]\\|()")


def literal_patterns(case: Case, client: Client) -> None:
    """A case searching with a pattern whose regular expression reads otherwise than its text is
    not judged on a grep the profile declares literal: it would judge the regex, not its own
    clause (the report of matches, GREP-01)."""
    if "grep" not in called_tools(case) or not client.profile.tool("grep").is_literal:
        return
    for step in case.calls:
        for call in step.get("concurrently", [step]):
            pattern = (call.get("arguments") or {}).get("pattern")
            if call.get("tool") == "grep" and _REGEX_SIGNS & set(str(pattern or "")):
                not_applicable(f"not judged: the profile says [tools.grep].literal = true, and "
                               f"{pattern!r} is a regular expression that text reads otherwise")


def about_form(case: Case) -> bool:
    return any(clause.startswith("VALIDATE-") for clause in case.clauses)


def wrong_types_documented(case: Case, client: Client) -> None:
    """A case of an argument's form (VALIDATE) that expects INVALID_ARGS of a call is not
    judged where the tool's schema declares the types it sends. Another clause's INVALID_ARGS
    (a regex that does not compile, text that is no patch) is about the value, not its type."""
    if not about_form(case):
        return
    for step in case.calls:
        for call in step.get("concurrently", [step]):
            expect = call.get("expect") or case.expect
            codes = expect.get("error") if isinstance(expect, dict) else None
            if "INVALID_ARGS" not in ([codes] if isinstance(codes, str) else codes or []):
                continue
            if isinstance(call.get("arguments"), dict) and client.advertises(str(call.get("tool"))):
                why = documented_form(client, str(call["tool"]), call["arguments"])
                if why is not None:
                    not_applicable(why)


def raced(batch: list[tuple[str, Any]], answers: list[Result]) -> None:
    """Concurrent writes to one path are a race only where two of them or more landed; all but
    one refused (a write that never replaces a file), what is left is no race: not judged."""
    paths = [str(arguments.get("path")) for tool, arguments in batch
             if tool == "write_file" and isinstance(arguments, dict)]
    if len(paths) < 2 or len(set(paths)) == len(paths):
        return
    landed = sum(result.success for (tool, _), result in zip(batch, answers, strict=True)
                 if tool == "write_file")
    if landed < 2:
        not_applicable(f"not judged: {landed} of {len(paths)} concurrent writes to one path "
                       "landed, the others refused: no race ran")


# The shell's exit codes for a command it found but could not run, and one it did not find.
_COULD_NOT_RUN = (126, 127)


def long_output_ran(result: Result, expect: dict[str, Any], limits: Limits) -> None:
    """A case that bounds an answer needs its command to print more than the limit. Where the
    command exited non-zero having shown less than half the limit (an execution limit of the
    implementation, a program it lacks), that output never happened: the case is not judged,
    rather than charged to a clause about output that was never there. A case whose command
    fails on purpose (`(exit 3)` after the output) tells this only by the shell's own codes for
    a command it could not run (126, 127)."""
    if not (expect.get("data_bounded") or expect.get("data_cut")) or result.success:
        return
    if expects_failure(expect) and result.exit_code not in _COULD_NOT_RUN:
        return
    exited = result.exit_code if result.exit_code not in (None, 0) else (
        "non-zero" if result.error == "NONZERO_EXIT" else None)
    shown = result.shown if isinstance(result.shown, str) else ""
    if exited is not None and len(shown) < limits.max_output_chars // 2:
        not_applicable(
            f"not judged: the command meant to print more than the limit exited {exited} "
            f"having shown {len(shown)} characters, so the long output never happened: "
            f"{' '.join(shown.split())[:120]!r}")


def root_named_otherwise(case: Case, call: dict[str, Any], result: Result,
                         expect: dict[str, Any], client: Client) -> None:
    """A case of another clause that lists the root by leaving its path out (`list_files {}`),
    refused where the same listing of `.` is not: the root as an omitted path is CONFINE-15's
    subject, and this case's own (links, entries) was never reached."""
    arguments = call.get("arguments")
    if call.get("tool") != "list_files" or result.success or expects_failure(expect) or (
            "CONFINE-15" in case.clauses or not isinstance(arguments, dict) or "path" in arguments):
        return
    if client.call("list_files", **{**arguments, "path": "."}).success:
        not_applicable("not judged: list_files refuses the root as an omitted path and lists "
                       "it as `.`: CONFINE-15's, not this case's clause")


def output_was_cut(result: Result, expect: dict[str, Any], limits: Limits) -> None:
    """A case of how a cut is made (head and tail kept, no character split) stands on a cut. Its
    command prints three times the limit or more: an answer longer than twice the limit (or the
    limit and its marker, where that is more) holds most of it, was not cut, and how a cut is made
    is not judged on it — unless it says it left part out (CUT_SAID). An answer a little over the
    bound was cut, with a long marker: how, is judged here; how long, is TRUNCATE-01's."""
    if not expect.get("data_cut"):
        return
    data = result.data if isinstance(result.data, str) else ""
    whole = max(2 * limits.max_output_chars,
                limits.max_output_chars + limits.marker_budget_chars)
    if len(data) > whole and not CUT_SAID.search(data):
        not_applicable(
            f"not judged: the output was not cut ({len(data)} characters shown, more than "
            f"twice the limit of {limits.max_output_chars}), so how a cut is made cannot be "
            "seen; the bound is TRUNCATE-01's")


# The clauses whose own matter is what an edit does to a file's CRLF endings.
_ENDINGS_CLAUSES = frozenset({"EOL-01", "EOL-06", "EDIT-06"})


def crlf_flattened(ws: SandboxWorkspace, client: Client) -> bool:
    """Whether an edit of a file whose lines all end in CRLF writes it back with LF: EOL-01's
    defect, which the checks of other edits (a mixed file's, replace_all's) do not charge again.
    Asked only once such a check found its file wrong, and only where EOL-01 judges it (an
    implementation that declares crlf_preserve off is judged on its files by those checks)."""
    if not (client.has("edit_file") and client.has("crlf_preserve")):
        return False
    ws.write("agentconf-crlf-check.txt", b"p\r\nq\r\n")
    if client.has("read_file"):
        client.call("read_file", path="agentconf-crlf-check.txt")
    client.call("edit_file", path="agentconf-crlf-check.txt", old_text="q", new_text="Q")
    return ws.read_bytes("agentconf-crlf-check.txt") == b"p\nQ\n"


def endings_alone(case: Case, mismatches: int, ws: SandboxWorkspace, client: Client,
                  expected: dict[str, bytes | None]) -> None:
    """A case of another clause whose `mismatches` are all files wrong only by CRLF written
    back as LF (`expected`: the bytes its `after` spells out), from an implementation whose
    edits flatten every CRLF file: EOL-01's cause, not judged here."""
    if not mismatches or _ENDINGS_CLAUSES & set(case.clauses) or (
            "edit_file" not in called_tools(case)):
        return
    wrong = {rel: (wanted, (ws.root / rel).read_bytes()) for rel, wanted in expected.items()
             if wanted is not None and (ws.root / rel).is_file()
             and (ws.root / rel).read_bytes() != wanted}
    if len(wrong) != mismatches:
        return
    if all(b"\r\n" in want and got == want.replace(b"\r\n", b"\n")
           for want, got in wrong.values()) and crlf_flattened(ws, client):
        not_applicable("not judged: an edit writes a CRLF file back with LF (agentconf-crlf-"
                       "check.txt too): EOL-01's, not this case's clause")


def parents_not_made(case: Case, ws: SandboxWorkspace, client: Client) -> None:
    """A failing case that needs a write to make missing folders is not judged where every such
    write falsely succeeds (`false_success_under_missing_folders`), whatever else the case names
    (`~/.ssh/...`, CONFINE-03's)."""
    if "create_parents" in case.requires and "EDIT-14" not in case.clauses and client.has(
            "write_file"):
        false_success_under_missing_folders(ws, client)


def false_success_under_missing_folders(ws: SandboxWorkspace, client: Client) -> None:
    """Not judged where a write under a missing folder of the root, nothing else in its path,
    also answers success and writes nothing: a false success of every such write (EDIT-14's),
    not what a check's own path (`~/...`, a link to a missing folder) does."""
    control = client.call("write_file", path="parents-control/new.txt", content="planted")
    if control.success and not (ws.root / "parents-control" / "new.txt").exists():
        not_applicable("not judged: a write under a missing folder of the root answered success "
                       "and wrote nothing too, so this one says nothing of its own path (a false "
                       "success of every such write, EDIT-14's)\n" + control.evidence())
