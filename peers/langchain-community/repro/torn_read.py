"""CONCUR-04: a read_file concurrent with write_file can see an empty file.

WriteFileTool opens the target with open(path, "w"), which truncates it, then writes: a
ReadFileTool call between the two reads "" although the file only ever held one of two whole
versions. An agent that runs tool calls in parallel (LangGraph's ToolNode does) can be shown
an empty file. Two threads, a few thousand rounds; usually seen within the first hundred.

    .cache/peers/langchain-community/venv/bin/python peers/langchain-community/repro/torn_read.py
"""

import sys
import tempfile
import threading

from langchain_community.agent_toolkits import FileManagementToolkit

VERSIONS = ("A" * 4096, "B" * 4096)

with tempfile.TemporaryDirectory() as root:
    tools = {t.name: t for t in FileManagementToolkit(root_dir=root).get_tools()}
    tools["write_file"].invoke({"file_path": "doc.txt", "text": VERSIONS[0]})
    done = threading.Event()

    def write() -> None:
        for round_ in range(3000):
            tools["write_file"].invoke({"file_path": "doc.txt", "text": VERSIONS[round_ % 2]})
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    seen = set()
    while not done.is_set():
        text = tools["read_file"].invoke({"file_path": "doc.txt"})
        if text not in VERSIONS:
            seen.add(f"{len(text)} characters")
    writer.join()
    if seen:
        print(f"DEPARTS: reads saw a file that was never written whole: {sorted(seen)}")
    else:
        print("not reproduced (conforms)")
    sys.exit(1 if seen else 0)
