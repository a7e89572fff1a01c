"""`init --from`'s reads of a probe file: the probes that settle how paths are sent (relative
or absolute, from a virtual `/`) and whether answers carry their own status in JSON, before the
session's profile is made; and where a JSON read answer keeps the file's text.
"""

import json
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.profile.model import parse_profile
from agentconf.harness.profile.tool_mapping import MISSING
from agentconf.harness.session.answers import document_of, locate
from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.init_from.findings import Findings, safely
from agentconf.init_from.match import ToolGuess
from agentconf.init_from.schemas import schema_of


def session_client(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                   listing: list[dict[str, Any]]) -> Client:
    """A client of the open session in the scratch sandbox, judging its answers as `tables`
    (the draft so far) say."""
    return Client(adapter, parse_profile(tables), ws.root, None, ws.sandbox,
                  known_tools=listing)


def _read_as(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
             listing: list[dict[str, Any]], name: str, absolute: bool, virtual: bool = False
             ) -> tuple[bool, str]:
    """Reads a probe file `name` of the root, its path sent relative or absolute (and, absolute,
    as the host's path or from a virtual `/`): whether its text came back, and the answer.

    Its text is not in its name: a refusal that repeats the path is no read (mcp-code-editor
    answers a success whose JSON says "success": false, "... got relative path: <path>")."""
    text = name.removesuffix(".txt") + "-content"
    result = _read(adapter, {**tables, "implementation": {
        "absolute_paths": absolute, "virtual_absolute_paths": virtual}}, ws, listing, name, text)
    if result is None:
        return False, ""
    return result.success and text in result.data, result.data


def _read(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
          listing: list[dict[str, Any]], name: str, text: str | None) -> Result | None:
    """A read of file `name` of the root as the tables say, holding `text` (None: no such file)
    while it is read; None when the read did not answer."""
    if text is not None:
        (ws.root / name).write_text(text + "\n", "utf-8")
    try:
        client = session_client(adapter, tables, ws, listing)
        return safely(partial(client.call, "read_file", path=name), Findings(), "a read")
    finally:
        (ws.root / name).unlink(missing_ok=True)


# Where an answer that says success may say in its JSON that it failed, and the value saying so.
_STATUS_KEYS: tuple[tuple[str, bool], ...] = (
    ("success", False), ("ok", False), ("isError", True), ("is_error", True))
# A status told in words under any key (`"status": "error"` against `"ok"`, `"result":
# "failure"` against `"success"`): the failing call's word and the working call's must each
# say so, so that a field naming anything else (a path, a kind) that merely differs is never read
# as a status.
_FAILED_WORDS = frozenset({"error", "errored", "failed", "failure", "fail", "err", "ko"})
_OK_WORDS = frozenset({"ok", "success", "succeeded", "successful", "done", "passed", "pass"})


def _status_pairs(failed: dict[str, Any], worked: dict[str, Any]
                  ) -> list[tuple[str, Any]]:
    """The keys whose value tells the failing answer from the working one, with the failing
    value: a known boolean key first, then any key holding a failure word against a success
    word."""
    pairs = [(key, value) for key, value in _STATUS_KEYS
             if failed.get(key) is value and worked.get(key) is (not value)]
    pairs += [(key, value) for key, value in failed.items()
              if isinstance(value, str) and isinstance(worked.get(key), str)
              and value.strip().lower() in _FAILED_WORDS
              and str(worked[key]).strip().lower() in _OK_WORDS]
    return pairs


def json_status(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                 listing: list[dict[str, Any]]) -> tuple[dict[str, Any], str] | None:
    """Whether its answers all say success and carry their own status in JSON (mcp-code-editor:
    `{"success": false, "error": "FileNotFoundError", ...}`): a read of a missing file says the
    failing value, a read of a file the other one; or, with no status field, the failed read
    holds an `error` message where the other holds none (@shtse8/filesystem-mcp's
    `[{"path", "error"}]`). The keys of every tool's `result` table (its failure marker, and
    where the message is when no status field says it) and the evidence.

    Without it every failure of such a server is a success to the checks (a missing file read
    as a text), and the probes after it learn no code."""
    if "read_file" not in tables["tools"]:
        return None
    missing = _json(_read(adapter, tables, ws, listing, "agentconf-probe-absent.txt", None))
    present = _json(_read(adapter, tables, ws, listing, "agentconf-probe-status.txt",
                          "agentconf-probe-status-content"))
    if missing is None or present is None:
        return None
    return status_keys(missing, present, "a read of a missing file", "a read of a file",
                      "every tool's", str(ws.root), "agentconf-probe-status-content")


