"""Capture the drafting corpus: the real `tools/list` answers of pinned tool systems.

    python scripts/capture_corpus.py [--only ID[,ID...]] [--cache DIR] [--manifest FILE]

Each entry of fixtures/drafting/corpus.toml pins a package on npm or PyPI and says how it is
started. It is installed into its own folder of the cache, outside the repository
(`~/.cache/agentconf/corpus/<id>`, or --cache / $AGENTCONF_CORPUS_CACHE; npm with
--ignore-scripts, PyPI into a venv of its own), started in a scratch sandbox whose root is its
allowed folder, asked `tools/list`, and written to `fixtures/drafting/<id>.json`.
- mcp: the tools are recorded as the bytes on the server's stdout carried them (initialize and
  tools/list sent by hand; `stdout_noise` when a line is not JSON-RPC), and agentconf's own mcp:
  adapter must list the same tools (when it cannot, the console says why).
- python: the entry's venv interpreter runs the factory (fixtures/drafting/adapters/<id>.py, the
  kit's own glue) through agentconf's python: adapter: name, description, input_schema, as the
  model is shown them. Anything printed on stdout is noise.
Re-running keeps each file's hand-written `expected` block; only `tools`, the version data and
`captured` are refreshed. Everything started is killed; the scratch folder is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib.util
import json
import logging
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DRAFTING = REPO / "fixtures" / "drafting"
DEFAULT_CACHE = Path.home() / ".cache" / "agentconf" / "corpus"
START_TIMEOUT_S = 120.0
FIELDS = ("package", "version", "registry", "kind")


class CorpusError(Exception):
    """Bad input or a failed step: one line for the user."""


def load_manifest(path: Path) -> dict[str, dict[str, Any]]:
    try:
        entries = tomllib.loads(path.read_text("utf-8")).get("entries", {})
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CorpusError(f"{path}: {error}") from None
    for entry_id, entry in entries.items():
        missing = [name for name in FIELDS if not isinstance(entry.get(name), str)]
        if missing:
            raise CorpusError(f"{path}: entry {entry_id} lacks {', '.join(missing)}")
        if entry["registry"] not in ("npm", "pypi") or entry["kind"] not in ("mcp", "python"):
            raise CorpusError(f"{path}: entry {entry_id}: registry npm|pypi, kind mcp|python")
        if ("spec" in entry) == ("factory" in entry):
            raise CorpusError(f"{path}: entry {entry_id} needs a spec (mcp) or a factory (python)")
    return entries


def install(entry_id: str, entry: dict[str, Any], cache: Path) -> Path:
    """The entry's folder in the cache, installed (skipped when the stamp says it is)."""
    folder = cache / entry.get("shares", entry_id)
    folder.mkdir(parents=True, exist_ok=True)
    wanted = json.dumps({k: entry.get(k) for k in (*FIELDS, "requires", "python", "lock",
                                                   "overrides")},
                        sort_keys=True)
    stamp = folder / "corpus-stamp.json"
    if stamp.is_file() and stamp.read_text("utf-8") == wanted:
        return folder
    log = folder / "install.log"
    if entry["registry"] == "npm":
        _install_npm(entry, folder, log)
    else:
        venv = folder / "venv"
        if venv.exists():
            shutil.rmtree(venv)
        _step([_python(entry.get("python")), "-m", "venv", str(venv)], folder, log)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
               "--disable-pip-version-check"]
        _step([*pip, f"{entry['package']}=={entry['version']}", *entry.get("requires", [])],
              folder, log)
        if entry["kind"] == "python":  # the kit beside the framework, as a python: user has it
            _step([*pip, "-e", str(REPO)], folder, log)
    stamp.write_text(wanted, "utf-8")
    return folder


def _install_npm(entry: dict[str, Any], folder: Path, log: Path) -> None:
    # --ignore-scripts: nothing of the package runs on the host while installing.
    quiet = ["--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
    if "lock" in entry:  # a peer of this repository: its own package.json and lockfile
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(REPO / entry["lock"] / name, folder / name)
        _step(["npm", "ci", *quiet], folder, log)
        return
    pins = {entry["package"]: entry["version"]}
    for extra in entry.get("requires", []):
        name, _, version = extra.rpartition("@")
        pins[name] = version
    # overrides pin what the package's own ranges would resolve to today (zod 4 under a
    # server written for zod 3 lists every schema empty).
    (folder / "package.json").write_text(json.dumps(
        {"name": "agentconf-corpus-entry", "private": True, "dependencies": pins,
         "overrides": entry.get("overrides", {})}, indent=1))
    _step(["npm", "install", *quiet], folder, log)


def _python(version: str | None) -> str:
    from agentconf.harness.run.peers import PeerError, find_python

    try:
        return find_python(version)  # on PATH, or one pyenv installed
    except PeerError as error:
        raise CorpusError(str(error)) from None


def _step(command: list[str], cwd: Path, log: Path) -> None:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {shlex.join(command)}\n")
        out.flush()
        done = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                              check=False)
    if done.returncode != 0:
        raise CorpusError(f"{shlex.join(command[:4])} ... failed (exit {done.returncode}); "
                          f"see {log}")


