"""`agentconf init --from`: the shell's harmless probes. A command that prints one line to
stdout and one to stderr shows where a JSON answer keeps its output (`[tools.bash.result] text`:
Claude Code's Bash answers {"stdout", "stderr", "interrupted", ...}); `exit 3` shows how a
non-zero exit is worded (NONZERO_EXIT), or where a shell answering it as success keeps its exit
status (`{"exit_code": 3, "output": ...}`: @openai/codex-shell-tool-mcp) or states it in words
("Process exited with code 3": openai-agents' exec_command), and `sleep 5` under a
timeout of 300 ms how a timeout is (TIMEOUT), each only where the shell's failures carry no code
of their own. A shell that fails even `true` teaches nothing about exits; a command its
allow-list refuses is not run.

Every command runs in the scratch sandbox's root and writes nothing.
"""

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from agentconf.contract import DEFAULT_LIMITS
from agentconf.harness.session.answers import document_of, leaves, locate
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.harness.session.shell_words import refused_programs
from agentconf.harness.verdicts.errors import NotApplicable
from agentconf.harness.verdicts.wording import CUT_SAID
from agentconf.init_from.findings import Findings, failure, record, safely, succeeded
from agentconf.init_from.flags import flagged
from agentconf.init_from.markers import one_of
from agentconf.init_from.match import words
from agentconf.init_from.probe_gate import permission_gate
from agentconf.init_from.reads import json_place
from agentconf.init_from.shape import bound_unit

_OUT, _ERR = "agentconf-probe-out", "agentconf-probe-err"


def probe_shell(client: Client, found: Findings) -> None:
    try:
        said = safely(lambda: client.call("bash", command=f"echo {_OUT}; echo {_ERR} >&2"),
                      found, "a command printing a line to stdout and one to stderr")
        if not _output_places(found, said):
            _plain_output_places(client, found)
        allowed = permission_gate(client, found)
        _own_bound(client, found, allowed)
        if not _failure_of_commands(client, found, said, allowed):
            return
        if _takes_timeout(client) and _may_run("sleep 5; echo late", allowed):
            over = partial(client.call, "bash", command="sleep 5", timeout_ms=300)
            said = safely(over, found, "a command over its timeout")
            # A partial result whose flag says it timed out, whatever its exit code (flags.py).
            if said is None or not flagged(found.keys, found.evidence, "TIMEOUT",
                                           "a command over its timeout", said, []):
                failure(found, "TIMEOUT", "a command over its timeout", over,
                        partial(client.call, "bash", command="sleep 4; echo late",
                                timeout_ms=250))
    except NotApplicable as why:  # its allow-list refuses a probe's program: nothing learnt
        found.notes.append(f"a shell probe was not run: {why}")


