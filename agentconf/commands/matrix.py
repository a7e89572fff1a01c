"""`agentconf matrix`: judge every implementation of a peers folder and publish the matrix.

    agentconf matrix                       # peers/ -> docs/matrix/, installing what is missing
    agentconf matrix --only desktop-commander --rerun
    agentconf matrix --rerun --jobs 1      # one peer after another (default: two at once)
    agentconf matrix --only reference --out shard   # one peer into its own folder (a CI job)
    agentconf matrix combine shard-a shard-b --out docs/matrix --peers peers
    agentconf matrix --list --json         # the peers as a GitHub Actions strategy.matrix
    agentconf matrix --render-only         # rebuild index.html and matrix.json from the runs kept

Each peer runs in its own `agentconf run` process (a pypi peer under its own venv's Python), with
its baseline, so a run is resumable: a peer whose kept run is of the same peer version and kit
version is not run again unless --rerun. The site keeps one folder per peer (report/matrix_site.py);
a peer whose install or run failed is a row "could not run" with the reason, and the others
publish. Exit 1 when a peer's verdict left its baseline (a new failure, or a departure that went
away) or a peer could not run.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TextIO

import agentconf
from agentconf.cli import UsageError
from agentconf.harness.report.matrix import CouldNotRun, PackageHistory, PeerFields
from agentconf.harness.report.matrix_site import (
    KEPT,
    SiteError,
    build_site,
    could_not_run,
    peer_folders,
    place,
    seed_history,
    write_peer,
)
from agentconf.harness.run.peers import Peer, PeerError, install, load_peers
from agentconf.harness.target.launch import PEERS_CACHE_ENV

HELP = "run every implementation of a peers folder and write the conformance matrix site"
# One peer's whole run, installs excluded: a run stops itself sooner when a peer cannot start.
PEER_TIMEOUT_S = 30 * 60
# The Python a CI job runs the kit with when the peer names none.
CI_PYTHON = "3.12"
NO_SHARD = "no run of it reached the combine step (its job stopped before it wrote one)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peers", type=Path, default=Path("peers"),
                        help="the folder of peers, one folder each with peer.toml (default peers)")
    parser.add_argument("--out", type=Path, default=Path("docs/matrix"),
                        help="where the site is written (default docs/matrix)")
    parser.add_argument("--cache", type=Path, default=Path(".cache/peers"),
                        help="where peers are installed (default .cache/peers)")
    parser.add_argument("-n", type=int, default=2, metavar="N",
                        help="processes per peer run (pytest-xdist; default 2)")
    parser.add_argument("-j", "--jobs", type=_positive, default=2, metavar="J",
                        help="peers run at once (default 2: a run mostly waits, and the other "
                             "fills its waits); beside others, each run's console is shown whole "
                             "when it ends; 1: one after another, each speaking as it goes")
    parser.add_argument("--only", metavar="IDS", help="comma-separated peer ids")
    parser.add_argument("--clauses", metavar="IDS",
                        help="comma-separated clause ids or categories (default: all): a partial "
                             "matrix, such as CONFINE,SYMLINK")
    parser.add_argument("--rerun", action="store_true",
                        help="run peers again even when a run of this version is kept")
    parser.add_argument("--render-only", action="store_true",
                        help="install and run nothing: rebuild the site from the kept runs")
    parser.add_argument("--list", action="store_true",
                        help="print the peers and stop (--json: as a CI strategy.matrix)")
    parser.add_argument("--json", action="store_true", help="with --list: one JSON object")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    combine = sub.add_parser("combine", help="build the site from peer folders (CI shards)")
    combine.add_argument("folders", nargs="+", type=Path, metavar="DIR",
                         help="a peer folder (with peer.json) or a folder holding some")
    combine.add_argument("--out", type=Path, default=Path("docs/matrix"),
                         help="the site to update (default docs/matrix)")
    combine.add_argument("--peers", type=Path, default=None, help=(
        "the peers folder: each of its peers no DIR brings is marked could not run"))
    combine.add_argument("--previous", type=Path, default=None, metavar="MATRIX_JSON",
                         help="a previous matrix.json (the published one) whose history to keep")


def run(args: argparse.Namespace) -> int:
    if args.action == "combine":
        return _combine(args)
    only = {p.strip() for p in args.only.split(",") if p.strip()} if args.only else None
    peers = _load(args.peers, only)
    if args.list:
        return _list(peers, args.json)
    args.out.mkdir(parents=True, exist_ok=True)
    left_baseline, failed = [], []
    due: list[Peer] = []
    for peer in peers:
        folder = args.out / peer.id
        if peer.table.cannot_judge:  # listed with its reason, never run: not a failure
            could_not_run(folder, CouldNotRun(**_peer_fields(peer, args.cache).model_dump(),
                                              stage="judge", reason=peer.table.cannot_judge))
            print(f"agentconf matrix: {peer.id}: not judged yet: {peer.table.cannot_judge}")
            continue
        if not args.render_only and (args.rerun or not _kept(peer, folder, args)):
            due.append(peer)
    # A peer's run mostly waits (server starts, timeouts, kill graces): a second run at once
    # fills those waits, where more workers in one run would only add pytest processes.
    main = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, _stop_on) for sig in (signal.SIGTERM, signal.SIGHUP)
                } if main else {}
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = pool.map(lambda peer: _run_peer(peer, args.out / peer.id, args), due)
            for peer, outcome in zip(due, outcomes, strict=True):
                if isinstance(outcome, CouldNotRun):
                    _say(f"agentconf matrix: {peer.id}: could not run: {outcome.reason}",
                         sys.stderr)
                    could_not_run(args.out / peer.id, outcome)
                    failed.append(peer.id)
                elif not outcome:
                    left_baseline.append(peer.id)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    every = _load(args.peers, None)  # the page shows every kept run, not only those just made
    for peer in every:
        folder = args.out / peer.id
        if (folder / "conformance.json").is_file():
            write_peer(folder, _peer_fields(peer, args.cache))  # peer.toml says what it is
    document = _build(args.out)
    shown = {e["id"] for e in document["implementations"]} | {
        f["id"] for f in document.get("could_not_run", [])}
    missing = [p.id for p in every if p.id not in shown]
    print(f"agentconf matrix: {len(document['implementations'])} implementation(s) in "
          f"{args.out / 'index.html'}"
          + (f"; not run yet: {', '.join(missing)}" if missing else ""))
    if failed:
        print(f"agentconf matrix: could not run: {', '.join(failed)}", file=sys.stderr)
    if left_baseline:
        print(f"agentconf matrix: verdicts left their baseline: {', '.join(left_baseline)} "
              "(see each report's reasons)", file=sys.stderr)
    return 1 if failed or left_baseline else 0


def _load(folder: Path, only: set[str] | None) -> list[Peer]:
    try:
        return _nonempty(load_peers(folder, only), folder)
    except PeerError as error:
        raise UsageError(str(error)) from None


def _nonempty(peers: list[Peer], folder: Path) -> list[Peer]:
    if not peers:
        raise UsageError(f"{folder} holds no peer (a folder with peer.toml)")
    return peers


def _build(out: Path) -> dict[str, Any]:
    try:
        return build_site(out)
    except SiteError as error:
        raise UsageError(str(error)) from None


def _list(peers: list[Peer], as_json: bool) -> int:
    if not as_json:
        print("\n".join(peer.id for peer in peers))
        return 0
    include = [{"peer": p.id, "registry": p.table.registry, "python": p.table.python or CI_PYTHON}
               for p in peers]
    print(json.dumps({"include": include}, separators=(",", ":")))
    return 0


def _combine(args: argparse.Namespace) -> int:
    previous = _previous(args.previous)  # all input read before the site is touched
    try:
        folders = peer_folders(args.folders)
        expected = _load(args.peers, None) if args.peers is not None else []
        args.out.mkdir(parents=True, exist_ok=True)
        brought = {place(folder, args.out) for folder in folders}
        seed_history(previous, args.out)
    except SiteError as error:
        raise UsageError(str(error)) from None
    for peer in expected:
        if peer.id not in brought:
            fields = _peer_fields(peer, Path(".cache/peers"))
            could_not_run(args.out / peer.id,
                          CouldNotRun(**fields.model_dump(), stage="run", reason=NO_SHARD))
    document = _build(args.out)
    failed = [f["id"] for f in document.get("could_not_run", [])]
    print(f"agentconf matrix combine: {len(document['implementations'])} implementation(s) in "
          f"{args.out / 'index.html'}" + (f"; could not run: {', '.join(failed)}" if failed
                                           else ""))
    return 0


def _previous(path: Path | None) -> list[PackageHistory]:
    """The history a previous matrix.json kept (`{}`: none yet, as a first CI run writes)."""
    if path is None:
        return []
    try:
        document = json.loads(path.read_text("utf-8"))
        if not isinstance(document, dict):
            raise ValueError("not a JSON object")
        return [PackageHistory.model_validate(h) for h in document.get("history", [])]
    except (OSError, ValueError) as error:  # pydantic's ValidationError is a ValueError
        raise UsageError(f"{path} is no readable matrix.json: "
                         f"{str(error).splitlines()[0]}") from None


def _kept(peer: Peer, folder: Path, args: argparse.Namespace) -> bool:
    """A kept run of this peer version by this kit version."""
    path = folder / "conformance.json"
    if not path.is_file():
        return False
    document = json.loads(path.read_text("utf-8"))
    return (document["implementation"].get("version") == peer.table.version
            and document["kit_version"] == agentconf.__version__
            and document["run"].get("clauses_selected") == _selected(args))


def _selected(args: argparse.Namespace) -> list[str] | None:
    if not args.clauses:
        return None
    return [c.strip().upper() for c in args.clauses.split(",") if c.strip()]


def _command(peer: Peer, args: argparse.Namespace, report: Path) -> list[str]:
    command = [peer.python(args.cache), "-m", "agentconf", "run", "--impl", str(peer.profile),
               "--report", str(report), "-n", str(args.n)]
    if peer.baseline is not None:
        command += ["--expected-failures", str(peer.baseline)]
    if args.clauses:
        command += ["--clauses", args.clauses]
    return command


def _shown_command(peer: Peer, cache: Path) -> str:
    runner = (f"{peer.venv(cache)}/bin/agentconf"
              if peer.table.registry == "pypi" and peer.in_process else "agentconf")
    baseline = f" --expected-failures {peer.baseline}" if peer.baseline else ""
    return f"{runner} run --impl {peer.profile}{baseline}"


# The peers' runs going on, stopped with the matrix (`_stop_on`): a run killed with it would go
# on alone, its implementation and its pytest workers with it.
_RUNNING: set["subprocess.Popen[bytes]"] = set()
_STOPPED = threading.Event()


def _watched(command: list[str], env: dict[str, str], log: TextIO | None) -> int:
    """`command`'s exit status, the process known to `_stop_on` while it runs."""
    with subprocess.Popen(command, env=env, stdout=log,
                          stderr=subprocess.STDOUT if log is not None else None) as process:
        _RUNNING.add(process)
        try:
            return process.wait(timeout=PEER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        finally:
            _RUNNING.discard(process)


def _stop_on(signum: int, _frame: Any) -> None:
    """SIGTERM or SIGHUP: every peer's run is stopped as Ctrl-C stops it (it ends its own
    implementation and workers, and writes what it did), no other starts, and the matrix
    ends with 128 + the signal once they have."""
    _STOPPED.set()
    for process in list(_RUNNING):
        process.send_signal(signal.SIGTERM)
    _say(f"agentconf matrix: interrupted by {signal.Signals(signum).name}: stopping "
         f"{len(_RUNNING)} run(s)", sys.stderr)
    raise SystemExit(128 + signum)


def _run_peer(peer: Peer, folder: Path, args: argparse.Namespace) -> bool | CouldNotRun:
    """Install and run one peer; keep its conformance.json and report.html. True when green;
    why it could not run when its install failed or its run wrote no report."""
    fields = _peer_fields(peer, args.cache).model_dump()
    if _STOPPED.is_set():
        return CouldNotRun(**fields, stage="run", reason="the matrix was stopped")
    with tempfile.TemporaryDirectory(prefix="agentconf-matrix-") as scratch:
        if peer.table.registry != "local":
            _say(f"agentconf matrix: {peer.id}: installing {peer.table.package} "
                 f"{peer.table.version} (unless it is there) ...")
            try:
                install(peer, args.cache)
            except PeerError as error:
                return CouldNotRun(**fields, stage="install", reason=str(error))
        report = Path(scratch) / "report"
        started = time.monotonic()
        _say(f"agentconf matrix: {peer.id}: {_shown_command(peer, args.cache)}")
        # Alone, a run speaks to the console as it goes; beside others, into a file shown whole.
        console = Path(scratch) / "console.txt"
        with console.open("w+", encoding="utf-8", errors="replace") as log:
            try:
                returncode = _watched(_command(peer, args, report), {
                    **os.environ, PEERS_CACHE_ENV: str(args.cache.resolve())},
                    log if args.jobs > 1 else None)
            except subprocess.TimeoutExpired:
                return CouldNotRun(**fields, stage="run",
                                   reason=f"the run took more than {PEER_TIMEOUT_S} s")
            finally:
                log.seek(0)
                if shown := log.read():
                    _say(f"---- agentconf matrix: {peer.id}: its run's console\n{shown}"
                         f"---- end of {peer.id}'s console")
        if not (report / "conformance.json").is_file():
            return CouldNotRun(**fields, stage="run", reason=(
                f"the run wrote no report (exit {returncode}; its cause is on the console)"))
        folder.mkdir(parents=True, exist_ok=True)
        for name in KEPT:
            shutil.copyfile(report / name, folder / name)
        _say(f"agentconf matrix: {peer.id}: exit {returncode} in "
             f"{time.monotonic() - started:.0f} s")
        return returncode == 0


_SAYING = threading.Lock()


def _say(line: str, stream: TextIO | None = None) -> None:
    """One whole message at a time, whichever peer's run it comes from."""
    with _SAYING:
        print(line, file=stream or sys.stdout, flush=True)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value


def _peer_fields(peer: Peer, cache: Path) -> PeerFields:
    table = peer.table
    return PeerFields(id=peer.id, title=table.title, package=table.package,
                      version=table.version, registry=table.registry, homepage=table.homepage,
                      notes=table.notes, page=f"{peer.id}/report.html",
                      profile=str(peer.profile), command=_shown_command(peer, cache))
