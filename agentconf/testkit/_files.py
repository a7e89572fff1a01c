"""Files the contract's traps are made of: every line-ending mix with one edit each, binary
files, a large file and a fake home."""

from __future__ import annotations

import contextlib
import gzip
import os
import secrets
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

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
