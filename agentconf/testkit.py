"""The suites' building blocks, for a tool author's own tests.

Everything here works alone, with no implementation spec and no ``agentconf run``:

- :func:`sandbox` — a private temporary sandbox: the root, canary files beside it holding a random
  secret, and the disk oracle that judges everything outside the root byte for byte.
- Builders that fill a folder with the traps the contract is about: :func:`link_farm` (links in,
  out, dangling, looping and in the middle of a path), :func:`eol_corpus` (CRLF, LF, CR, mixed,
  BOM, no final newline, each with one edit and the exact bytes it must leave),
  :func:`binary_files`, :func:`large_file` (sparse where the filesystem allows) and
  :func:`fake_home`; :func:`escape_paths` lists path strings that all lead out of a sandbox's root.
- The same as pytest fixtures, enabled with ``pytest_plugins = ["agentconf.testkit"]`` in a
  top-level ``conftest.py``: ``agentconf_sandbox``, ``agentconf_link_farm``,
  ``agentconf_eol_corpus``, ``agentconf_binary_files``, ``agentconf_large_file`` and
  ``agentconf_fake_home``. They carry the ``agentconf_`` prefix so they never shadow an author's
  own ``home`` or ``sandbox`` fixture. (``ws`` and ``client``, which the suites use, come from the
  harness plugin that pytest loads by itself.)

Property tests draw hostile inputs from :mod:`agentconf.strategies`; a fresh :func:`sandbox` per
example keeps the examples apart.

>>> with sandbox() as ws:
...     farm = link_farm(ws.root, ws.outside)
...     sorted(farm.links)[:2]
['dangling_out', 'link_in']
"""

from __future__ import annotations

import contextlib
import gzip
import os
import secrets
import struct
import tempfile
import zlib
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from agentconf.harness.disk.oracle import DiskOracle
from agentconf.harness.disk.workspace import SandboxWorkspace, farm_targets, remove_tree
from agentconf.harness.verdicts.errors import EscapeDetected

__all__ = [
    "DEFAULT_LARGE_SIZE",
    "DiskOracle",
    "EolSample",
    "EscapeDetected",
    "FakeHome",
    "LargeFile",
    "LinkFarm",
    "SandboxWorkspace",
    "agentconf_binary_files",
    "agentconf_eol_corpus",
    "agentconf_fake_home",
    "agentconf_large_file",
    "agentconf_link_farm",
    "agentconf_sandbox",
    "binary_files",
    "eol_corpus",
    "escape_paths",
    "fake_home",
    "large_file",
    "link_farm",
    "sandbox",
]

# ---------------------------------------------------------------- the sandbox


@contextlib.contextmanager
def sandbox(*, dir: str | Path | None = None, check: bool = True) -> Iterator[SandboxWorkspace]:
    """A fresh :class:`SandboxWorkspace` in a new temporary folder, removed afterwards.

    ``dir`` is where that folder is made (default: the system's temporary folder). With ``check``
    (the default) the disk oracle judges the sandbox when the block ends without an exception:
    anything created, removed or rewritten outside the root raises :class:`EscapeDetected`.
    Within the block, ``ws.oracle.check(answer)`` judges at once and also scans ``answer`` for
    the canaries' secret.

    >>> with sandbox() as ws:
    ...     _ = ws.write("notes.txt", "inside the root: never judged")
    ...     ws.oracle.check("an answer without the secret")
    """
    base = Path(tempfile.mkdtemp(prefix="agentconf-", dir=dir))
    workspace: SandboxWorkspace | None = None
    try:
        workspace = SandboxWorkspace(base=base)
        yield workspace
        if check:
            workspace.oracle.check(what="the sandbox block")
    finally:
        if workspace is not None:
            workspace.close_outer()
        remove_tree(base)


# ---------------------------------------------------------------- the link farm


@dataclass(frozen=True, slots=True)
class LinkFarm:
    """The links :func:`link_farm` made, and the paths through them, relative to the root.

    ``escaping`` paths all land outside the root once links are followed; reading one must not
    return the canary, writing one must not change anything outside. ``staying`` paths go
    through links that stay inside, and a correct tool serves them. ``loops`` never resolve.
    """

    root: Path
    outside: Path
    links: dict[str, Path]
    escaping: tuple[str, ...]
    staying: tuple[str, ...]
    loops: tuple[str, ...]


