"""`agentconf matrix`: judge every implementation of a peers folder and publish the matrix.

    agentconf matrix                       # peers/ -> docs/matrix/, installing what is missing
    agentconf matrix --only desktop-commander --rerun
    agentconf matrix --render-only         # rebuild index.html and matrix.json from the runs kept

Each peer runs in its own `agentconf run` process (a pypi peer under its own venv's Python), with
its baseline, so a run is resumable: a peer whose kept run is of the same peer version and kit
version is not run again unless --rerun. The site keeps, per peer, the run's conformance.json and
report.html (its page); matrix.json is validated against agentconf/schemas/matrix.schema.json.
Exit 1 when a peer's verdict left its baseline (a new failure, or a departure that went away).
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import agentconf
from agentconf.cli import UsageError
from agentconf.harness.peers import Peer, PeerError, install, load_peers
from agentconf.harness.report.matrix import (
    implementation_entry,
    matrix_document,
    render_matrix_html,
)

HELP = "run every implementation of a peers folder and write the conformance matrix site"
KEPT = ("conformance.json", "report.html")
# One peer's whole run, installs excluded: a run stops itself sooner when a peer cannot start.
PEER_TIMEOUT_S = 30 * 60


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peers", type=Path, default=Path("peers"),
                        help="the folder of peers, one folder each with peer.toml (default peers)")
    parser.add_argument("--out", type=Path, default=Path("docs/matrix"),
                        help="where the site is written (default docs/matrix)")
    parser.add_argument("--cache", type=Path, default=Path(".cache/peers"),
                        help="where peers are installed (default .cache/peers)")
    parser.add_argument("-n", type=int, default=2, metavar="N",
                        help="processes per peer run (pytest-xdist; default 2)")
    parser.add_argument("--only", metavar="IDS", help="comma-separated peer ids")
    parser.add_argument("--clauses", metavar="IDS",
                        help="comma-separated clause ids or categories (default: all): a partial "
                             "matrix, such as CONFINE,SYMLINK")
    parser.add_argument("--rerun", action="store_true",
                        help="run peers again even when a run of this version is kept")
    parser.add_argument("--render-only", action="store_true",
                        help="install and run nothing: rebuild the site from the kept runs")


def run(args: argparse.Namespace) -> int:
    only = {p.strip() for p in args.only.split(",") if p.strip()} if args.only else None
    try:
        peers = load_peers(args.peers, only)
    except PeerError as error:
        raise UsageError(str(error)) from None
    if not peers:
        raise UsageError(f"{args.peers} holds no peer (a folder with peer.toml)")
    args.out.mkdir(parents=True, exist_ok=True)
    left_baseline = []
    for peer in peers:
        folder = args.out / peer.id
        if not args.render_only and (args.rerun or not _kept(peer, folder, args)):
            try:
                green = _run_peer(peer, folder, args)
            except PeerError as error:
                print(f"agentconf matrix: {peer.id}: {error}", file=sys.stderr)
                return 2
            if not green:
                left_baseline.append(peer.id)
    try:
        every = load_peers(args.peers)  # the page shows every kept run, not only those just made
    except PeerError as error:  # a peer folder changed while the runs were made
        raise UsageError(str(error)) from None
    # The reference first, the control row; then by title and version.
    kept = sorted((p for p in every if (args.out / p.id / "conformance.json").is_file()),
                  key=lambda p: (p.id != "reference", p.table.title, p.table.version))
    entries = [implementation_entry(_peer_fields(p, args), _load(args.out / p.id)) for p in kept]
    document = matrix_document(entries)
    (args.out / "matrix.json").write_text(json.dumps(document, indent=1, sort_keys=True) + "\n",
                                          encoding="utf-8")
    (args.out / "index.html").write_text(render_matrix_html(document), encoding="utf-8")
    missing = [p.id for p in every if not (args.out / p.id / "conformance.json").is_file()]
    print(f"agentconf matrix: {len(entries)} implementation(s) in {args.out / 'index.html'}"
          + (f"; not run yet: {', '.join(missing)}" if missing else ""))
    if left_baseline:
        print(f"agentconf matrix: verdicts left their baseline: {', '.join(left_baseline)} "
              "(see each report's reasons)", file=sys.stderr)
        return 1
    return 0


def _load(folder: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((folder / "conformance.json").read_text("utf-8"))
    return document


def _kept(peer: Peer, folder: Path, args: argparse.Namespace) -> bool:
    """A kept run of this peer version by this kit version."""
    path = folder / "conformance.json"
    if not path.is_file():
        return False
    document = _load(folder)
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


def _shown_command(peer: Peer, args: argparse.Namespace) -> str:
    runner = (f"{peer.venv(args.cache)}/bin/agentconf" if peer.table.registry == "pypi"
              else "agentconf")
    baseline = f" --expected-failures {peer.baseline}" if peer.baseline else ""
    return f"{runner} run --impl {peer.profile}{baseline}"


def _run_peer(peer: Peer, folder: Path, args: argparse.Namespace) -> bool:
    """Install and run one peer; keep its conformance.json and report.html. True when green."""
    with tempfile.TemporaryDirectory(prefix="agentconf-matrix-") as scratch:
        if peer.table.registry != "local":
            print(f"agentconf matrix: {peer.id}: installing {peer.table.package} "
                  f"{peer.table.version} (unless it is there) ...", flush=True)
            install(peer, args.cache)
        report = Path(scratch) / "report"
        started = time.monotonic()
        print(f"agentconf matrix: {peer.id}: {_shown_command(peer, args)}", flush=True)
        try:
            done = subprocess.run(_command(peer, args, report), check=False,
                                  timeout=PEER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise PeerError(f"the run took more than {PEER_TIMEOUT_S} s") from None
        if not (report / "conformance.json").is_file():
            raise PeerError(f"the run wrote no report (exit {done.returncode})")
        folder.mkdir(parents=True, exist_ok=True)
        for name in KEPT:
            shutil.copyfile(report / name, folder / name)
        print(f"agentconf matrix: {peer.id}: exit {done.returncode} in "
              f"{time.monotonic() - started:.0f} s", flush=True)
        return done.returncode == 0


def _peer_fields(peer: Peer, args: argparse.Namespace) -> dict[str, Any]:
    table = peer.table
    return {"id": peer.id, "title": table.title, "package": table.package,
            "version": table.version, "registry": table.registry, "homepage": table.homepage,
            "notes": table.notes, "page": f"{peer.id}/report.html",
            "profile": str(peer.profile), "command": _shown_command(peer, args)}
