"""Playing a golden case (`cases.Case`) against an implementation: `run_case` builds the case's
workspace under the sandbox root, makes its calls through the harness `client` (so the profile's
mapping applies) and judges the answers and the disk against the case; `play_case` only plays.
"""

import base64
import binascii
import contextlib
import functools
import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentconf.contract import CLAUSES, Limits
from agentconf.harness.cases.answer_checks import (
    data_mismatches,
    expects_failure,
    outcome_mismatches,
    report_mismatches,
)
from agentconf.harness.cases.judged import (
    declared,
    endings_alone,
    long_output_ran,
    output_was_cut,
    parents_not_made,
    raced,
    root_named_otherwise,
)
from agentconf.harness.cases.load import Case
from agentconf.harness.disk.reported import unreported
from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace
from agentconf.harness.session.client import AT_ONCE_S, Client
from agentconf.harness.session.result import Result

_PLACEHOLDER = re.compile(
    r"<(ROOT|SANDBOX|OUTSIDE|SIBLING|HOME|SYSTEM_TMP|SECRET|LIMIT:[a-z_]+|GREP_LINE:\d+)>")


class CaseFailed(AssertionError):
    """The implementation's answers or disk did not meet the case."""


@functools.cache
def _grep_lines(line_base: int) -> dict[str, str]:
    """Built once per base, not once per case (a thousand strings each time); copied in."""
    return {f"GREP_LINE:{n}": str(n - 1 + line_base) for n in range(1, 1000)}


@dataclass(frozen=True, slots=True)
class Placeholders:
    values: dict[str, str]

    @classmethod
    def of(cls, ws: SandboxWorkspace, limits: Limits, line_base: int = 1) -> "Placeholders":
        """`<GREP_LINE:n>` is how grep's output numbers line n: `[tools.grep] line_base`."""
        outer = getattr(ws, "outer", ())  # a stand-in workspace (the cases' own tests) has none
        values = {
            "ROOT": str(ws.root),
            "SANDBOX": str(ws.sandbox),
            "OUTSIDE": str(ws.outside),
            "SIBLING": str(ws.sibling),
            "HOME": str(ws.home),
            # The canary folder in the system's /tmp (harness/disk/outer.py); where there is none,
            # the sandbox's own canary folder, which is outside the root all the same.
            "SYSTEM_TMP": str(outer[0]) if outer else str(ws.outside),
            "SECRET": ws.secret,
        }
        for name in Limits.__dataclass_fields__:
            values[f"LIMIT:{name}"] = str(getattr(limits, name))
        values.update(_grep_lines(line_base))
        return cls(values)

    def fill(self, value: Any) -> Any:
        if isinstance(value, str):
            return _PLACEHOLDER.sub(lambda match: self.values[match.group(1)], value)
        if isinstance(value, list):
            return [self.fill(item) for item in value]
        if isinstance(value, dict):
            return {self.fill(key): self.fill(item) for key, item in value.items()}
        return value

    def path(self, root: Path, spelled: str) -> Path:
        """A path of an expectation: relative to the root unless it starts with a placeholder."""
        filled = self.fill(spelled)
        return Path(filled) if spelled.startswith("<") else root / filled


