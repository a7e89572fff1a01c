"""Public hypothesis strategies for testing agent tool systems.

The conformance suites build their property tests from these, and so can a tool author's own
tests. Each strategy is small and composable:

- hostile path strings relative to a workspace with links in and out of it
  (:func:`hostile_paths`, :func:`hostile_path_components`, :func:`sibling_prefix_names`,
  :data:`SHELL_METACHARACTERS`);
- texts with every line-ending mix, BOM and final-newline state plus one edit inside them
  (:func:`eol_texts_with_edit`, :class:`EolEdit`);
- unicode outputs around a truncation limit (:func:`outputs_around_limit`);
- valid and ill-typed arguments for any JSON Schema of an object (:func:`valid_arguments`,
  :func:`ill_typed_arguments`, :func:`json_values`).

Every path the path strategies produce stays, even read in the most hostile way (`..` after a link
out, `~` expanded, `@` stripped, backslashes taken as separators), inside the folder that holds the
root: a broken implementation under test can reach the canaries beside the root but nothing beyond.

>>> from hypothesis import given
>>> @given(hostile_paths("/tmp/sandbox/root"))
... def test_no_escape(path): ...
"""

from __future__ import annotations

import functools
import string
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath
from typing import Any, TypeVar

import jsonschema
from hypothesis import strategies as st

__all__ = [
    "BOM",
    "EOLS",
    "LINK_FARM_IN",
    "LINK_FARM_LOOPS",
    "LINK_FARM_OUT",
    "SHELL_METACHARACTERS",
    "EolEdit",
    "eol_texts_with_edit",
    "hostile_path_components",
    "hostile_paths",
    "ill_typed_arguments",
    "json_values",
    "line_text",
    "output_text",
    "outputs_around_limit",
    "sibling_prefix_names",
    "valid_arguments",
]

JsonSchema = Mapping[str, Any]

_Factory = TypeVar("_Factory", bound=Callable[..., Any])
_MEMO_SIZE = 256


def _memoised(factory: _Factory) -> _Factory:
    """The same strategy object for the same arguments.

    The suites draw from these inside the test, once per example (the schema or the root comes
    from the fixture): building the strategy anew each time cost more than drawing from it, and
    a fresh object also throws away what hypothesis caches per strategy. Arguments are compared
    by value (schemas, paths) or, for strategies passed in, by identity; the memo holds them, so
    an identity is never reused while its entry lives.
    """
    memo: dict[Any, tuple[Any, Any]] = {}

    @functools.wraps(factory)
    def cached(*args: Any, **kwargs: Any) -> Any:
        try:
            key = _frozen((args, sorted(kwargs.items())))
        except TypeError:  # something unhashable we do not know how to compare: no memo
            return factory(*args, **kwargs)
        if key not in memo:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[key] = ((args, kwargs), factory(*args, **kwargs))
        return memo[key][1]

    return cached  # type: ignore[return-value]


def _frozen(value: Any) -> Any:
    if isinstance(value, st.SearchStrategy):
        return ("strategy", id(value))
    if isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _frozen(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_frozen(item) for item in value))
    if isinstance(value, PurePath):
        return ("path", str(value))
    if isinstance(value, (str, int, float, bool, type(None))):
        return (type(value).__name__, value)
    raise TypeError(f"no memo key for {type(value).__name__}")

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


@_memoised
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
    separators = st.sampled_from(["/", "/", "/", "//", "/./", "\\"])
    components = hostile_path_components(links=links, sibling_names=sibling_names)

    @st.composite
    def build(draw: st.DrawFn) -> str:
        prefix = draw(prefixes)
        parts = draw(st.lists(components, min_size=1, max_size=max_components))
        text = prefix
        for index, part in enumerate(parts):
            text += part if index == 0 else draw(separators) + part
        if draw(st.booleans()) and draw(st.booleans()):
            text += draw(st.sampled_from(["/", "/.", "/..", "\\"]))
        return text

    parent = str(root_path.parent).rstrip("/") + "/"
    # The classic traversals first: a few examples (the ci profile draws 25) must try them, not
    # only the exotic spellings the builder favours.
    classics = st.sampled_from([
        "../hostile-escape.txt", "a/../../hostile-escape.txt", "@../hostile-escape.txt",
        f"../{sibling_names[0]}/hostile-escape.txt", f"{root_path}/../hostile-escape.txt",
        "./new/../../hostile-escape.txt",
    ])
    within = st.one_of(classics, build()).filter(
        lambda path: _stays_within_parent(path, links, parent))
    if not beyond:
        return within
    return st.one_of(within, st.sampled_from(beyond_paths(beyond)))


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


