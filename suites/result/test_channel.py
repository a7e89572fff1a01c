"""RESULT-09: over stdio the channel carries protocol messages only; logs belong on stderr.

A debug line on stdout corrupts MCP's framing for every client (the MCP stdio transport: the
server MUST NOT write anything to stdout that is not a valid message). The cmd: and mcp: adapters
record every stdout line that is no JSON-RPC message at all (`stdout_noise`); in process there is
no channel to judge.
"""

import contextlib

import pytest

from agentconf.harness.verdicts.errors import NotApplicable, not_applicable

# Calls that answer and fail in the ways a server may log about, each in the sandbox's root.
CALLS = (("read_file", {"path": "a.txt"}), ("read_file", {"path": "no-such-file.txt"}),
         ("list_files", {"path": "."}), ("write_file", {"path": "b.txt", "content": "beta\n"}),
         ("edit_file", {"path": "b.txt", "old_text": "beta", "new_text": "gamma"}),
         ("grep", {"pattern": "alpha", "path": "."}), ("bash", {"command": "echo agentconf"}))


@pytest.mark.clause("RESULT-09")
def test_stdout_carries_nothing_but_protocol_messages(ws, client) -> None:
    noise = getattr(client.adapter, "stdout_noise", None)
    if noise is None:
        not_applicable("the implementation is not spoken to over stdio (cmd:, mcp:)")
    ws.write("a.txt", "alpha\n")
    client.list_tools()
    called = []
    for tool, arguments in CALLS:
        if client.has(tool):
            with contextlib.suppress(NotApplicable):  # a command its allow-list declines
                called.append(client.call(tool, **arguments))
    client.list_tools()  # a last round trip: lines printed after the answers arrive too
    if not called and not noise:  # a listing alone is the framework's answer, not the tools'
        not_applicable("not judged: the profile maps none of the tools this check calls "
                       f"({', '.join(sorted({tool for tool, _ in CALLS}))}): no call was watched")
    assert not noise, (
        "stdout carried lines that are not protocol messages (logs belong on stderr): "
        + "; ".join(repr(line) for line in noise[:5]))