def scratch() -> tuple[Path, dict[str, Path]]:
    base = Path(tempfile.mkdtemp(prefix="agentconf-corpus-"))
    places = {name: base / name for name in ("root", "home", "tmp", "logs")}
    for place in places.values():
        place.mkdir()
    return base, places


def fill(text: str, cache: Path, places: dict[str, Path]) -> str:
    for name, value in (("cache", cache), ("repo", REPO), *places.items()):
        text = text.replace("{" + name + "}", str(value))
    return text


def capture_mcp(entry: dict[str, Any], cache: Path, places: dict[str, Path]) -> dict[str, Any]:
    spec = fill(entry["spec"], cache, places)
    argv = shlex.split(spec.removeprefix("mcp:"))
    env = {**os.environ, "HOME": str(places["home"]), "TMPDIR": str(places["tmp"]),
           **{k: fill(v, cache, places) for k, v in entry.get("env", {}).items()}}
    raw = _raw_exchange(argv, env, places["root"])
    adapter_tools = _adapter_listing(spec, places, entry.get("env", {}), cache)
    wire_names = [tool["name"] for tool in raw["tools"]]
    if adapter_tools is not None and [t["name"] for t in adapter_tools] != wire_names:
        raise CorpusError("the mcp: adapter listed other tools than the server's stdout carried")
    return raw


