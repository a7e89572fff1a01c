"""RESULT-04, CONFINE-07, SYMLINK-05: four inputs make the file tools raise instead of answering.
A path with a NUL byte (ValueError: embedded null byte) and a symbolic link loop (RuntimeError:
Symlink loop) fail inside get_relative_path's Path.resolve(), before the tools' own
try/except; handle_tool_error covers only ToolException. (LangGraph's ToolNode would catch the
exception and show the model its repr; the tools themselves raise.) And move_file refuses a
destination outside root_dir by raising UnboundLocalError: its refusal formats the message with
`destination_path_`, the variable the failed check never assigned (move.py); nothing moves.

    .cache/peers/langchain-community/venv/bin/python peers/langchain-community/repro/crashes.py
"""

import sys
import tempfile
from pathlib import Path

from langchain_community.agent_toolkits import FileManagementToolkit

with tempfile.TemporaryDirectory() as root:
    (Path(root) / "loop_a").symlink_to("loop_b")
    (Path(root) / "loop_b").symlink_to("loop_a")
    (Path(root) / "a.txt").write_text("a\n")
    tools = {t.name: t for t in FileManagementToolkit(root_dir=root).get_tools()}
    raised = []
    for name, arguments in [("read_file", {"file_path": "a\x00b"}),
                            ("write_file", {"file_path": "a\x00b", "text": "x"}),
                            ("read_file", {"file_path": "loop_a"}),
                            ("move_file", {"source_path": "a.txt",
                                           "destination_path": "../outside.txt"})]:
        try:
            print(f"{name} {arguments!r} answered {tools[name].invoke(arguments)!r}")
        except Exception as error:  # what the contract says must not happen
            raised.append(name)
            print(f"{name} {arguments!r} RAISED {type(error).__name__}: {error}")
    print("DEPARTS: the tools raise" if raised else "not reproduced (conforms)")
    sys.exit(1 if raised else 0)