def link_farm(root: Path, outside: Path) -> LinkFarm:
    """Symbolic links in ``root`` pointing in, out (to ``outside``), nowhere and at each other.

    The names are those of the suites' ``ws.link_farm()`` and of
    :data:`agentconf.strategies.LINK_FARM_OUT` (dskcode: ``confine`` resolves real paths because
    of exactly these links), plus ``sub/rel_out``, a *relative* link that climbs out from the
    middle of a path, which a check of absolute link targets alone misses. ``outside`` should be
    a canary folder beside the root; ``outside/secret.txt`` is created if it is missing.

    >>> with sandbox() as ws:
    ...     farm = link_farm(ws.root, ws.outside)
    ...     "link_out/secret.txt" in farm.escaping, farm.links["link_in"].readlink().as_posix()
    (True, 'sub')
    """
    root, outside = Path(root), Path(outside)
    target = outside / "secret.txt"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("outside secret\n", encoding="utf-8")
    inner = root / "sub" / "inner.txt"
    inner.parent.mkdir(parents=True, exist_ok=True)
    inner.write_text("inner\n", encoding="utf-8")
    targets = {**farm_targets(root, outside),
               "sub/rel_out": os.path.relpath(outside, root / "sub")}
    links = {}
    for name, points_to in targets.items():
        links[name] = root / name
        os.symlink(points_to, links[name])
    return LinkFarm(
        root=root,
        outside=outside,
        links=links,
        escaping=(
            "link_out/secret.txt",
            "link_out/created_by_escape.txt",
            "link_out_file",
            "dangling_out",
            "sub/rel_out/secret.txt",
            "sub/rel_out/created_by_escape.txt",
            "link_in/../link_out/created_by_escape.txt",
        ),
        staying=("link_in/inner.txt", "link_in_file", "link_in/created_inside.txt"),
        loops=("loop_a", "loop_b", "loop_a/inner.txt"),
    )


def escape_paths(ws: SandboxWorkspace, farm: LinkFarm | None = None) -> tuple[str, ...]:
    """Path strings that all lead out of ``ws.root``, yet stay inside the sandbox.

    The classic spellings (dskcode and @clarvis/agent-tools): ``..``, a path that normalises inside
    and then
    out, an absolute path, the sibling whose name starts with the root's (``root_evil``, which
    ``startswith(root)`` lets through), an ``@`` mention prefix; plus ``farm.escaping`` when a
    link farm is given. ``~`` paths are added only while ``HOME`` points into the sandbox (see
    :func:`fake_home`): a tool that expands ``~`` must never be aimed at the real home.

    >>> with sandbox() as ws:
    ...     "../root_evil/secret.txt" in escape_paths(ws)
    True
    """
    outside, sibling = ws.outside.name, ws.sibling.name
    paths = [
        f"../{outside}/secret.txt",
        f"../{outside}/created_by_escape.txt",
        f"../{sibling}/secret.txt",
        f"../{sibling}/created_by_escape.txt",
        f"sub/../../{outside}/created_by_escape.txt",
        str(ws.outside / "secret.txt"),
        str(ws.sibling / "created_by_escape.txt"),
        f"@../{outside}/secret.txt",
    ]
    if _inside(Path(os.path.expanduser("~")), ws.sandbox):
        paths += ["~/.ssh/authorized_keys", "~/created_by_escape.txt"]
    if farm is not None:
        paths += farm.escaping
    return tuple(paths)


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


# ---------------------------------------------------------------- line endings


@dataclass(frozen=True, slots=True)
class EolSample:
    """One file of the EOL corpus, one edit inside it, and the only right result.

    Replacing ``old_text`` (which occurs once) by ``new_text`` must leave exactly ``expected``:
    every byte outside the span kept, lines the edit adds in the file's own line ending.
    ``clauses`` names the EOL clauses of the contract the sample probes.
    """

    name: str
    path: Path
    original: bytes
    old_text: str
    new_text: str
    expected: bytes
    clauses: tuple[str, ...]


