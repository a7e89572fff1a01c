"""The quick starts are true: their code, run as they say, passes the clauses it claims to."""

import json
import re
from pathlib import Path

import pytest
from cli import agentconf

DOCS = Path(__file__).resolve().parents[2] / "docs"
# Every example advertises read_file and answers it: advertised == callable, unknown tool named.
CLAUSES = "REGISTRY-03,REGISTRY-04"


def blocks(doc: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (DOCS / doc).read_text("utf-8"), re.S)


def statuses(report: Path) -> dict[str, str]:
    document = json.loads((report / "conformance.json").read_text())
    return {clause["id"]: clause["status"] for clause in document["clauses"]}


@pytest.mark.parametrize(("doc", "file", "impl_args", "report"), [
    ("quickstart-python.md", "mytools.py", ["--impl", "python:mytools:create"], "mytools"),
    ("quickstart-stdio.md", "tools_server.py",
     ["--impl", "cmd:python3 {here}/tools_server.py {root}"], "python3"),
    ("quickstart-mcp.md", "server.py", ["--profile", "agentconf.toml"], "my-files"),
])
def test_a_quickstart_example_passes_the_registry_clauses(
    tmp_path: Path, doc: str, file: str, impl_args: list[str], report: str
) -> None:
    (tmp_path / file).write_text(blocks(doc, "python")[0])
    for toml in blocks(doc, "toml"):
        (tmp_path / "agentconf.toml").write_text(toml)
    args = [a.replace("{here}", str(tmp_path)) for a in impl_args]
    done = agentconf("run", *args, "--clauses", CLAUSES, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(statuses(tmp_path / "reports" / report).values()) == {"pass"}
