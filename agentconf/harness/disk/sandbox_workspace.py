"""SandboxWorkspace: a private temporary sandbox with the root and canaries around it.

Layout (all inside `base/`, the "moat", which holds nothing else but the harness's own logs):

    sandbox/root/                      the implementation's workspace root
    sandbox/root_evil/secret.txt       sibling-prefix folder: `root` + `_evil` fools startsWith
    sandbox/outside/secret.txt         plus friends: link targets for the link farm
    sandbox/home/.ssh/authorized_keys  the fake HOME, the classic `~` target
    sandbox/tmp/                       the implementation's TMPDIR, not judged
    /tmp/agentconf-canary-*/secret.txt  outside the moat: where real allow-lists point (outer.py)

Every canary holds `secret`, a random token: seeing it in an answer means a read escaped.
The canaries follow the traps the seeds guard against (dskcode `confine`, @clarvis/agent-tools
path_escape).
"""

import os
import secrets
import shutil
import stat
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from agentconf.harness.disk import outer
from agentconf.harness.disk.oracle import DiskOracle

HARNESS_DIR = "harness"


# Names only a listing of the canary folder `outside` holds (never sent in a request): a
# listing that shows them reached outside the root.
CANARY_NAMES = ("notes.md", "crlf.txt", "nested.txt")