def _own_bound(client: Client, found: Findings, allowed: list[str] | None) -> None:
    """A bound of the shell's own, larger than the contract's, seen: a long output answered cut
    to more than max_output_chars, saying it left part out ("[188914 earlier characters not
    shown]"). Drafted as its bash's max_output_chars, what it kept, so TRUNCATE judges the
    bound it keeps; the contract's is one it was never told. A bound its schema states wins."""
    limit = DEFAULT_LIMITS.max_output_chars
    count = 4 * limit // 5  # `seq 1 N` prints about 5.9 N characters: six times the limit
    stated = client.profile.tool("bash").limits
    if stated.model_dump(exclude_none=True) or not _may_run("seq 1 2", allowed):
        return
    result = safely(lambda: client.call("bash", command=f"seq 1 {count}"), found,
                    "a command printing six times the contract's output bound")
    text = _shown(found, result.data) if result is not None and result.success else ""
    flag = cut_flag(result.data) if result is not None and result.success else None
    if len(text) <= limit + DEFAULT_LIMITS.marker_budget_chars or not (
            CUT_SAID.search(text) or flag):
        return  # within the contract's bound, or not said to be cut (TRUNCATE-01 judges it)
    said = [line for line in text.splitlines() if CUT_SAID.search(line)]
    # What it kept of the output: the answer, less the marker and what it adds to any output
    # (an exit line, a label), measured on a short one.
    kept = len(text) - sum(len(line) + 1 for line in said) - _framing(client, found)
    if kept <= limit:
        return  # not a bound larger than the contract's: nothing measured to draft
    # Counted in the unit an argument of its schema names (`max_output_bytes`): the probe's
    # digits are one byte each, so what it kept is as many bytes as characters.
    unit = next((unit for name in client.schema("bash").get("properties") or {}
                 if (unit := bound_unit(name)) in ("bytes", "chars")), "chars")
    found.keys.setdefault("bash", {})["limits"] = {f"max_output_{unit}": kept}
    found.evidence.setdefault("bash", []).append(
        f"probe: `seq 1 {count}` answered {len(text)} characters saying it left part out "
        f"({(said[0].strip() if said else str(flag))[:60]!r}): a bound of its own, drafted as "
        f"max_output_{unit} = {kept}, "
        "what it kept of the output (check it: the truncation checks judge this bound)")


def cut_flag(data: str) -> str | None:
    """A field of a JSON answer (nested too) that says its output was cut (`"truncated":
    true`), said."""
    return next((f"{key}: true" for key, value in leaves(document_of(data)) if value is True
                 and {"truncated", "clipped", "cut", "elided"} & set(words(key.rsplit(".")[-1]))),
                None)


def _framing(client: Client, found: Findings) -> int:
    """How many characters an answer adds to a short output it shows whole."""
    result = safely(lambda: client.call("bash", command=f"printf {_OUT}"), found,
                    "a command printing one word")
    text = _shown(found, result.data) if result is not None and result.success else ""
    return max(len(text) - len(_OUT), 0) if _OUT in text else 0


def _shown(found: Findings, data: str) -> str:
    """The text the model reads of an answer: what stands at the places the first probe found
    its output in a JSON answer, not the JSON (whose escapes are no output), else the answer."""
    places = found.keys.get("bash", {}).get("result", {}).get("text")
    document = document_of(data)
    values = [locate(document, place) for place in
              ([places] if isinstance(places, str) else places or [])] if document else []
    texts = [value for value in values if isinstance(value, str)]
    return "\n".join(texts) if texts else data


def exit_command(status: int, allowed: list[str] | None = None) -> str:
    """A command that exits `status` whether or not the tool runs its line in a shell. A runner
    without one (the line split into words, then started) has no `exit` program: `exit 3`
    fails to start, and what it teaches is a failure of another kind (a spawn error taken for
    an exit, a marker fitted to "No such file or directory: 'exit'"). `sh -c` is a program in
    both, where the gate lets it run."""
    return f"sh -c 'exit {status}'" if _may_run("sh", allowed) else f"exit {status}"


def _may_run(command: str, allowed: list[str] | None) -> bool:
    """Whether a probe's command runs only programs the shell's gate allows (none seen: all)."""
    return allowed is None or not refused_programs(command, allowed)


