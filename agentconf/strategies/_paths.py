"""Hostile path strings relative to a workspace with links in and out of it."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import PurePosixPath

from hypothesis import strategies as st

from agentconf.strategies._memo import memoised

# ---------------------------------------------------------------- hostile paths

#: Links the harness's link farm creates that point out of the root (`ws.link_farm()`).
LINK_FARM_OUT: tuple[str, ...] = ("link_out", "link_out_file", "dangling_out")
#: Links the link farm creates that point inside the root.
LINK_FARM_IN: tuple[str, ...] = ("link_in", "link_in_file")
#: The two links of the farm that point at each other.
LINK_FARM_LOOPS: tuple[str, ...] = ("loop_a", "loop_b")

#: Characters a shell gives meaning to; a path or pattern carrying them must stay literal.
SHELL_METACHARACTERS = "$`;|&()<>*?[]{}!#'\"\\\n\t "

# Names that are harmless on their own but catch naive resolvers: prefix checks on `..`, unicode
# lookalikes of dots and slashes, right-to-left overrides, shell syntax, a NUL (dskcode: NUL must
# become a failure envelope, not a ValueError).
_TRICKY_NAMES: tuple[str, ...] = (
    "..cache",
    "...",
    ".hidden",
    "a..b",
    "．．",  # fullwidth dots: `..` after NFKC normalisation
    "\u2024\u2024",  # one-dot leaders
    "\u2215x",  # division slash, looks like `/`
    "e\u0301",  # decomposed é
    "é",
    "日本語",
    "\u202etxt.exe",
    "name with spaces",
    "$(echo pwned)",
    "`id`",
    "a;b",
    "a|b",
    "*",
    "?",
    "-rf",
    "--help",
    "nul\x00byte",
    "x.txt",
    "new",
    "sub",
    "inner.txt",
    "secret.txt",
    "created_by_escape.txt",
)

_DOTS_LOOKALIKES = frozenset({"..", "．．", "\u2024\u2024"})


def sibling_prefix_names(root_name: str) -> st.SearchStrategy[str]:
    """Folder names that start with the root's own name, as a string-prefix check would allow.

    >>> sibling_prefix_names("root").example().startswith("root")
    True
    """
    suffixes = st.sampled_from(["_evil", "-evil", "2", ".bak", " ", "evil", "_", "~"])
    return st.builds(lambda suffix: root_name + suffix, suffixes)


def hostile_path_components(
    *,
    links: Sequence[str] = LINK_FARM_OUT + LINK_FARM_IN + LINK_FARM_LOOPS,
    sibling_names: Sequence[str] = (),
) -> st.SearchStrategy[str]:
    """One path component: `..`, `.`, empty, `~`, a link name, a sibling name, or a tricky name.

    >>> hostile_path_components(links=("link_out",)).example() is not None
    True
    """
    fixed = ["..", ".", "", "~", "@", *links, *sibling_names, *_TRICKY_NAMES]
    shell_names = st.text(alphabet=SHELL_METACHARACTERS.replace("\n", ""), min_size=1, max_size=3)
    unicode_names = st.text(
        alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")),
        min_size=1,
        max_size=6,
    ).filter(lambda name: "/" not in name and "\\" not in name)
    return st.one_of(st.sampled_from(fixed), shell_names, unicode_names)


@memoised
def hostile_paths(
    root: str | PurePosixPath,
    *,
    outside: str | PurePosixPath | None = None,
    home: str | PurePosixPath | None = None,
    sibling: str | PurePosixPath | None = None,
    links: Sequence[str] = LINK_FARM_OUT + LINK_FARM_IN + LINK_FARM_LOOPS,
    max_components: int = 6,
    beyond: Sequence[str | PurePosixPath] = (),
) -> st.SearchStrategy[str]:
    """Path strings aimed at escaping `root`, relative or absolute, with any separator.

    `outside`, `home` and `sibling` are absolute folders beside the root (the sandbox's canaries);
    they become absolute prefixes and, for the sibling, `../<name>` and `<root>_suffix` spellings.
    Every path stays within `root`'s parent however it is read (see the module docstring), but
    for the few aimed into `beyond`: canary folders elsewhere (the system's temporary folder,
    harness/disk/outer.py), each path naming a file inside one of them.

    >>> p = hostile_paths("/tmp/s/root", outside="/tmp/s/outside").example()
    >>> isinstance(p, str)
    True
    """
    root_path = PurePosixPath(root)
    sibling_names = [root_path.name + "_evil"]
    if sibling is not None:
        sibling_names.append(PurePosixPath(sibling).name)
    absolute_starts = [str(root_path), *(str(p) for p in (outside, home, sibling) if p is not None)]
    prefixes = st.one_of(
        st.just(""),
        st.sampled_from(["@", "./", "~/", "@~/", "@./"]),
        st.sampled_from([start + "/" for start in absolute_starts]),
        st.sampled_from(["@" + start + "/" for start in absolute_starts]),
        sibling_prefix_names(str(root_path)).map(lambda name: name + "/"),
    )
    build = _joined_path(
        prefixes=prefixes,
        components=hostile_path_components(links=links, sibling_names=sibling_names),
        separators=st.sampled_from(["/", "/", "/", "//", "/./", "\\"]),
        max_components=max_components,
    )
    parent = str(root_path.parent).rstrip("/") + "/"
    # The classic traversals first: a few examples (the ci profile draws 25) must try them, not
    # only the exotic spellings the builder favours.
    classics = st.sampled_from([
        "../hostile-escape.txt", "a/../../hostile-escape.txt", "@../hostile-escape.txt",
        f"../{sibling_names[0]}/hostile-escape.txt", f"{root_path}/../hostile-escape.txt",
        "./new/../../hostile-escape.txt",
    ])
    within = st.one_of(classics, build).filter(
        lambda path: _stays_within_parent(path, links, parent))
    if not beyond:
        return within
    return st.one_of(within, st.sampled_from(beyond_paths(beyond)))


@st.composite
def _joined_path(draw: st.DrawFn, *, prefixes: st.SearchStrategy[str],
                 components: st.SearchStrategy[str], separators: st.SearchStrategy[str],
                 max_components: int) -> str:
    """A prefix, then one component or more joined by drawn separators, now and then a trailer
    (a slash, `/.`, `/..`, a backslash)."""
    prefix = draw(prefixes)
    parts = draw(st.lists(components, min_size=1, max_size=max_components))
    text = prefix
    for index, part in enumerate(parts):
        text += part if index == 0 else draw(separators) + part
    if draw(st.booleans()) and draw(st.booleans()):
        text += draw(st.sampled_from(["/", "/.", "/..", "\\"]))
    return text


def beyond_paths(folders: Sequence[str | PurePosixPath]) -> list[str]:
    """Absolute paths to the canaries of folders outside the sandbox, a few spellings each.

    >>> beyond_paths(["/tmp/agentconf-canary-x"])[:2]
    ['/tmp/agentconf-canary-x/secret.txt', '@/tmp/agentconf-canary-x/secret.txt']
    """
    found = []
    for folder in map(str, folders):
        name = folder.rstrip("/").rsplit("/", 1)[-1]
        found += [f"{folder}/secret.txt", f"@{folder}/secret.txt", f"{folder}//notes.md",
                  f"{folder}/./secret.txt", f"{folder}/../{name}/secret.txt",
                  f"{folder}/hostile-escape.txt"]
    return found


def _stays_within_parent(path: str, links: Sequence[str], parent: str) -> bool:
    """True when no reading of `path` climbs above the root's parent folder.

    Depth 0 is that parent, depth 1 the root or a folder beside it. An absolute path must start in
    the parent. A link, `~` or `@`-stripped name may land at depth 1 when followed, so it counts as
    no descent; `..` and its lookalikes climb one level.
    """
    text = path.lstrip("@")
    depth = 1
    if text.startswith("/"):
        if not text.startswith(parent):
            return False
        text, depth = text[len(parent) :], 0
    for raw in text.replace("\\", "/").split("/"):
        name = unicodedata.normalize("NFKC", raw.lstrip("@"))
        if raw in _DOTS_LOOKALIKES or name in _DOTS_LOOKALIKES:
            depth -= 1
        elif name in ("", ".", "~") or raw in links:
            continue
        else:
            depth += 1
        if depth < 0:
            return False
    return True