def edit_status(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                listing: list[dict[str, Any]]) -> tuple[dict[str, Any], str] | None:
    """An edit's own failure marker, where its answers are shaped apart from a read's
    (@shtse8/filesystem-mcp's replace_content: `{"message", "results": [{"file", "error"}]}`;
    fs-mcp's edit_files: `{"success": false, "files": [...]}`): an edit of a missing file and
    one that applied both answer success, and only the first says in its JSON that it failed.
    The keys of edit_file's `result` table and the evidence, else None."""
    if "edit_file" not in tables["tools"]:
        return None
    name = "agentconf-probe-edited.txt"
    (ws.root / name).write_text("alpha\n", "utf-8")
    try:
        client = session_client(adapter, tables, ws, listing)
        failed = safely(partial(client.call, "edit_file", path="agentconf-probe-absent.txt",
                                old_text="alpha", new_text="beta"), Findings(), "an edit")
        worked = safely(partial(client.call, "edit_file", path=name, old_text="alpha",
                                new_text="beta"), Findings(), "an edit")
        applied = (ws.root / name).read_text("utf-8") == "beta\n"
    finally:
        (ws.root / name).unlink(missing_ok=True)
    missing, present = _json(failed), _json(worked)
    if not applied or missing is None or present is None:
        return None
    return status_keys(missing, present, "an edit of a missing file", "an edit that applied",
                      "edit_file's", str(ws.root))


def own_statuses(client: Client, refusals: Any, worked: dict[str, str], root: str
                 ) -> dict[str, tuple[dict[str, Any], str]]:
    """Each tool's own JSON status, where no marker reads its failures yet: a call no disk lets
    succeed (a premise's refusal rule, `refusals`) answered success with JSON that a call of
    the same tool that worked (`worked`: the proven calls' answers) tells apart (a write that
    answers `{"success": false, ...}` beside a read that fails plainly). The keys of that
    tool's `result` table and the evidence, per tool."""
    found: dict[str, tuple[dict[str, Any], str]] = {}
    for rule in refusals:
        if (rule.tool not in worked or rule.tool not in client.profile.tools
                or client.profile.tool(rule.tool).result.failure is not None):
            continue
        rule.prepare(client.root)
        failed = _json(safely(partial(rule.call, client), Findings(), rule.what))
        present = _parsed(worked[rule.tool])
        if failed is None or present is None:
            continue
        keys = status_keys(failed, present, rule.what.removesuffix(
            " is recognised as a failure"), "a call that worked", f"{rule.tool}'s", root)
        if keys is not None:
            found[rule.tool] = keys
    return found


def read_text_place(worked: str, content: str) -> str | None:
    """Where a read's JSON answer (`{"content": "...", "is_binary": false}`) holds the file's
    text (`content`: a line of it): the text the model reads, which the checks judge unescaped.
    None when the answer is no JSON object or holds the text nowhere alone."""
    document = _parsed(worked)
    if not isinstance(document, dict):
        return None
    return json_place(document, lambda inner: isinstance(inner, str) and content in inner)


