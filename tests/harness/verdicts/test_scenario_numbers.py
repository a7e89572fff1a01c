"""A check confirms its own scenario from what the implementation did, never from its own words
quoted back (suites/_checks.py): the flood a shell check needs is counted by `wc -c`, and a
refusal that quotes `head -c 250000 ...` names the size without anything having counted it."""

import sys
from pathlib import Path

SUITES = Path(__file__).resolve().parents[3] / "suites"
sys.path.insert(0, str(SUITES))

from _checks import FLOOD, _numbers_said  # noqa: E402

COMMAND = f"{FLOOD.format(size=250000)} | wc -c"


def test_a_count_the_shell_printed_is_read() -> None:
    for answer in ("250000\n", "  250000", "Output: 250000\nExit code: 0"):
        assert 250000 in _numbers_said(answer, COMMAND), answer


def test_the_size_in_a_refusal_quoting_the_command_is_not_a_count() -> None:
    refusal = ("Security violation: 'head -c 250000 /dev/zero': Path '/dev/zero' is outside "
               "of allowed directory")
    assert 250000 not in _numbers_said(refusal, COMMAND)
    assert 250000 not in _numbers_said(f"Error: `{COMMAND}` is not allowed", COMMAND)
