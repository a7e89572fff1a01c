"""`agentconf init --from`: the probes of an edit tool: how its failures are worded, whether it
guards reads (read-before-edit, stale reads, a guard on files outside the root) and what it
does to a file's line endings and quotes."""

from collections.abc import Callable
from functools import partial

from agentconf.harness.session.client import Client
from agentconf.harness.session.result import Result
from agentconf.harness.target.kinds import kind_of
from agentconf.init_from.findings import (
    Findings,
    failure,
    observe,
    record,
    safely,
    settle,
    short,
    unsettled,
)

_PROBE_MARK = "agentconf-probe"



def failures_of_edits(client: Client, found: Findings) -> None:
    """An edit of a folder; the other refusals of an edit (a missing file, text not there or
    there twice) are the probe cases' (probe_cases.py)."""
    failure(found, "IS_DIRECTORY", "edit of a folder",
            partial(client.call, "edit_file", path=f"{_PROBE_MARK}-dir", old_text="x",
                    new_text="y"),
            partial(client.call, "edit_file", path="notes", old_text="alpha", new_text="omega"))


def features_of_edits(client: Client, found: Findings, mapped: set[str]) -> None:
    root = client.root
    can_read = "read_file" in mapped

    def edit(path: str, old: str, new: str) -> Callable[[], Result]:
        return lambda: client.call("edit_file", path=path, old_text=old, new_text=new)

    unread = safely(edit("unread.txt", "beta", "gamma"), found, "an edit of a file never read")
    done = unread
    if unread is None:
        unsettled(found, ("read_before_edit", "stale_read"), "an edit of an unread file raised")
    elif unread.success:
        found.capabilities["read_before_edit"] = (False, "an edit of a file never read: "
                                                         f"{short(unread)}")
        found.capabilities["stale_read"] = (False, "no read_before_edit, so no stale reads")
        if can_read:
            found.session_state = _outside_guard(client, found, edit)
    elif not can_read:
        unsettled(found, ("read_before_edit", "stale_read"), "no read_file to satisfy a guard")
    else:
        done = _read_guard(client, found, unread, edit)
    if done is not None and done.success:
        found.successes.setdefault("edit_file", []).append(done.data)
        for name, right in (("diff", lambda r: bool(r.diff)),
                            ("summary", lambda r: bool(r.summary))):
            if not _text_only(client, done):
                observe(found, name, "a successful edit", lambda: done, right, mapped)
            elif name not in found.capabilities:
                found.capabilities[name] = (False, (
                    f"a successful edit answered text alone: {short(done)}; its answers have no "
                    f"structured part, so no `{name}` field to carry one"))
    if can_read:  # an implementation that wants a read before an edit gets one
        safely(lambda: client.call("read_file", path="crlf.txt"), found, "read of crlf.txt")
        safely(lambda: client.call("read_file", path="curly.txt"), found, "read of curly.txt")
    # On only when the edit landed: a "success" that changed nothing (fast-filesystem-mcp's
    # {"message": "Text not found"}) shows no feature.
    observe(found, "crlf_preserve", "an edit of a CRLF file", edit("crlf.txt", "one", "uno"),
            lambda r: not r.success or (root / "crlf.txt").read_bytes() != b"uno\ntwo\n", mapped)
    observe(found, "curly_quotes", "an edit with straight quotes of curly ones",
            edit("curly.txt", 'say "hi"', "say bye"),
            lambda r: r.success and (root / "curly.txt").read_text("utf-8") == "say bye\n", mapped)


def _read_guard(client: Client, found: Findings, unread: Result,
                edit: Callable[[str, str, str], Callable[[], Result]]) -> Result | None:
    """The edit of an unread file failed: a read guard only if the same edit, after a read,
    succeeds; then an outside change between read and edit shows whether it checks for it."""
    safely(lambda: client.call("read_file", path="unread.txt"), found, "read of unread.txt")
    again = safely(edit("unread.txt", "beta", "gamma"), found, "the same edit after a read")
    if again is None or not again.success:
        unsettled(found, ("read_before_edit", "stale_read"),
                   f"an edit failed before a read ({short(unread)}) and after it too")
        return again
    found.capabilities["read_before_edit"] = (True, "an edit of a file never read failed "
                                              f"({short(unread)}), and succeeded after a read")
    record(found, "NOT_READ", "an edit of a file never read", unread)
    stale = client.root / "stale.txt"
    safely(lambda: client.call("read_file", path="stale.txt"), found, "read of stale.txt")
    stale.write_text("alpha\nbeta\nchanged outside\n", encoding="utf-8")
    changed = settle(found, "stale_read", "an edit of a file changed on disk since its read",
                      edit("stale.txt", "beta", "gamma"), lambda r: not r.success)
    if changed is not None and not changed.success:
        record(found, "STALE_READ", "an edit of a file changed on disk since its read", changed)
    return again


def _outside_guard(client: Client, found: Findings,
                   edit: Callable[[str, str, str], Callable[[], Result]]) -> str | None:
    """No guard inside the root; one on files outside it (Claude Code's Edit: "File has not been
    read yet" there until a read) is no feature the contract judges, but session state a kept
    server would carry from check to check. Probed on a file of the scratch sandbox's own
    outside/: None when an edit there succeeds unread, or fails after a read too (confined)."""
    name = f"{_PROBE_MARK}-guarded.txt"
    (client.root.parent / "outside" / name).write_text("alpha\nbeta\n", encoding="utf-8")
    path = f"../outside/{name}"
    first = safely(edit(path, "beta", "gamma"), found, "an edit outside the root, never read")
    if first is None or first.success:
        return None
    safely(lambda: client.call("read_file", path=path), found, "a read outside the root")
    again = safely(edit(path, "beta", "gamma"), found, "the same edit after that read")
    if again is None or not again.success:
        return None
    return (f"an edit of a file outside the root failed before a read ({short(first)}) and "
            "succeeded after it")


def _text_only(client: Client, result: Result) -> bool:
    """Whether `result` came without the structured part its kind keeps the envelope's extras in
    (an MCP answer with no structuredContent): a missing diff or summary there is the shape of
    the answer, which a profile declares, not a defect of the edit."""
    kind = kind_of(client.profile.spec)
    return bool(kind and kind.extras_need_structure) and "structured_content" not in result.raw