def _failure_of_commands(client: Client, found: Findings, said: Result | None,
                         allowed: list[str] | None = None) -> bool:
    """A command that exits 3: a shell whose failures carry no code (mcp-server-commands'
    "Command failed: <command>") gets its NONZERO_EXIT pattern. Only when `true` succeeds: a
    shell that fails every command (@openai/codex-shell-tool-mcp before its sandbox is set up)
    says nothing about exits (False: probe no further). A gate that declines `true` or `exit`
    leaves exits unprobed, not the shell: it ran the first probe's `echo`, so its timeouts are
    still probed."""
    if not _may_run(f"true; {exit_command(3, allowed)}", allowed):
        found.notes.append("its gate declines `true` or `exit`: no NONZERO_EXIT pattern learnt")
        return said is not None and said.success
    works = safely(lambda: client.call("bash", command="true"), found, "a command `true`")
    if works is None or not works.success:
        if works is not None:
            found.notes.append(f"a command `true` failed too ({works.data[:100]!r}): no "
                               "NONZERO_EXIT pattern learnt")
        return False
    label = "a command that exits with a status other than 0"
    for status in (3, 7):  # twins: the status is incidental to the wording
        result = safely(partial(client.call, "bash", command=exit_command(status, allowed)),
                        found, label)
        if result is None:
            continue
        if not result.success:
            record(found, "NONZERO_EXIT", label, result)
            _exit_in_json(found, result.data, marks_failure=False)
        elif not _exit_in_json(found, result.data) and not _exit_in_words(
                found, result.data, works.data, said.data if said and said.success else ""):
            succeeded(found, "NONZERO_EXIT", label, result)  # a refusal in words, or none
    return True


_EXIT_KEYS = ("exit_code", "exitCode", "return_code", "returncode", "returnCode")
_OUTPUT_KEYS = ("output", "stdout", "combined_output")


def _exit_in_json(found: Findings, data: str, marks_failure: bool = True) -> bool:
    """`exit 3` answered with JSON holding its exit status: the answer's shape,
    `[tools.bash.result]`, beside where its output is (found by the first probe). The status
    is part of the text the model reads, failure or not (SHELL-02 looks for it there); answered
    as a success, a non-zero status is also the failure marker (`marks_failure`)."""
    value = dict(leaves(document_of(data)))  # by path: a wrapped result's `data.exit_code`
    key = next((path for path, v in value.items() if path.rsplit(".", 1)[-1] in _EXIT_KEYS
                and v == 3 and type(v) is int), None)
    if key is None:
        return False
    within = key[:len(key) - len(key.rsplit(".", 1)[-1])]  # `data.`: where its output is
    shape = found.keys.setdefault("bash", {}).setdefault("result", {})
    # The text is the output and the exit status, as the model reads them (SHELL-02 looks for
    # the status; the JSON-escaped whole would hide the output's lines from TRUNCATE-06).
    # Every place the output probe found stays (stdout and stderr both: the model reads both).
    known = shape.get("text", [])
    places = [known] if isinstance(known, str) else list(known)
    output = next((within + k for k in _OUTPUT_KEYS if isinstance(value.get(within + k), str)),
                  None)
    if not places and output:
        places = [output]
    if places:
        shape["text"] = list(dict.fromkeys([*places, key]))
    shape["exit_code"] = key
    if not marks_failure:
        found.evidence.setdefault("bash", []).append(
            f"probe: `exit 3` failed with an object (JSON or a Python literal) whose {key} is 3: "
            "the text read keeps it")
        return True
    shape["failure"] = {"path": key, "not_equals": 0}
    found.evidence.setdefault("bash", []).append(
        f"probe: `exit 3` answered success with an object (JSON or a Python literal) whose {key} "
        f"is 3: a non-zero {key} is a "
        "failure")
    return True


_EXIT_WORD = re.compile(r"exit|code|status|return", re.IGNORECASE)
_THREE = re.compile(r"(?<![\w.-])3(?![\w.])")


