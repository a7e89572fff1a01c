"""scripts/capture_corpus.py: what can be checked without installing anything (no network)."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "capture_corpus.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("capture_corpus", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_recapture_keeps_the_hand_written_expected_block(tmp_path: Path) -> None:
    script = _script()
    entry = {"package": "p", "version": "1", "registry": "npm", "kind": "mcp", "spec": "mcp:x"}
    old = {"id": "p-1", "tools": [{"name": "old"}], "captured": "2000-01-01",
           "expected": {"tools": {"read_file": {"name": "old"}}, "notes": {"x": "kept"}}}
    (tmp_path / "p-1.json").write_text(json.dumps(old))
    script.record("p-1", entry, {"tools": [{"name": "new", "inputSchema": {}}],
                                 "stdout_noise": True}, tmp_path)
    written = json.loads((tmp_path / "p-1.json").read_text())
    assert written["expected"] == old["expected"]
    assert written["tools"] == [{"name": "new", "inputSchema": {}}]
    assert written["stdout_noise"] is True and written["captured"] != "2000-01-01"


def test_an_unknown_id_is_one_line_and_exit_2() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--only", "no-such-entry"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "no-such-entry" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_manifest_entry_without_its_pins_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "corpus.toml"
    manifest.write_text('[entries.x]\npackage = "a"\n')
    done = subprocess.run([sys.executable, str(SCRIPT), "--manifest", str(manifest)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "lacks version, registry, kind" in done.stderr