def status_keys(missing: Any, present: Any, failing: str, working: str, whose: str, root: str,
                content: str | None = None) -> tuple[dict[str, Any], str] | None:
    """The `result` keys that tell the failing call's JSON answer from the working one's, and
    the evidence: a status field that says so (`"success": false`), else an `error` message
    only the failing one holds. `content`: what the working call's text holds; beside a status
    field, the field holding it is where every tool's text is (`{"ok": true, "result": ...}`)."""
    said = json.dumps(missing, ensure_ascii=False).replace(root, "<ROOT>")[:120]
    said = f"probe: {failing} answered success with {said!r}"
    (failed, into), (worked, same) = _one_object(missing), _one_object(present)
    for key, value in _status_pairs(failed, worked) if into == same else ():
        place = place_of((*into, key))
        keys: dict[str, Any] = {"failure": {"path": place, "equals": value}}
        message = item_error(missing, present)
        said_there = locate(missing, message["failure"]["path"]) if message else None
        if message is not None and re.search(r"\s", str(said_there)):
            # A message beside the status (fs-mcp's files[0].error), not a code of its own
            # (mcp-code-editor's "FileNotFoundError", which the probes map to ours).
            keys["error"] = message["error"]
        text = None if content is None else json_place(
            worked, lambda inner: isinstance(inner, str) and content in inner, same)
        if text is not None:
            keys["text"] = text
        if text is not None and "error" not in keys and "error" not in failed:
            # `{"ok": false, "message": "..."}`: the words beside the status are the message
            words = json_place(failed, lambda inner: isinstance(inner, str)
                               and re.search(r"\s", inner) is not None, into)
            if words is not None:
                keys["error"] = words
        return keys, (f"{said}, {working} {key!r}: {json.dumps(worked[key])}: {whose} "
                      f"{place} = {json.dumps(value)} is a failure")
    found = item_error(missing, present)
    if found is None:
        return None
    place = found["failure"]["path"]
    return found, (f"{said}, {working} nothing at {place}: {whose} answer with a value there "
                   f"is a failure, and its message is read at {found['error']}")


def item_error(failed: Any, worked: Any) -> dict[str, Any] | None:
    """Where a failed call's JSON answer holds an `error` that a working call's does not: the
    `result` keys that make such an answer a failure, its message read from the object that
    holds the `error` (fs-mcp's edit_files says `"error": true` beside a `message` for a text
    that is not there, `"error": "File not found: ..."` for a missing file); a top-level
    `error` is read where it is."""
    steps = _error_steps(failed)
    if steps is None or locate(worked, place_of(steps)) is not MISSING:
        return None
    return {"failure": {"path": place_of(steps), "present": True},
            "error": place_of(steps[:-1] or steps)}


def _error_steps(value: Any, steps: tuple[str | int, ...] = (), depth: int = 0
                 ) -> tuple[str | int, ...] | None:
    """The steps to the shallowest non-empty string under a key `error`, a list looked into by
    its first item."""
    if depth > 3:
        return None
    if isinstance(value, list):
        return _error_steps(value[0], (*steps, 0), depth + 1) if value else None
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("error"), str) and value["error"].strip():
        return (*steps, "error")
    for key, inner in value.items():
        found = _error_steps(inner, (*steps, key), depth + 1)
        if found is not None:
            return found
    return None


def place_of(steps: tuple[str | int, ...]) -> str:
    """A place as the profile writes it: dotted (`results[0].error`), or a JSON pointer
    (`/0/error`) when it starts with a list's item, since a dotted place starts with a name
    (harness/session/answers.py reads both)."""
    if steps and isinstance(steps[0], int):
        return "".join(f"/{step}" for step in steps)
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}"
                   for step in steps).removeprefix(".")


def _json(result: Result | None) -> Any:
    """The JSON a successful answer's text is, else None."""
    if result is None or not result.success:
        return None
    return _parsed(result.data)


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _one_object(value: Any) -> tuple[dict[str, Any], tuple[str | int, ...]]:
    """The object an answer is, with no steps to it; or the one object of a one-item list, with
    the step into it (@shtse8/filesystem-mcp answers every call with a list, an item per path it
    was given), or of an object that only wraps it (`{"res": {"success": false, ...}}`), with
    the steps through the wrappers; else an empty object."""
    steps: tuple[str | int, ...] = ()
    for _ in range(3):
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            value, steps = value[0], (*steps, 0)
        elif isinstance(value, dict) and len(value) == 1 and isinstance(
                inner := next(iter(value.values())), (dict, list)):
            value, steps = inner, (*steps, next(iter(value)))
        else:
            break
    return (value, steps) if isinstance(value, dict) else ({}, ())