def _raw_exchange(argv: list[str], env: dict[str, str], root: Path) -> dict[str, Any]:
    """initialize, initialized, tools/list (all pages) over the server's own stdio."""
    process = subprocess.Popen(argv, cwd=root, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    noise: list[str] = []
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        def ask(request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
            _send(process, {"jsonrpc": "2.0", "id": request_id, "method": method,
                            "params": params})
            return _answer(lines, request_id, noise)

        # The protocol version agentconf's own MCP SDK asks for: the answer it would be given.
        from mcp_types import LATEST_PROTOCOL_VERSION

        hello = ask(1, "initialize", {
            "protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": "agentconf-corpus", "version": "1"}})
        _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools: list[dict[str, Any]] = []
        params: dict[str, Any] = {}
        for request_id in range(2, 50):
            page = ask(request_id, "tools/list", params)
            tools.extend(page.get("tools", []))
            if not page.get("nextCursor"):
                break
            params = {"cursor": page["nextCursor"]}
    finally:
        _kill_group(process)
    return {"tools": tools, "stdout_noise": bool(noise),
            "server_info": hello.get("serverInfo", {})}


def _send(process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()


def _read_lines(stream: Any, lines: queue.Queue[bytes]) -> None:
    """Every line the server prints, in a thread: a select() on the pipe would miss lines the
    buffered reader already holds (a banner and the answer that came in one read)."""
    with contextlib.suppress(OSError, ValueError):  # the pipe closed under it: the end
        for line in iter(stream.readline, b""):
            lines.put(line)
    lines.put(b"")


def _answer(lines: queue.Queue[bytes], request_id: int, noise: list[str]) -> dict[str, Any]:
    deadline = time.monotonic() + START_TIMEOUT_S
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if not line:
            raise CorpusError("the server exited before answering")
        try:
            message = json.loads(line)
        except ValueError:
            noise.append(line.decode(errors="replace"))
            continue
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            noise.append(line.decode(errors="replace"))
        elif message.get("id") == request_id:
            if "error" in message:
                raise CorpusError(f"the server refused request {request_id}: {message['error']}")
            result: dict[str, Any] = message["result"]
            return result
    raise CorpusError(f"no answer to request {request_id} within {START_TIMEOUT_S:g} s")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def _adapter_listing(spec: str, places: dict[str, Path], env: dict[str, str],
                     cache: Path) -> list[dict[str, Any]] | None:
    from agentconf.harness.target.adapters import AdapterEnv, open_adapter
    from agentconf.harness.target.spec import parse_spec
    from agentconf.harness.verdicts.errors import ImplementationFailure

    # The SDK logs every non-JSON stdout line with a traceback; stdout_noise already says so.
    logging.getLogger("mcp").setLevel(logging.CRITICAL)

    adapter_env = AdapterEnv(root=places["root"], home=places["home"], tmp=places["tmp"],
                             call_timeout_s=START_TIMEOUT_S, start_timeout_s=START_TIMEOUT_S,
                             log_dir=places["logs"],
                             extra_env={k: fill(v, cache, places) for k, v in env.items()})
    try:
        adapter = open_adapter(parse_spec(spec), adapter_env)
    except ImplementationFailure as error:
        print(f"  the mcp: adapter could not start it: {str(error).splitlines()[0]}")
        return None
    try:
        return adapter.list_tools()
    except ImplementationFailure as error:
        print(f"  the mcp: adapter could not list its tools: {str(error).splitlines()[0]}")
        return None
    finally:
        adapter.close()


def capture_python(entry_id: str, entry: dict[str, Any], folder: Path,
                   places: dict[str, Path]) -> dict[str, Any]:
    """The venv's interpreter runs this very script with --child; the listing comes back in a
    file, so that whatever the framework prints on stdout is seen as noise."""
    out = places["logs"] / "listing.json"
    child = [str(folder / "venv" / "bin" / "python"), str(Path(__file__).resolve()), "--child",
             str(DRAFTING / entry["factory"]), str(places["root"]), str(out)]
    env = {**os.environ, "HOME": str(places["home"]), "TMPDIR": str(places["tmp"]),
           **entry.get("env", {})}
    done = subprocess.run(child, cwd=places["root"], env=env, capture_output=True,
                          timeout=300, check=False, start_new_session=True)
    if done.returncode != 0:
        last = (done.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
        raise CorpusError(f"the factory failed: {last}")
    listing: list[dict[str, Any]] = json.loads(out.read_text("utf-8"))
    return {"tools": listing, "stdout_noise": bool(done.stdout.strip())}


def child(factory_file: str, root: str, out: str) -> None:
    """In the entry's venv: FACTORY(workspace) through agentconf's python: adapter."""
    from agentconf.harness.profile.model import Profile
    from agentconf.harness.target.adapters.base import AdapterEnv
    from agentconf.harness.target.adapters.python import open_python

    path, _, name = factory_file.rpartition(":")
    spec = importlib.util.spec_from_file_location("corpus_factory", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    base = Path(root)
    env = AdapterEnv(root=base, home=Path(os.environ["HOME"]), tmp=Path(os.environ["TMPDIR"]),
                     call_timeout_s=START_TIMEOUT_S)
    adapter = open_python(factory_file, env, Profile(), getattr(module, name))
    try:
        listing = adapter.list_tools()
    finally:
        adapter.close()
    Path(out).write_text(json.dumps(listing), "utf-8")


def record(entry_id: str, entry: dict[str, Any], captured: dict[str, Any],
           out_dir: Path) -> Path:
    path = out_dir / f"{entry_id}.json"
    kept: dict[str, Any] = {}
    if path.is_file():
        kept = json.loads(path.read_text("utf-8")).get("expected", {})
    spec = entry.get("spec") or f"python:fixtures/drafting/{entry['factory']}"
    document: dict[str, Any] = {
        "id": entry_id, **{name: entry[name] for name in FIELDS}, "spec": spec,
        "captured": datetime.date.today().isoformat(),
        "stdout_noise": captured["stdout_noise"],
    }
    if captured.get("server_info"):
        document["server_info"] = captured["server_info"]
    document["tools"] = captured["tools"]
    document["expected"] = kept or {"tools": {}}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


def capture_one(entry_id: str, entry: dict[str, Any], cache: Path, out_dir: Path) -> Path:
    folder = install(entry_id, entry, cache)
    base, places = scratch()
    try:
        for name, text in entry.get("files", {}).items():  # what it reads at start (its config)
            path = Path(fill(name, cache, places))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(fill(text, cache, places), "utf-8")
        if entry["kind"] == "mcp":
            captured = capture_mcp(entry, cache, places)
        else:
            captured = capture_python(entry_id, entry, folder, places)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    # A description that names the scratch root (OpenHands': "Your current working directory
    # is ...") is recorded with {root} there, so a capture does not differ by its temp name.
    captured["tools"] = json.loads(json.dumps(captured["tools"]).replace(
        json.dumps(str(places["root"]))[1:-1], "{root}"))
    return record(entry_id, entry, captured, out_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", type=Path, default=DRAFTING / "corpus.toml")
    parser.add_argument("--out", type=Path, default=DRAFTING)
    parser.add_argument("--cache", type=Path,
                        default=Path(os.environ.get("AGENTCONF_CORPUS_CACHE", DEFAULT_CACHE)))
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="capture only these ids (repeat, or comma-separated)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    try:
        entries = load_manifest(args.manifest)
        only = {i for part in args.only for i in part.split(",") if i}
        if unknown := only - set(entries):
            raise CorpusError(f"no such id in {args.manifest}: {', '.join(sorted(unknown))}")
        if not args.out.is_dir():
            raise CorpusError(f"{args.out} is not a folder")
    except CorpusError as error:
        print(f"capture_corpus: {error}", file=sys.stderr)
        return 2
    failed = []
    for entry_id, entry in entries.items():
        if only and entry_id not in only:
            continue
        started = time.monotonic()
        try:
            path = capture_one(entry_id, entry, args.cache.expanduser().resolve(), args.out)
        except Exception as error:  # one entry's failure is one line; the others go on
            print(f"{entry_id}: NOT captured: {type(error).__name__}: {error}")
            failed.append(entry_id)
            continue
        tools = len(json.loads(path.read_text("utf-8"))["tools"])
        print(f"{entry_id}: {tools} tools ({time.monotonic() - started:.1f} s)")
    if failed:
        print(f"not captured: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
