"""deepagents 0.7.32: the two races the kit's CONCUR checks catch in some runs only, reproduced
on deepagents alone (so its baseline lists them as "race:", passing or failing).

    .cache/peers/deepagents/venv/bin/python peers/deepagents/repro/races.py

Tools run as in departures.py (langgraph's ToolNode over LocalShellBackend), called from
threads at once, as an agent's parallel tool calls run. Each round:
- CONCUR-01: ten edit_file calls, each replacing its own line of one file; an edit is lost when
  the file ends with fewer than ten replaced lines (each call reads, replaces and writes back).
- CONCUR-04: writes of a whole new version with reads between them; a read that sees an empty
  file caught write_file between its truncation and its write.
Exit 1 when either race is seen; the counts are printed.
"""

import sys
import tempfile
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from deepagents.backends.local_shell import LocalShellBackend
from deepagents.middleware.filesystem import FilesystemMiddleware, FilesystemState
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode


def tools(root: Path) -> Any:
    middleware = FilesystemMiddleware(backend=LocalShellBackend(root_dir=str(root)))
    graph = StateGraph(FilesystemState)
    graph.add_node("tools", ToolNode(middleware.tools, wrap_tool_call=middleware.wrap_tool_call))
    graph.add_edge(START, "tools")
    graph.add_edge("tools", END)
    return graph.compile()


def call(app: Any, name: str, args: Any) -> str:
    message = AIMessage("", tool_calls=[{"name": name, "args": args,
                                         "id": f"call_{uuid.uuid4().hex}"}])
    return str(app.invoke({"messages": [message]})["messages"][-1].content)


ROUNDS = 30
lost_rounds = torn_reads = 0
with tempfile.TemporaryDirectory() as base, ThreadPoolExecutor(max_workers=16) as pool:
    root = Path(base)
    app = tools(root)
    for _ in range(ROUNDS):
        shared = root / "shared.txt"
        shared.write_text("".join(f"slot-{i:02d}: old\n" for i in range(10)))
        list(pool.map(lambda i: call(app, "edit_file", {
            "file_path": "/shared.txt", "old_string": f"slot-{i:02d}: old",
            "new_string": f"slot-{i:02d}: new"}), range(10)))
        if shared.read_text().count(": new") < 10:
            lost_rounds += 1

        (root / "doc.txt").write_text("<v0>" * 400)
        jobs = []
        for k in range(1, 5):
            jobs.append(("write_file", {"file_path": "/doc.txt", "content": f"<v{k}>" * 400}))
            jobs += [("read_file", {"file_path": "/doc.txt"})] * 8
        answers = list(pool.map(lambda job: (job[0], call(app, *job)), jobs))
        torn_reads += sum(1 for tool, text in answers if tool == "read_file" and "<v" not in text)
print(f"CONCUR-01: edits lost in {lost_rounds} of {ROUNDS} rounds of ten concurrent edits")
print(f"CONCUR-04: {torn_reads} reads saw no version at all (an empty file) in {ROUNDS} rounds")
sys.exit(1 if lost_rounds or torn_reads else 0)