def refuses_relative(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                      listing: list[dict[str, Any]]) -> str | None:
    """Whether its tools take absolute paths only though no description says so
    (mcp-code-editor: "Path must be absolute"): a file of the root read by its relative path
    is refused, and by its absolute path (or as `/<name>`, where / is the root: virtual_root
    tells which) is found. Evidence when so, else None."""
    if "read_file" not in tables["tools"]:
        return None
    name = "agentconf-probe-path.txt"
    relative, refusal = _read_as(adapter, tables, ws, listing, name, absolute=False)
    if relative or not any(_read_as(adapter, tables, ws, listing, name, absolute=True,
                                    virtual=virtual)[0] for virtual in (False, True)):
        return None
    refusal = refusal.replace(str(ws.root), "<ROOT>").strip()
    return (f"probe: a file of the root read by its relative path was refused "
            f"({refusal[:120]!r}), by an absolute path found")


def virtual_root(adapter: Any, tables: dict[str, Any], ws: SandboxWorkspace,
                  listing: list[dict[str, Any]]) -> str | None:
    """Whether `/x` is root/x (deepagents' virtual_mode): a file of the root read as
    `/<name>` shows it, read as `<root>/<name>` does not. Evidence when so, else None."""
    if "read_file" not in tables["tools"]:
        return None
    name = "agentconf-probe-virtual.txt"
    answers = [_read_as(adapter, tables, ws, listing, name, absolute=True, virtual=virtual)[0]
               for virtual in (False, True)]
    if answers == [False, True]:
        return (f"probe: a file of the root read as /{name} was found, as <ROOT>/{name} was "
                "not: / is the root")
    return None


def text_place(found: Findings, result: Result | None, text: str) -> None:
    """A read answering JSON with the file's text in one field (filesystem-mcp's {"path",
    "content", "size"}, fast-filesystem-mcp's {"content", "mode", ...}): that field is the text
    the checks read, `[tools.read_file.result] text`."""
    if result is None or not result.success or result.data == text:
        return
    value = document_of(result.data)
    if value is None:
        return
    value, into = _one_object(value) if isinstance(value, list) else (value, ())
    place = json_place(value, lambda inner: inner == text, into)
    if place is not None:
        found.keys.setdefault("read_file", {}).setdefault("result", {}).setdefault("text", place)
        found.evidence.setdefault("read_file", []).append(
            f"probe: a read of a two-line file answered an object with the file's text at {place}")


def shown_text(data: str) -> str:
    """What a model reads of an answer: its text, or, where the answer is a JSON object (a
    status beside the text: `{"ok": true, "result": "   1\talpha"}`), its string fields one per
    line, so a probe judges the text and not its JSON escaping."""
    value = document_of(data)
    if not isinstance(value, dict):
        return data
    return "\n".join(inner for inner in value.values() if isinstance(inner, str))


def json_place(value: Any, holds: Callable[[Any], bool], steps: tuple[str | int, ...] = (),
               depth: int = 0) -> str | None:
    """The place of the first field `holds` accepts in a JSON object, shallowest first;
    `steps`: the way to `value` in the answer."""
    if not isinstance(value, dict) or depth > 3:
        return None
    for key, inner in value.items():
        if holds(inner):
            return place_of((*steps, key))
    for key, inner in value.items():
        place = json_place(inner, holds, (*steps, key), depth + 1)
        if place is not None:
            return place
    return None


def demands_absolute_paths(listing: list[dict[str, Any]], chosen: dict[str, ToolGuess]) -> bool:
    """Whether a chosen tool's description or schema says its paths must be absolute ("The
    absolute path to the file", "must be an absolute path, not a relative one"); a sentence that
    also takes relative paths ("absolute paths or paths relative to the root") or tells what
    it returns does not, and the probe of a relative read settles it (refuses_relative)."""
    for guess in chosen.values():
        tool = next(t for t in listing if t.get("name") == guess.name)
        text = str(tool.get("description", "")) + "\n" + str(schema_of(tool))
        if any(_ABSOLUTE.search(sentence) and not _NOT_DEMANDED.search(sentence)
               for sentence in re.split(r"(?<=[.!?])\s+|\n|', '", text)):
            return True
    return False


_ABSOLUTE = re.compile(r"(?i)must be (an )?absolute|absolute path")
_NOT_DEMANDED = re.compile(r"(?i)\bor\b[^.]{0,30}\brelative|\brelative\b[^.]{0,30}\b(?:also|too|"
                           r"accepted|allowed)|\breturns?\b")