def entry_bytes(entry: Any, limits: Limits) -> bytes | None:
    """The bytes a tree entry (or an `after.files` value) means; None for links, dirs, FIFOs."""
    if isinstance(entry, str):
        return entry.encode("utf-8")
    if "text" in entry:
        return entry["text"].encode("utf-8")
    if "base64" in entry:
        return base64.b64decode(entry["base64"], validate=True)
    if "hex" in entry:
        return binascii.unhexlify(entry["hex"])
    if "lines" in entry:
        spec = entry["lines"]
        eol = spec.get("eol", "\n")
        text = "".join(
            spec["template"].replace("{n}", str(n)) + eol for n in range(1, spec["count"] + 1)
        )
        return text.encode("utf-8")
    if "fill" in entry:
        spec = entry["fill"]
        size = int(getattr(limits, spec["limit"]) * spec["times"])
        unit = spec["text"].encode("utf-8")
        return unit * (size // len(unit) + 1) + spec.get("tail", "").encode("utf-8")
    return None


def build_tree(root: Path, tree: dict[str, Any], places: Placeholders, limits: Limits) -> None:
    """Creates `tree` under `root`. Times are set last, since creating children moves a folder's."""
    times: list[tuple[Path, float]] = []
    for rel, entry in sorted(tree.items()):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        content = entry_bytes(entry, limits)
        spec = entry if isinstance(entry, dict) else {}
        if content is not None:
            if path.is_symlink():
                path.unlink()
            path.write_bytes(content)
        elif "symlink" in spec:
            os.symlink(places.fill(spec["symlink"]), path)
        elif "dir" in spec:
            path.mkdir(exist_ok=True)
        elif "fifo" in spec:
            os.mkfifo(path)
        if "mode" in spec:
            path.chmod(int(spec["mode"], 8))
        if "mtime" in spec:
            times.append((path, spec["mtime"]))
    for path, mtime in times:
        os.utime(path, (mtime, mtime), follow_symlinks=False)


def snapshot_tree(root: Path, skip: tuple[Path, ...] = ()) -> dict[str, tuple[Any, ...]]:
    """Every path under `root` (links not followed, FIFOs not opened) -> what it is and holds;
    `skip`: the implementation's own state ([setup].state folders, what [setup].commands made),
    left out."""
    found: dict[str, tuple[Any, ...]] = {}
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [name for name in dirnames if Path(folder) / name not in skip]
        for name in dirnames + [n for n in filenames if Path(folder) / n not in skip]:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", stat.S_IMODE(info.st_mode))
            elif stat.S_ISREG(info.st_mode):
                found[rel] = ("file", path.read_bytes(), stat.S_IMODE(info.st_mode))
            else:
                found[rel] = ("special", stat.S_IFMT(info.st_mode))
    return found


def _call(client: Client, step: dict[str, Any], places: Placeholders) -> Result:
    arguments = places.fill(step["arguments"])
    if "raw_name" in step:
        return client.call_raw(step["raw_name"], arguments)
    if not isinstance(arguments, dict):
        return client.call_raw(client.tool_name(step["tool"]), arguments)
    return client.call(step["tool"], **arguments)


def _setting(case: Case, ws: SandboxWorkspace, client: Client) -> tuple[Limits, Placeholders]:
    """The case's tree built under the root; the limits and placeholders its calls are filled
    with. A read limit of read_file's own ([tools.read_file.limits]) sizes the files it gets."""
    limits = client.limits.with_overrides(
        {"max_read_bytes": client.limits_for("read_file").max_read_bytes})
    places = Placeholders.of(ws, limits, client.profile.tool("grep").first_line_number)
    build_tree(ws.root, case.tree, places, limits)
    return limits, places


def provoke(case: Case, ws: SandboxWorkspace, client: Client) -> tuple[Result, bool]:
    """The answer a probe case's last call provokes, its steps played and nothing judged, and
    whether that call changed the disk anywhere in the sandbox (a write out by `../` changes
    nothing under the root and is no refusal): what `init --from` learns an implementation's
    wording from (init_from/probe_cases.py)."""
    limits, places = _setting(case, ws, client)
    answer: tuple[Result, bool] | None = None
    for step in case.calls:
        if "disk" in step:
            build_tree(ws.root, step["disk"], places, limits)
        elif "concurrently" not in step:
            before = snapshot_tree(ws.sandbox, ws.oracle.state)
            result = _call(client, step, places)
            answer = result, snapshot_tree(ws.sandbox, ws.oracle.state) != before
    if answer is None:
        raise ValueError(f"case {case.id} makes no call to provoke with")
    return answer


def answer_mismatches(
    result: Result, expect: dict[str, Any], places: Placeholders, limits: Limits,
    codes_read: bool = False,
) -> list[str]:
    """What is wrong with one answer, against one `expect`; empty when it meets it. With
    `codes_read` (a case of a clause that `judges_codes`), an expected code must be read."""
    expect = places.fill(expect)
    wrong = [*outcome_mismatches(result, expect, codes_read),
             *data_mismatches(result, expect, limits)]
    if expects_failure(expect) and result.unproven_refusal() is not None:
        return wrong  # a failure's issues and diff are not owed by an answer not proven one
    return [*wrong, *report_mismatches(result, expect)]


def _content_matches(actual: bytes, expected: Any, limits: Limits) -> bool:
    if isinstance(expected, dict) and "one_of" in expected:
        return any(_content_matches(actual, choice, limits) for choice in expected["one_of"])
    if isinstance(expected, dict) and "sha256" in expected:
        return hashlib.sha256(actual).hexdigest() == expected["sha256"]
    return actual == entry_bytes(expected, limits)


def disk_mismatches(
    root: Path,
    after: dict[str, Any],
    before_last_call: dict[str, tuple[Any, ...]],
    places: Placeholders,
    limits: Limits,
    skip: tuple[Path, ...] = (),
    answers: tuple[Result, ...] = (),
) -> list[str]:
    """What is wrong with the disk after the calls, against `after`; empty when it meets it.
    A file one of the `answers` names (a backup it reports) is not one `tree_paths` left."""
    wrong = []
    for rel, expected in after.get("files", {}).items():
        path = root / rel
        if not path.is_file():
            wrong.append(f"{rel} should be a file, but "
                         f"{'is not a file' if path.exists() else 'does not exist'}")
        elif not _content_matches(path.read_bytes(), expected, limits):
            kept_as_is = isinstance(expected, dict) and {"one_of", "sha256"} & set(expected)
            wanted = expected if kept_as_is else entry_bytes(expected, limits)
            wrong.append(f"{rel} should hold {wanted!r}, holds {path.read_bytes()[:300]!r}")
    for spelled in after.get("absent", []):
        if os.path.lexists(places.path(root, spelled)):
            wrong.append(f"{spelled} should not exist")
    for rel in after.get("exists", []):
        if not os.path.lexists(root / rel):
            wrong.append(f"{rel} should exist")
    for rel, mode in after.get("modes", {}).items():
        path = root / rel
        actual = stat.S_IMODE(path.stat().st_mode) if path.exists() else None
        if actual != int(mode, 8):
            wrong.append(
                f"{rel} should have mode {mode}, "
                f"has {oct(actual) if actual is not None else 'no file'}"
            )
    now = snapshot_tree(root, skip)
    if after.get("unchanged") and now != before_last_call:
        changed = sorted(
            k for k in set(now) | set(before_last_call) if now.get(k) != before_last_call.get(k)
        )
        wrong.append(f"the root should be unchanged by the last call, but these changed: {changed}")
    kept = unreported(now, answers, root, after.get("tree_paths", ()))
    if "tree_paths" in after and set(kept) != set(after["tree_paths"]):
        wrong.append(
            f"the root should hold exactly {sorted(after['tree_paths'])}, holds {sorted(kept)}"
        )
    return wrong


def _judged_calls(case: Case) -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """(label, call, expect) for every call; the case-level expect goes to the last tool step."""
    tool_steps = [index for index, step in enumerate(case.calls) if "disk" not in step]
    labelled = []
    for index, step in enumerate(case.calls):
        for call, label in _calls_of(step, index):
            expect = call.get("expect")
            if expect is None and index == tool_steps[-1] and "concurrently" not in step:
                expect = case.expect
            labelled.append((label, call, expect))
    return labelled


def _calls_of(step: dict[str, Any], index: int) -> list[tuple[dict[str, Any], str]]:
    if "disk" in step:
        return []
    if "concurrently" in step:
        return [(call, f"call {index + 1}.{n + 1}") for n, call in enumerate(step["concurrently"])]
    return [(step, f"call {index + 1}")]


def play_case(
    case: Case, ws: SandboxWorkspace, client: Client
) -> tuple[list[Result], list[str]]:
    """Builds the case's workspace and makes its calls; returns the answers and every mismatch."""
    declared(case, client)
    limits, places = _setting(case, ws, client)
    expectations = {id(call): expect for _, call, expect in _judged_calls(case)}
    codes_read = any(CLAUSES[clause].judges_codes for clause in case.clauses)
    results: list[Result] = []
    wrong: list[str] = []
    state = ws.oracle.state
    before = snapshot_tree(ws.root, state)
    # A case with a FIFO waits for a hang on purpose: "at once" is enough (READ-10).
    with client.budget(AT_ONCE_S) if _has_fifo(case.tree) else contextlib.nullcontext():
        for index, step in enumerate(case.calls):
            if "disk" in step:
                build_tree(ws.root, step["disk"], places, limits)
                continue
            before = snapshot_tree(ws.root, state)
            if "concurrently" in step:
                batch = [(call["tool"], places.fill(call["arguments"]))
                         for call in step["concurrently"]]
                answers = client.call_concurrently(batch)
                raced(batch, answers)
            else:
                answers = [_call(client, step, places)]
            for (call, label), result in zip(_calls_of(step, index), answers, strict=True):
                results.append(result)
                expect = _in_its_names(client, call.get("tool"),
                                       _virtually(client, expectations[id(call)], result))
                name = call.get("tool") or call.get("raw_name")
                if expect:
                    # An answer is bounded by its own tool's limit ([tools.bash].limits), as the
                    # property checks judge it, not only by [limits].
                    own = (limits.with_overrides(
                        {"max_output_chars": client.limits_for(call["tool"]).max_output_chars})
                        if call.get("tool") else limits)
                    long_output_ran(result, places.fill(expect), own)
                    root_named_otherwise(case, places.fill(call), result, expect, client)
                    output_was_cut(result, expect, own)
                    wrong += [
                        f"{label} ({name}): {w}"
                        for w in answer_mismatches(result, expect, places, own, codes_read)
                    ]
                if isinstance(result.data, str) and ws.secret in result.data:
                    wrong.append(f"{label} ({name}): data contains the canary secret")
    if case.after:
        found = disk_mismatches(ws.root, case.after, before, places, limits, state,
                                tuple(results))
        endings_alone(case, len(found), ws, client, {
            rel: entry_bytes(entry, limits) for rel, entry in case.after.get("files", {}).items()})
        wrong += [f"disk: {w}" for w in found]
    return results, wrong


def _has_fifo(tree: dict[str, Any]) -> bool:
    return any(isinstance(entry, dict) and "fifo" in entry for entry in tree.values())


def _virtually(client: Client, expect: dict[str, Any] | None, result: Result
               ) -> dict[str, Any] | None:
    """An OUTSIDE_ROOT expected of an absolute path an implementation maps to root/<path> by
    design (virtual_absolute_paths): refusing is right and so is landing inside the root, as
    suites/_checks.py's rejected_as_outside says; the disk oracle judges everything outside."""
    arguments = result.request.arguments
    codes = (expect or {}).get("error")
    codes = [codes] if isinstance(codes, str) else codes or []
    path = arguments.get("path") if isinstance(arguments, dict) else None
    if expect is None or "OUTSIDE_ROOT" not in codes or not client.judged_virtually(path):
        return expect
    return {key: value for key, value in expect.items() if key != "error"}


def _in_its_names(client: Client, tool: str | None, expect: dict[str, Any] | None
                  ) -> dict[str, Any] | None:
    """Expected issue pointers at canonical arguments (`$.path`), pointing where the profile
    maps them (`$.file_path`): an issue names the field the implementation's schema has."""
    if expect is None or tool is None or not expect.get("issue_paths"):
        return expect
    mapping = client.profile.tool(tool)
    named = []
    for pointer in expect["issue_paths"]:
        head, dot, rest = str(pointer).removeprefix("$.").partition(".")
        target = mapping.target(head) if str(pointer).startswith("$.") else head
        named.append(f"$.{target}{dot}{rest}" if target != head else pointer)
    return {**expect, "issue_paths": named}


def play_probe(case: Case, ws: SandboxWorkspace, client: Client) -> Result:
    """The answer a probe case provokes: its last call's, the one that expects its code."""
    results, _ = play_case(case, ws, client)
    return results[-1]


def run_case(case: Case, ws: SandboxWorkspace, client: Client) -> list[Result]:
    """Plays the case and raises CaseFailed, with the evidence of every answer, if it is not met."""
    results, wrong = play_case(case, ws, client)
    if wrong:
        parents_not_made(case, ws, client)
        evidence = "\n\n".join(result.evidence() for result in results)
        raise CaseFailed(f"case {case.id} ({case.where}): {case.description}\n"
                         + "".join(f"  - {line}\n" for line in wrong) + f"\n{evidence}")
    return results