# ---------------------------------------------------------------- line endings

#: The line endings a file may mix.
EOLS: tuple[str, ...] = ("\n", "\r\n", "\r")
#: The UTF-8 byte-order mark, as bytes.
BOM = b"\xef\xbb\xbf"

# Text for lines: no line-ending characters, no quotes (curly-quote matching would widen a match),
# and no guillemets, which mark the edited span.
_LINE_ALPHABET = st.characters(
    codec="utf-8",
    categories=("L", "N", "P", "S", "Zs"),
    exclude_characters="\r\n\x85\u2028\u2029'\"‘’“”«»",
)


def line_text(max_size: int = 12) -> st.SearchStrategy[str]:
    """The text of one line: unicode letters, digits, punctuation, spaces; no EOL or quote."""
    return st.text(alphabet=st.one_of(_LINE_ALPHABET, st.just("\t")), max_size=max_size)


TRAILING_BLANKS = ("", " ", "\t", "  ")


@dataclass(frozen=True, slots=True)
class EolEdit:
    """A file, one edit inside it, and the bytes the file must hold after the edit.

    `old_text` occurs exactly once and holds no line ending, so the only correct result is the
    original bytes with that span replaced by `new_text`'s UTF-8 bytes (EOL-06).
    """

    original: bytes
    old_text: str
    new_text: str
    expected: bytes
    eols: tuple[str, ...]
    bom: bool
    final_newline: bool


@st.composite
def eol_texts_with_edit(draw: st.DrawFn, max_lines: int = 8) -> EolEdit:
    """Texts with random CRLF/LF/CR mixes, an optional BOM and final newline, and a unique edit.

    >>> case = eol_texts_with_edit().example()
    >>> case.original.replace(case.old_text.encode(), case.new_text.encode()) == case.expected
    True
    """
    lines = draw(st.lists(line_text(), min_size=1, max_size=max_lines))
    # Trailing blanks are bytes an editor likes to "fix"; an edit elsewhere must keep them.
    lines = [line + draw(st.sampled_from(TRAILING_BLANKS)) for line in lines]
    eols = tuple(draw(st.lists(st.sampled_from(EOLS), min_size=len(lines), max_size=len(lines))))
    final_newline = draw(st.booleans())
    bom = draw(st.booleans())
    target = draw(st.integers(0, len(lines) - 1))
    needle = "«" + draw(line_text(max_size=6)) + "»"
    cut = draw(st.integers(0, len(lines[target])))
    lines[target] = lines[target][:cut] + needle + lines[target][cut:]
    new_text = draw(line_text(max_size=8))
    if not final_newline and not lines[-1]:
        lines[-1] = "end"  # an empty last line would end the text with its predecessor's EOL
    body = ""
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        body += line + ("" if last and not final_newline else eols[index])
    prefix = BOM if bom else b""
    return EolEdit(
        original=prefix + body.encode("utf-8"),
        old_text=needle,
        new_text=new_text,
        expected=prefix + body.replace(needle, new_text).encode("utf-8"),
        eols=eols,
        bom=bom,
        final_newline=final_newline,
    )


# ---------------------------------------------------------------- outputs to truncate

# No U+FFFD: its appearance in a result is how a split UTF-8 sequence shows (TRUNCATE-04).
_OUTPUT_ALPHABET = st.characters(
    codec="utf-8", categories=("L", "N", "P", "S"), exclude_characters="\ufffd"
)


def output_text(min_size: int = 1, max_size: int = 40) -> st.SearchStrategy[str]:
    """Unicode text of 1- to 4-byte characters with no leading or trailing whitespace."""
    return st.text(alphabet=_OUTPUT_ALPHABET, min_size=min_size, max_size=max_size)


