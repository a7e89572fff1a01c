"""What its listing and its messages say (the SHOULD and MAY departures):

- REGISTRY-05, ANNOTATION-04: no tool in tools/list carries MCP annotations (readOnlyHint,
  destructiveHint ...) or any other word of its kind.
- REGISTRY-07 (MAY): ToolSearch answers the names it matched ({"matches": ["Agent"], ...}) and no
  input schema (the Claude Code app expands its matches into schemas; `mcp serve` does not).
- RESULT-07: a call with 300 unknown arguments answers zod's issue list whole, 16,000 characters.
- RESULT-06: a non-zero exit answers "Exit code 42" and the output, naming no next step.

    python3 listing.py     # exit 1: any of them shows
"""

import tempfile
from pathlib import Path

from mcp_stdio import Server, verdict

seen: list[str] = []
with tempfile.TemporaryDirectory() as base:
    root = Path(base, "root")
    root.mkdir()
    (root / "a.txt").write_text("alpha\n")
    with Server(root, Path(base, "scratch")) as server:
        tools = server.tools()
        bare = [tool["name"] for tool in tools if not tool.get("annotations")]
        print(f"{len(bare)} of {len(tools)} tools without annotations:", ", ".join(bare))
        if bare:
            seen.append(f"REGISTRY-05, ANNOTATION-04: {len(bare)} tools declare no hints")
        failed, text = server.call("ToolSearch", query="Agent", max_results=5)
        print("ToolSearch Agent:", text[:160])
        if "properties" not in text and "subagent_type" not in text:
            seen.append("REGISTRY-07: ToolSearch answers names without an input schema")
        many = {f"unknown_argument_{n}": n for n in range(300)}
        failed, text = server.call("Read", file_path=str(root / "a.txt"), **many)
        print(f"Read with 300 unknown arguments: {len(text)} characters")
        if len(text) > 2000:
            seen.append(f"RESULT-07: the answer to 300 unknown arguments is {len(text)} "
                        "characters")
        failed, text = server.call("Bash", command="echo out; exit 42")
        print("Bash exit 42:", repr(text))
        if failed and not any(word in text.lower() for word in ("try", "use ", "check")):
            seen.append(f"RESULT-06: a failure names no next step: {text!r}")
verdict(seen, "its listing declares hints and its messages stay short and say what to do")
