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


# The public front, as hypothesis.strategies is: the strategies live in private modules by
# subject (paths, texts, arguments), and this module names what is public.
from agentconf.strategies._arguments import ill_typed_arguments, json_values, valid_arguments
from agentconf.strategies._paths import (
    LINK_FARM_IN,
    LINK_FARM_LOOPS,
    LINK_FARM_OUT,
    SHELL_METACHARACTERS,
    hostile_path_components,
    hostile_paths,
    sibling_prefix_names,
)
from agentconf.strategies._text import (
    BOM,
    EOLS,
    EolEdit,
    eol_texts_with_edit,
    line_text,
    output_text,
    outputs_around_limit,
)

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
