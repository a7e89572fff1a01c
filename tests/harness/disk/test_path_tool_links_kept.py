"""SYMLINK-12 judges every path tool on the link it names, even after a destructive tool ran.

judge_all drives each path tool in turn with one path. The filesystem server 2025.3.28's
move_file, driven first with `link_out` (inside the kit's sandbox, so allowed), renamed the link
itself into the root; every tool after it met a missing `link_out`, and its directory_tree,
which follows links out, passed SYMLINK-12[link_out]. Here the implementation is the reference
but for a delete_file that removes a link itself (nothing outside changes) and a directory_tree
that lists a folder named inside the root, links followed: [link_out] must fail.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

MODULE = '''
import os
from typing import Any

from agentconf.selfcheck.mutant_base import Mutant, succeeded


class TreeFollowsLinks(Mutant):
    async def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        path = self.path_of(arguments)
        if path is not None and name in ("delete_file", "directory_tree"):
            target = self.lexical(path)
            if self.inside_by_components(target) and name == "delete_file" and target.is_symlink():
                target.unlink()
                return succeeded(f"Deleted {path}.")
            if self.inside_by_components(target) and name == "directory_tree" and target.is_dir():
                return succeeded("\\n".join(sorted(os.listdir(target))))
        return await super().call_tool(name, arguments)
'''


def test_a_link_a_destructive_tool_removed_is_put_back_for_the_next_tool(tmp_path: Path) -> None:
    (tmp_path / "tree_follows_links.py").write_text(MODULE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    report = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "agentconf", "run", "--impl",
         "python:tree_follows_links:TreeFollowsLinks", "--clauses", "SYMLINK-12",
         "--report", str(report)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
        stdin=subprocess.DEVNULL)
    assert (report / "conformance.json").is_file(), done.stdout + done.stderr
    run = json.loads((report / "conformance.json").read_text())
    outcomes = {test["nodeid"].split("::")[1]: test for clause in run["clauses"]
                for test in clause["tests"]}
    tested = outcomes["test_a_path_tool_never_follows_a_link_out[link_out]"]
    assert tested["outcome"] == "fail", tested
    assert "directory_tree" in tested["evidence"], tested["evidence"]