def _exit_in_words(found: Findings, exit_text: str, true_text: str, said_text: str) -> bool:
    """`exit 3` answered success with a line stating its status in words, the same line saying
    0 after `true` ("Process exited with code 3" / "... 0"): a non-zero number in that line is
    the failure (`[tools.bash.result] failure.matches`) and NONZERO_EXIT. The line is anchored
    where it stands, so a command's own output saying the same words is not taken for it: at
    its line from the start when a command with output has it there too (a header), else at
    the end (a trailer after the output)."""
    exit_lines, true_lines = exit_text.splitlines(), true_text.splitlines()
    for index, line in enumerate(exit_lines):
        hits = list(_THREE.finditer(line))
        if len(hits) != 1 or not _EXIT_WORD.search(line):
            continue
        before, after = line[:hits[0].start()], line[hits[0].end():]
        if before + "0" + after not in true_lines:
            continue
        status = f"{_escape(before)}-?[1-9][0-9]*{_escape(after)}"
        said_lines = said_text.splitlines()
        if index < len(said_lines) and said_lines[index] == before + "0" + after:
            marker = rf"\A(?:[^\n]*\n){{{index}}}{status}(?=\n|\Z)"
        elif said_lines and said_lines[-1] == before + "0" + after:
            marker = rf"(?:\A|\n){status}\s*\Z"
        else:
            marker = rf"(?m)^{status}$"
        result = found.keys.setdefault("bash", {}).setdefault("result", {})
        earlier = result.get("failure")
        # A marker drafted from an earlier refusal (an exception told as success) still marks
        # those: the status line is one more alternative, never a replacement.
        joined = (f"{one_of(earlier['matches'])}|{one_of(marker)}"
                  if isinstance(earlier, dict) and set(earlier) == {"matches"} else marker)
        result["failure"] = {"matches": joined}
        why = (f"probe: `exit 3` answered success saying {line!r} (`true`: "
               f"{before + '0' + after!r}): a non-zero number there is a failure")
        found.patterns.append(("NONZERO_EXIT", marker, why))
        found.evidence.setdefault("bash", []).append(why)
        return True
    return False


def _escape(text: str) -> str:
    return re.escape(text).replace("\\ ", " ")  # a space needs no escape: the draft reads so


def _takes_timeout(client: Client) -> bool:
    mapping = client.profile.tool("bash")
    tool = client._tools().get(mapping.name, {})
    schema = tool.get("input_schema") or tool.get("inputSchema") or {}
    return mapping.target("timeout_ms") in (schema.get("properties") or {})


def _output_places(found: Findings, result: Result | None) -> bool:
    """Where a JSON answer keeps the command's stdout and stderr: the text the checks read.
    False when the command did not answer its output."""
    if result is None or not result.success:
        return False
    value = document_of(result.data)
    if value is None:
        return True
    places = list(dict.fromkeys(place for text in (_OUT, _ERR)
                                if (place := json_place(value, _line_of(text))) is not None))
    _draft_places(found, places)
    return True


def _plain_output_places(client: Client, found: Findings) -> None:
    """The same places, seen from two commands of no shell syntax (a runner that splits its
    command into a program's arguments refuses `;` and `>&2`): one printing to stdout, one
    whose error goes to stderr. Without them stderr was left out of what the checks read."""
    out = safely(lambda: client.call("bash", command=f"echo {_OUT}"), found,
                 "a command printing a line to stdout")
    err = safely(lambda: client.call("bash", command=f"cat {_ERR}"), found,
                 "a command printing an error to stderr")
    places = []
    for result, holds in ((out, _line_of(_OUT)), (err, _holding(_ERR))):
        value = document_of(result.data) if result is not None else None
        if value is not None and (place := json_place(value, holds)) is not None:
            places.append(place)
    _draft_places(found, list(dict.fromkeys(places)))


def _holding(text: str) -> Callable[[Any], bool]:
    return lambda inner: isinstance(inner, str) and text in inner


def _draft_places(found: Findings, places: list[str]) -> None:
    if not places:
        return
    found.keys.setdefault("bash", {}).setdefault("result", {}).setdefault(
        "text", places[0] if len(places) == 1 else places)
    found.evidence.setdefault("bash", []).append(
        "probe: a command printing a line to stdout and one to stderr answered an object with its "
        f"output at {' and '.join(places)}")


def _line_of(text: str) -> Callable[[Any], bool]:
    """A string field that holds `text` as one of its lines."""
    return lambda inner: isinstance(inner, str) and text in inner.splitlines()
