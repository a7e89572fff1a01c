"""Golden cases: every case of each category's cases.json (suites/<category>/) is one test,
tagged with its clauses.

The case files are data any harness can read (`agentconf cases export`); here each becomes a
workspace and calls through the harness `client`, so the profile's mapping applies. A test's id is
the case id, so an expected failure can name one case (`EDIT-03::edit-multiple-crlf`).
"""

import pytest

from agentconf.harness.cases.load import Case, load_cases
from agentconf.harness.cases.play import run_case


def _param(case: Case) -> object:
    marks = [pytest.mark.clause(*case.clauses)]
    requires = tuple(dict.fromkeys((*case.requires, *case.argument_requirements)))
    if requires:
        marks.append(pytest.mark.requires(*requires))
    if case.waits:
        marks.append(pytest.mark.waits)
    return pytest.param(case, marks=marks, id=case.id)


@pytest.mark.parametrize("case", [_param(case) for case in load_cases()])
def test_case(case: Case, ws, client, request: pytest.FixtureRequest) -> None:
    # The event stream and the baseline name failing cases by this property.
    request.node.user_properties.append(("case", case.id))
    run_case(case, ws, client)