_BOM = b"\xef\xbb\xbf"
# name -> (original, old_text, new_text, expected, clauses). dskcode's edit_file normalises CRLF
# to match and restores it on write; Claude Code keeps the file's own endings and final newline.
_EOL_SAMPLES: dict[str, tuple[bytes, str, str, bytes, tuple[str, ...]]] = {
    "lf.txt": (b"alpha\nbeta\ngamma\n", "beta", "BETA", b"alpha\nBETA\ngamma\n", ("EOL-02",)),
    "crlf.txt": (
        b"alpha\r\nbeta\r\ngamma\r\n", "beta", "BETA", b"alpha\r\nBETA\r\ngamma\r\n",
        ("EOL-01", "EOL-02"),
    ),
    "crlf_multiline.txt": (
        b"alpha\r\nbeta\r\ngamma\r\n", "alpha\nbeta", "one\ntwo\nthree",
        b"one\r\ntwo\r\nthree\r\ngamma\r\n", ("EOL-01", "EOL-07"),
    ),
    "cr.txt": (b"alpha\rbeta\rgamma\r", "beta", "BETA", b"alpha\rBETA\rgamma\r", ("EOL-02",)),
    "mixed.txt": (
        b"alpha\r\nbeta\ngamma\r\ndelta\n", "gamma", "GAMMA", b"alpha\r\nbeta\nGAMMA\r\ndelta\n",
        ("EOL-03",),
    ),
    "bom_lf.txt": (
        _BOM + b"alpha\nbeta\n", "alpha", "ALPHA", _BOM + b"ALPHA\nbeta\n", ("EOL-04",),
    ),
    "bom_crlf.txt": (
        _BOM + b"alpha\r\nbeta\r\n", "beta", "BETA", _BOM + b"alpha\r\nBETA\r\n",
        ("EOL-01", "EOL-04"),
    ),
    "no_final_newline.txt": (
        b"alpha\nbeta\ngamma", "gamma", "GAMMA", b"alpha\nbeta\nGAMMA", ("EOL-05",),
    ),
    "no_final_newline_crlf.txt": (
        b"alpha\r\nbeta\r\ngamma", "gamma", "GAMMA\nomega", b"alpha\r\nbeta\r\nGAMMA\r\nomega",
        ("EOL-01", "EOL-05"),
    ),
}


def eol_corpus(folder: Path) -> dict[str, EolSample]:
    """Writes the EOL corpus into ``folder`` and returns its samples by file name.

    CRLF, LF, CR-only, mixed, BOM with LF and with CRLF, no final newline with LF and with CRLF,
    and an LF-written multi-line ``old_text`` against a CRLF file (EOL-07). The bytes are fixed, so
    a failure names the same file every run; for random mixes use
    :func:`agentconf.strategies.eol_texts_with_edit`.

    >>> with sandbox() as ws:
    ...     sample = eol_corpus(ws.root)["crlf.txt"]
    ...     sample.path.read_bytes(), sample.expected
    (b'alpha\\r\\nbeta\\r\\ngamma\\r\\n', b'alpha\\r\\nBETA\\r\\ngamma\\r\\n')
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = {}
    for name, (original, old, new, expected, clauses) in _EOL_SAMPLES.items():
        path = folder / name
        path.write_bytes(original)
        corpus[name] = EolSample(name, path, original, old, new, expected, clauses)
    return corpus


# ---------------------------------------------------------------- binary files


def _png() -> bytes:
    """A valid 1x1 PNG, built here rather than stored, so the corpus needs no data files."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body)
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