@st.composite
def outputs_around_limit(draw: st.DrawFn, limit: int, spread: float = 3.0) -> str:
    """Unicode output whose length lands just under, at, or well over `limit` characters.

    A random head and tail (to check both are kept) around a random multi-byte chunk repeated to
    the drawn length, broken into lines; no leading or trailing whitespace, so a tool that strips
    its output still returns every character.

    >>> len(outputs_around_limit(100).example()) > 0
    True
    """
    head = draw(output_text(min_size=4, max_size=24))
    tail = draw(output_text(min_size=4, max_size=24))
    chunk = draw(output_text(min_size=1, max_size=12))
    line_every = draw(st.integers(20, 200))
    total = draw(
        st.one_of(
            st.integers(max(len(head) + len(tail) + 1, limit - 40), limit),
            st.integers(limit + 1, limit + 40),
            st.integers(limit + 1, max(limit + 2, int(limit * spread))),
        )
    )
    body_size = max(1, total - len(head) - len(tail))
    body = (chunk * (body_size // len(chunk) + 1))[:body_size]
    body = "\n".join(body[i : i + line_every] for i in range(0, len(body), line_every))
    # Joining lines added characters; trim the body back so the total stays where it was drawn.
    body = body[: max(1, total - len(head) - len(tail))].strip() or chunk[:1]
    return head + body + tail


# ---------------------------------------------------------------- arguments from a JSON Schema

_JSON_TYPES: tuple[str, ...] = ("null", "boolean", "integer", "number", "string", "array", "object")


def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    """Any JSON value: null, booleans, integers, finite floats, strings, arrays and objects."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(st.text(max_size=6), children, max_size=3),
        ),
        max_leaves=max_leaves,
    )


def _values_of_type(kind: str, strings: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    return {
        "null": st.none(),
        "boolean": st.booleans(),
        "integer": st.integers(-1000, 1000),
        "number": st.floats(-1e6, 1e6, allow_nan=False).filter(lambda f: not f.is_integer()),
        "string": strings,
        "array": st.lists(st.integers(0, 9) | strings, max_size=3),
        "object": st.dictionaries(st.sampled_from("abc"), st.integers(0, 9), max_size=2),
    }[kind]


class _Schemas:
    """Resolves local `$ref`s (`#/$defs/...`, `#/definitions/...`) against one root schema."""

    def __init__(self, root: JsonSchema) -> None:
        self.root = root

    def resolve(self, schema: JsonSchema) -> JsonSchema:
        seen = 0
        while isinstance(schema, Mapping) and "$ref" in schema and seen < 32:
            ref = str(schema["$ref"])
            if not ref.startswith("#/"):
                raise ValueError(f"only local $ref is supported, got {ref!r}")
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            seen += 1
        return schema

    def allowed_types(self, schema: JsonSchema) -> set[str] | None:
        """The JSON types a value may have, or None when the schema does not constrain it."""
        schema = self.resolve(schema)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                union: set[str] = set()
                for option in schema[key]:
                    types = self.allowed_types(option)
                    if types is None:
                        return None
                    union |= types
                return union
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else list(schema["enum"])
            return {_json_type(value) for value in values} | (
                {"number"} if any(_json_type(v) == "integer" for v in values) else set()
            )
        declared = schema.get("type")
        if declared is None:
            return None
        types = {declared} if isinstance(declared, str) else set(declared)
        if "number" in types:
            types.add("integer")
        return types

    def values(self, schema: JsonSchema, strings: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
        schema = self.resolve(schema)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return st.one_of([self.values(option, strings) for option in schema[key]])
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(list(schema["enum"]))
        declared = schema.get("type")
        if declared is None:
            return json_values()
        kinds = [declared] if isinstance(declared, str) else list(declared)
        return st.one_of([self._typed(kind, schema, strings) for kind in kinds])

    def _typed(self, kind: str, schema: JsonSchema, strings: st.SearchStrategy[str]) -> Any:
        if kind == "object":
            return self.objects(schema, strings)
        if kind == "array":
            items = schema.get("items", {})
            return st.lists(
                self.values(items if isinstance(items, Mapping) else {}, strings),
                min_size=int(schema.get("minItems", 0)),
                max_size=int(schema.get("maxItems", max(3, int(schema.get("minItems", 0))))),
            )
        if kind == "string":
            if "pattern" in schema:
                return st.from_regex(str(schema["pattern"]))
            shortest = int(schema.get("minLength", 0))
            longest = schema.get("maxLength")
            return strings.filter(
                lambda s: len(s) >= shortest and (longest is None or len(s) <= longest))
        if kind in ("integer", "number"):
            low = schema.get("minimum")
            high = schema.get("maximum")
            if "exclusiveMinimum" in schema:
                low = int(schema["exclusiveMinimum"]) + 1
            if "exclusiveMaximum" in schema:
                high = int(schema["exclusiveMaximum"]) - 1
            low = None if low is None else int(low) if float(low).is_integer() else int(low) + 1
            high = None if high is None else int(high)
            if low is None and high is None:
                low, high = -1000, 1000
            return st.integers(min_value=low, max_value=high)
        return _values_of_type(kind, strings)

    def objects(self, schema: JsonSchema, strings: st.SearchStrategy[str]) -> Any:
        schema = self.resolve(schema)
        properties: Mapping[str, JsonSchema] = schema.get("properties", {})
        required = [name for name in schema.get("required", []) if name in properties]
        optional = [name for name in properties if name not in required]
        return st.fixed_dictionaries(
            {name: self.values(properties[name], strings) for name in required},
            optional={name: self.values(properties[name], strings) for name in optional},
        )


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _validator(schema: JsonSchema) -> Callable[[Any], bool]:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema).is_valid


_DEFAULT_STRINGS = st.text(alphabet=string.ascii_lowercase + string.digits + "._-", max_size=12)


@_memoised
def valid_arguments(
    schema: JsonSchema, *, strings: st.SearchStrategy[str] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """Argument objects that satisfy `schema` (an object schema), checked with jsonschema.

    Supports the subset tool schemas use: `type`, `properties`, `required`, `enum`, `const`,
    `anyOf`/`oneOf`, local `$ref`, numeric and length bounds, `items`, `pattern`. `strings` draws
    every free string (pass a safe set for a tool that runs commands).

    >>> schema = {"type": "object", "properties": {"path": {"type": "string"}},
    ...           "required": ["path"], "additionalProperties": False}
    >>> "path" in valid_arguments(schema).example()
    True
    """
    is_valid = _validator(schema)
    schemas = _Schemas(schema)
    return schemas.objects(schema, _DEFAULT_STRINGS if strings is None else strings).filter(
        is_valid
    )


@_memoised
def ill_typed_arguments(
    schema: JsonSchema, *, strings: st.SearchStrategy[str] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """Argument objects that `schema` rejects, one or more mistakes a model really makes.

    Each starts from valid arguments and then gives a field a value of a JSON type the schema
    does not allow (`"3"` for an integer, `2.5`, `null`, a list...), drops a required field, or adds
    an unknown one (when `additionalProperties` is false). Every drawn value fails the schema
    under jsonschema.

    >>> schema = {"type": "object", "properties": {"path": {"type": "string"}},
    ...           "required": ["path"], "additionalProperties": False}
    >>> import jsonschema
    >>> jsonschema.Draft202012Validator(schema).is_valid(ill_typed_arguments(schema).example())
    False
    """
    is_valid = _validator(schema)
    schemas = _Schemas(schema)
    free_strings = _DEFAULT_STRINGS if strings is None else strings
    root = schemas.resolve(schema)
    properties: Mapping[str, JsonSchema] = root.get("properties", {})
    required = [name for name in root.get("required", []) if name in properties]
    closed = root.get("additionalProperties") is False
    typed_fields = {
        name: types for name in properties if (types := schemas.allowed_types(properties[name]))
    }

    def wrong_types(name: str) -> st.SearchStrategy[Any]:
        allowed = typed_fields[name]
        wrong = [kind for kind in _JSON_TYPES if kind not in allowed]
        if "integer" in allowed and "number" not in allowed:
            wrong.append("number")  # 2.5 for an integer
        if "integer" in allowed or "number" in allowed:
            return st.one_of(
                st.sampled_from(wrong).flatmap(lambda k: _values_of_type(k, free_strings)),
                st.integers(0, 99).map(str),  # "3" for 3: never coerced (VALIDATE-02)
            )
        return st.sampled_from(wrong).flatmap(lambda k: _values_of_type(k, free_strings))

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        arguments = dict(draw(schemas.objects(root, free_strings)))
        mistakes = []
        if typed_fields:
            mistakes.append("wrong_type")
        if required:
            mistakes.append("missing")
        if closed:
            mistakes.append("unknown")
        if not mistakes:
            raise ValueError("this schema accepts every object; nothing can be ill-typed")
        for _ in range(draw(st.integers(1, 2))):
            mistake = draw(st.sampled_from(mistakes))
            if mistake == "wrong_type":
                name = draw(st.sampled_from(sorted(typed_fields)))
                arguments[name] = draw(wrong_types(name))
            elif mistake == "missing":
                arguments.pop(draw(st.sampled_from(required)), None)
            else:
                unknown = draw(
                    st.sampled_from(["Path", "file_path", "extra", "force", "_meta_", "args"])
                    .filter(lambda key: key not in properties)
                )
                arguments[unknown] = draw(json_values(max_leaves=2))
        return arguments

    return build().filter(lambda arguments: not is_valid(arguments))
