"""Where a profile's result shape reads a failure's code: a bare word there that no table maps
is a spelling, not the words a model reads, and the patterns learnt on the whole answer still
see the whole answer (a zod issue list whose first `code` is `custom`)."""

from agentconf.harness.profile.model import parse_profile
from agentconf.harness.profile.tool_mapping import ResultShape
from agentconf.harness.session.answers import read_answer
from agentconf.harness.session.normalise import classify_text

ISSUES = '[\n  {\n    "code": "custom",\n    "message": "too small",\n    "path": ["t"]\n  }\n]'


def test_a_bare_word_at_the_error_place_is_a_spelling_not_the_message() -> None:
    reading = read_answer(ResultShape(error="/0/code"), ISSUES, None)
    assert (reading.error_code, reading.error_message) == ("custom", None)


def test_the_patterns_see_the_whole_answer_the_shape_read_a_part_of() -> None:
    profile = parse_profile({"implementation": {"spec": "reference"}, "error_patterns": [
        {"code": "INVALID_ARGS", "pattern": r'\A\[\s*\{\s*"code"'}]})
    assert classify_text("custom", profile, "custom") == "custom"  # a spelling, unread
    assert classify_text("custom", profile, "custom", whole=ISSUES) == "INVALID_ARGS"


def test_a_flag_that_is_true_fails_the_answer_with_its_code_and_false_leaves_it() -> None:
    shape = ResultShape(text="stdout", flags={"timed_out": "TIMEOUT"})
    timed = read_answer(shape, '{"stdout": "part", "exit_code": 124, "timed_out": true}', None)
    assert (timed.failed, timed.flagged, timed.text) == (True, "TIMEOUT", "part")
    done = read_answer(shape, '{"stdout": "all", "exit_code": 0, "timed_out": false}', None)
    assert (done.failed, done.flagged) == (False, None)


def test_a_pattern_learnt_on_a_message_reads_it_inside_its_json_answer() -> None:
    """fsext-mcp-server's refusals are `{"res": {"success": false, "info": {"code": ...,
    "message": "Parameter ... is not a regular file"}}}`: the draft learnt the message's start,
    and the whole answer's start is `{`."""
    profile = parse_profile({"implementation": {"spec": "reference"}, "error_patterns": [
        {"code": "IS_DIRECTORY", "pattern": r"\AParameter (?s:.*?) is not a regular file"}]})
    answer = ('{"res":{"success":false,"info":{"code":"VALIDATION_ERROR","message":'
              '"Parameter \'file_path\'(sub) is not a regular file"}}}')
    assert classify_text(answer, profile) == "IS_DIRECTORY"
    assert classify_text(answer.replace("Parameter", "Argument"), profile) is None