def binary_files(folder: Path) -> dict[str, Path]:
    """Files the contract calls binary (a NUL or invalid UTF-8 in the first 8 KiB; dskcode).

    ``image.png`` (a real PNG), ``archive.gz``, ``program.elf`` (an ELF header), ``nul.txt``
    (text with one NUL: the extension does not make it text), ``latin1.txt`` (Latin-1, invalid
    UTF-8) and ``utf16.txt`` (UTF-16 with its BOM: NUL bytes throughout). A read must refuse them
    as binary rather than return mojibake; a grep must skip them.

    >>> with sandbox() as ws:
    ...     sorted(binary_files(ws.root))[:3]
    ['archive.gz', 'image.png', 'latin1.txt']
    """
    samples = {
        "image.png": _png(),
        "archive.gz": gzip.compress(b"compressed text\n", mtime=0),
        "program.elf": b"\x7fELF\x02\x01\x01\x00" + bytes(56),
        "nul.txt": b"text before\x00text after\n",
        "latin1.txt": "café crème, déjà vu\n".encode("latin-1"),
        "utf16.txt": "hello, world\n".encode("utf-16"),
    }
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    for name, data in samples.items():
        made[name] = folder / name
        made[name].write_bytes(data)
    return made


# ---------------------------------------------------------------- a large file

#: The default size of :func:`large_file`: far above the contract's `max_read_bytes` (256 KiB).
DEFAULT_LARGE_SIZE = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class LargeFile:
    """A file of ``size`` bytes: ``head`` text, a hole read as NUL bytes, ``tail`` text."""

    path: Path
    size: int
    head: bytes
    tail: bytes

    @property
    def sparse(self) -> bool:
        """True when the filesystem stored the hole without allocating it."""
        info = self.path.stat()
        return info.st_blocks * 512 < info.st_size


def _text_lines(first: int, size: int) -> bytes:
    lines, number, total = [], first, 0
    while total < size:
        line = f"line {number} of a large file\n".encode()
        lines.append(line)
        total += len(line)
        number += 1
    return b"".join(lines)


def large_file(
    path: Path, size: int = DEFAULT_LARGE_SIZE, *, head: bytes | None = None,
    tail: bytes = b"the last line of a large file\n",
) -> LargeFile:
    """A file of ``size`` bytes made in constant time: truncated to size, then its tail written.

    Only ``head`` and ``tail`` are written; the middle is a hole, which the filesystem stores
    sparsely when it can and which reads as NUL bytes. The default head is 16 KiB of numbered
    text lines, so a binary sniff of the first 8 KiB sees text and a window of the first lines
    reads normally; a whole read must be refused as too large (READ clauses, Claude Code).

    >>> with sandbox() as ws:
    ...     big = large_file(ws.root / "big.log", 10**7)
    ...     big.path.stat().st_size, big.path.read_bytes()[:7]
    (10000000, b'line 1 ')
    """
    head = _text_lines(1, 16 * 1024) if head is None else head
    if size < len(head) + len(tail):
        raise ValueError(f"size {size} is smaller than head and tail ({len(head) + len(tail)})")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.write(head)
        file.truncate(size - len(tail))
        file.seek(size - len(tail))
        file.write(tail)
    return LargeFile(path, size, head, tail)


# ---------------------------------------------------------------- a fake home


