"""SYMLINK of every tool that takes a path: none follows a link out of the root (SYMLINK-12).
How a path tool is driven: suites/_path_tools.py.
"""

import pytest
from _path_tools import judge_all, outer_folder

# ---------------------------------------------------------------- SYMLINK-12 links out

LINKED = ["link_out/secret.txt", "link_out_file", "link_out", "dangling_out", "link_out/new.txt",
          "link_out/dir", "link_tmp/secret.txt", "link_tmp"]


@pytest.mark.clause("SYMLINK-12")
@pytest.mark.parametrize("path", LINKED)
def test_a_path_tool_never_follows_a_link_out(ws, client, path: str) -> None:
    ws.link_farm()
    if path.startswith("link_tmp"):
        ws.symlink("link_tmp", outer_folder(ws))  # a link to the canary folder in the system's /tmp
    judge_all(ws, client, path)