class SandboxWorkspace:
    """Builds the sandbox on construction; usable as a pytest fixture or a context manager."""

    def __init__(self, base: Path | None = None) -> None:
        self._owns_base = base is None
        self.base = Path(base if base is not None else tempfile.mkdtemp(prefix="agentconf-"))
        self.base = self.base.resolve()  # a real path: /tmp may itself be a link (macOS)
        self.sandbox = self.base / "sandbox"
        self.root = self.sandbox / "root"
        self.outside = self.sandbox / "outside"
        self.sibling = self.sandbox / "root_evil"
        self.home = self.sandbox / "home"
        self.tmp = self.sandbox / "tmp"
        self.logs = self.base / HARNESS_DIR
        self.secret = "agentconf-canary-" + secrets.token_hex(12)
        # Processes a check's own scenario made the implementation start (pids its commands
        # wrote into the root): stopped when the check ends, whatever it found of them.
        self.started: list[int] = []
        self._build()
        # Canary folders in the system's temporary folders (harness/disk/outer.py), each with
        # secret.txt: where real allow-lists point. Handed back by close_outer().
        self.outer = outer.make(self.secret)
        self.oracle = DiskOracle(
            self.sandbox, self.secret, moat=self.base, moat_allowed=(HARNESS_DIR,),
            outer=self.outer,
        )

    def _build(self) -> None:
        for folder in (self.root, self.outside, self.sibling, self.home / ".ssh", self.tmp,
                       self.logs, self.outside / "dir"):
            folder.mkdir(parents=True, exist_ok=True)
        canary = f"{self.secret}\n"
        (self.outside / "secret.txt").write_text(f"outside secret {canary}")
        (self.outside / "notes.md").write_text(f"# notes\n{canary}")
        (self.outside / "dir" / "nested.txt").write_text(f"nested {canary}")
        (self.outside / "crlf.txt").write_bytes(f"line one\r\n{canary.strip()}\r\n".encode())
        (self.sibling / "secret.txt").write_text(f"sibling-prefix {canary}")
        (self.sibling / "a.txt").write_text(f"sibling a {canary}")
        keys = self.home / ".ssh" / "authorized_keys"
        keys.write_text(f"ssh-ed25519 AAAA{self.secret} canary@agentconf\n")
        keys.chmod(0o600)
        (self.home / ".bashrc").write_text(f"# {self.secret}\n")

    # ---- the root, relative paths ------------------------------------------------------------

    def path(self, rel: str) -> Path:
        return self.root / rel

    def write(self, rel: str, content: str | bytes, mode: int | None = None) -> Path:
        """Writes exactly these bytes (text is UTF-8 with its newlines untouched)."""
        target = self.path(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        target.write_bytes(data)
        if mode is not None:
            target.chmod(mode)
        return target

    def read_bytes(self, rel: str) -> bytes:
        """The file's bytes. A file that is not there after the implementation said it wrote it
        is the implementation's departure (a failed check), never the harness's crash."""
        try:
            return self.path(rel).read_bytes()
        except OSError as error:
            raise AssertionError(
                f"{rel} is not a readable file in the root ({type(error).__name__}: "
                f"{error.strerror}); what the root holds: {sorted(self.tree())[:20]}"
            ) from None

    def exists(self, rel: str) -> bool:
        return os.path.lexists(self.path(rel))

    def mkdir(self, rel: str) -> Path:
        target = self.path(rel)
        target.mkdir(parents=True, exist_ok=True)
        return target

    def symlink(self, rel: str, target: str | Path) -> Path:
        """A link at `rel` whose target is stored exactly as given (relative stays relative)."""
        link = self.path(rel)
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, link)
        return link

    def fifo(self, rel: str) -> Path:
        target = self.path(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(target)
        return target

    def link_farm(self) -> dict[str, Path]:
        """The standard set of links in and out of the root, by name."""
        self.write("sub/inner.txt", "inner\n")
        return {name: self.symlink(name, target)
                for name, target in farm_targets(self.root, self.outside).items()}

    def tree(self) -> dict[str, bytes]:
        """Every path under the root, `ls -F` style: `dir/`: b"", `link@`: target, file: bytes.

        For "nothing changed" checks: compare two calls' results with ==. The implementation's
        own state inside the root ([setup].state folders, what [setup].commands made: a `.git`,
        a config file) is its own, and left out.
        """
        found: dict[str, bytes] = {}
        state = set(self.oracle.state)
        for dirpath, dirnames, filenames in os.walk(self.root):
            folder = Path(dirpath)
            dirnames[:] = [name for name in dirnames if folder / name not in state]
            for name in sorted(dirnames + [n for n in filenames if folder / n not in state]):
                path = folder / name
                rel = path.relative_to(self.root).as_posix()
                info = path.lstat()
                if stat.S_ISLNK(info.st_mode):
                    found[rel + "@"] = os.readlink(path).encode()
                elif stat.S_ISDIR(info.st_mode):
                    found[rel + "/"] = b""
                elif stat.S_ISREG(info.st_mode):
                    found[rel] = path.read_bytes()
                else:
                    found[rel + "|"] = b""
        return dict(sorted(found.items()))

    def close_outer(self) -> None:
        """Hands the canary folders outside the sandbox back, for the next workspace to refill
        (whatever is kept of the sandbox): a folder this check changed is never reused."""
        outer.release(self.outer)

    def rebaseline(self) -> None:
        """Accept the current state outside the root (after a test set something up there)."""
        self.oracle.rebaseline()

    # ---- context manager ------------------------------------------------------------------------

    def __enter__(self) -> "SandboxWorkspace":
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close_outer()
        if self._owns_base:
            remove_tree(self.base)


def farm_targets(root: Path, outside: Path) -> dict[str, str | Path]:
    """The standard links of a root, name -> target: out (to the canary folder `outside`), in,
    nowhere and at each other. One table for the suites' `ws.link_farm()` and the public
    `agentconf.testkit.link_farm()` (which adds a relative link out from a subfolder);
    `root/sub/inner.txt` is what the inward links point at."""
    return {
        "link_out": outside,
        "link_out_file": outside / "secret.txt",
        "link_in": "sub",
        "link_in_file": "sub/inner.txt",
        "dangling_out": outside / "created_by_escape.txt",
        "loop_a": "loop_b",
        "loop_b": "loop_a",
    }


def empty_root(root: Path) -> None:
    """Everything in the root goes; the root stays, with its mode (a process has it as its cwd)."""
    mode = stat.S_IMODE(os.lstat(root).st_mode)
    os.chmod(root, 0o700)
    _remove_children(root, keep=())
    os.chmod(root, mode)


def empty_for_reuse(base: Path, root_id: tuple[int, int], root_mode: int) -> bool:
    """Makes a clean sandbox's base ready to be built again at the same place.

    Everything goes but the harness's logs and the root folder itself, which is emptied and given
    back its first mode: a process kept from test to test has it as its cwd. False (nothing
    removed) when the root is no longer the folder it was: that base cannot be reused.
    """
    root = base / "sandbox" / "root"
    try:
        info = os.lstat(root)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or (info.st_dev, info.st_ino) != root_id:
        return False
    os.chmod(root, 0o700)  # a test may have made it read-only
    _remove_children(root, keep=())
    os.chmod(root, root_mode)
    _remove_children(root.parent, keep=("root",))
    _remove_children(base, keep=("sandbox", HARNESS_DIR))
    return True


def copy_sandbox(source: Path, target: Path) -> None:
    """Copies a sandbox's base into the existing folder `target` as it is: links as links,
    FIFOs made anew (opening one to copy it would block), modes kept; sockets and devices left
    out. OSError (shutil.Error is one) when anything could not be copied."""
    shutil.copytree(source, target, symlinks=True, copy_function=_copy_entry,
                    dirs_exist_ok=True)


def _copy_entry(source: str, target: str) -> None:
    info = os.lstat(source)
    if stat.S_ISREG(info.st_mode):
        shutil.copy2(source, target, follow_symlinks=False)
    elif stat.S_ISFIFO(info.st_mode):
        os.mkfifo(target, stat.S_IMODE(info.st_mode))


def _remove_children(folder: Path, keep: tuple[str, ...]) -> None:
    with os.scandir(folder) as entries:
        doomed = [entry for entry in entries if entry.name not in keep]
    for entry in doomed:
        if entry.is_dir(follow_symlinks=False):
            remove_tree(Path(entry.path))
        else:
            os.unlink(entry.path)


def remove_tree(top: Path) -> None:
    """rmtree that first makes read-only folders writable again (tests chmod things), and takes
    an entry that vanished meanwhile as removed (a kept server may still be rewriting its config
    in HOME, with a lock folder made and removed, while its sandbox is emptied).

    Other failures are raised as OSError, which every caller expects."""
    # `onerror` rather than `onexc`: the latter only exists from Python 3.12.
    shutil.rmtree(top, onerror=_retry_writable)


def _retry_writable(function: Any, path: str, excinfo: Any) -> None:
    """shutil.rmtree's error callback. `function` is the call that failed: os.unlink, os.rmdir,
    os.lstat, or os.open / os.scandir for a folder it could not enter. The last two cannot be
    repeated with `path` alone (os.open wants flags: calling it so raised a TypeError, a harness
    error, on Desktop Commander), so such a folder is removed by a second rmtree instead."""
    if isinstance(excinfo[1], FileNotFoundError):
        return  # gone already: what was wanted
    for item in (os.path.dirname(path), path):
        if os.path.isdir(item) and not os.path.islink(item):
            os.chmod(item, 0o700)
    if function in (os.open, os.scandir):
        shutil.rmtree(path)  # once: a second refusal is raised to the caller
    else:
        function(path)