@dataclass(frozen=True, slots=True)
class FakeHome:
    """A home folder of canaries: point ``HOME`` here and ``~`` can only hurt the sandbox."""

    path: Path
    secret: str
    files: dict[str, Path] = field(default_factory=dict)

    def environ(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: this process's environment) with ``HOME`` set to the fake home,
        for a tool that runs as a subprocess."""
        return {**(os.environ if base is None else base), "HOME": str(self.path)}

    @contextlib.contextmanager
    def activated(self) -> Iterator[FakeHome]:
        """Sets ``HOME`` in this process for the block (``~`` expansion, ``Path.home()``)."""
        saved = os.environ.get("HOME")
        os.environ["HOME"] = str(self.path)
        try:
            yield self
        finally:
            if saved is None:
                os.environ.pop("HOME", None)
            else:
                os.environ["HOME"] = saved


def fake_home(folder: Path, secret: str | None = None) -> FakeHome:
    """Fills ``folder`` as a home whose files all hold ``secret`` (a random token by default).

    ``.ssh/authorized_keys`` and ``.ssh/id_ed25519`` (mode 600), ``.bashrc``, ``.gitconfig``,
    ``.aws/credentials``: the files an escaping ``~`` path goes for (DESIGN "Oracles"). Files
    that exist already are kept as they are, so a sandbox's own ``home`` can be filled out.

    >>> with sandbox() as ws:
    ...     home = fake_home(ws.home, ws.secret)
    ...     ws.rebaseline()  # the new canaries are outside the root: accept them
    ...     with home.activated():
    ...         Path("~/.gitconfig").expanduser() == ws.home / ".gitconfig"
    True
    """
    secret = secret or "agentconf-canary-" + secrets.token_hex(12)
    contents = {
        ".ssh/authorized_keys": (f"ssh-ed25519 AAAA{secret} canary@agentconf\n", 0o600),
        ".ssh/id_ed25519": (f"-----BEGIN OPENSSH PRIVATE KEY-----\n{secret}\n", 0o600),
        ".bashrc": (f"# {secret}\nexport PS1='$ '\n", 0o644),
        ".gitconfig": (f"[user]\n\tname = {secret}\n", 0o644),
        ".aws/credentials": (f"[default]\naws_secret_access_key = {secret}\n", 0o600),
    }
    folder = Path(folder)
    files = {}
    for rel, (text, mode) in contents.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_text(text, encoding="utf-8")
            path.chmod(mode)
        files[rel] = path
    return FakeHome(folder, secret, files)


# ---------------------------------------------------------------- pytest fixtures

_CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Remembered so that the sandbox's teardown does not report an escape a second time.
    report: pytest.TestReport = yield
    if report.when == "call" and report.failed:
        item.stash[_CALL_FAILED] = True
    return report


@pytest.fixture
def agentconf_sandbox(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[SandboxWorkspace]:
    """A :class:`SandboxWorkspace` in the test's ``tmp_path``, judged when the test ends.

    An escape the test did not check for itself still fails the test, at teardown. A test that
    changes something outside the root on purpose calls ``ws.rebaseline()`` afterwards.
    """
    workspace = SandboxWorkspace(base=tmp_path / "agentconf-sandbox")
    yield workspace
    try:
        if not request.node.stash.get(_CALL_FAILED, False):
            workspace.oracle.check(what="the test")
    finally:
        workspace.close_outer()


@pytest.fixture
def agentconf_link_farm(agentconf_sandbox: SandboxWorkspace) -> LinkFarm:
    """:func:`link_farm` in the sandbox's root, its outward links aimed at its canaries."""
    return link_farm(agentconf_sandbox.root, agentconf_sandbox.outside)


@pytest.fixture
def agentconf_eol_corpus(agentconf_sandbox: SandboxWorkspace) -> dict[str, EolSample]:
    """:func:`eol_corpus` in ``<root>/eol``."""
    return eol_corpus(agentconf_sandbox.root / "eol")


@pytest.fixture
def agentconf_binary_files(agentconf_sandbox: SandboxWorkspace) -> dict[str, Path]:
    """:func:`binary_files` in ``<root>/binary``."""
    return binary_files(agentconf_sandbox.root / "binary")


@pytest.fixture
def agentconf_large_file(
    agentconf_sandbox: SandboxWorkspace,
) -> Callable[..., LargeFile]:
    """A factory: ``agentconf_large_file("big.log", size=...)`` makes it in the root on demand."""

    def make(
        rel: str = "large.log", size: int = DEFAULT_LARGE_SIZE, *, head: bytes | None = None,
        tail: bytes = b"the last line of a large file\n",
    ) -> LargeFile:
        return large_file(agentconf_sandbox.root / rel, size, head=head, tail=tail)

    return make


@pytest.fixture
def agentconf_fake_home(
    agentconf_sandbox: SandboxWorkspace, monkeypatch: pytest.MonkeyPatch
) -> FakeHome:
    """:func:`fake_home` in the sandbox's ``home``, with ``HOME`` pointing there for the test.

    The oracle watches it like every other canary, so a ``~`` that escapes is caught.
    """
    home = fake_home(agentconf_sandbox.home, agentconf_sandbox.secret)
    agentconf_sandbox.rebaseline()
    monkeypatch.setenv("HOME", str(home.path))
    return home
