"""The sandbox and the link farm: a private root with canaries beside it, links in and out of
it, and the path strings that lead out of it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agentconf.harness.disk.sandbox_workspace import SandboxWorkspace, farm_targets, remove_tree

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
