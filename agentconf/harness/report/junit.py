"""junit.xml: one testcase per clause, so a CI's test view lists the contract, not our test names.

fail and xpass are failures (both make the run red), error is an error, n/a and xfail are skipped
with their reason; each testcase carries the level, category and status as properties.
"""

import xml.etree.ElementTree as ET
from typing import Any

from .markdown import na_reason


def _time(clause: dict[str, Any]) -> str:
    return f"{sum(test['duration'] for test in clause['tests']):.3f}"


def _outcome(case: ET.Element, clause: dict[str, Any]) -> None:
    status = clause["status"]
    if status == "fail":
        node = ET.SubElement(case, "failure", message=clause["requirement"], type="fail")
        node.text = clause["evidence"] + (f"\n\nReproduce: {clause['reproduce']}"
                                          if clause["reproduce"] else "")
    elif status == "xpass":
        ET.SubElement(case, "failure", type="xpass",
                      message="listed as an expected failure but passes: remove it from the list")
    elif status == "error":
        node = ET.SubElement(case, "error", message="the check could not conclude", type="error")
        node.text = clause["evidence"]
    elif status == "xfail":
        reasons = "; ".join((clause.get("expected_failure") or {}).values())
        ET.SubElement(case, "skipped", message=f"expected failure: {reasons}")
    elif status == "n/a":
        ET.SubElement(case, "skipped", message=f"not applicable: {na_reason(clause)}")


def render_junit(document: dict[str, Any]) -> str:
    clauses = document["clauses"]

    def count(*statuses: str) -> str:
        return str(sum(clause["status"] in statuses for clause in clauses))

    name = f"agentconf[{document['implementation']['name']}]"
    suites = ET.Element("testsuites", name=name)
    suite = ET.SubElement(
        suites, "testsuite", name=name, tests=str(len(clauses)), failures=count("fail", "xpass"),
        errors=count("error"), skipped=count("n/a", "xfail"),
        timestamp=str(document["run"].get("started") or ""),
        time=f"{sum(float(_time(c)) for c in clauses):.3f}",
    )
    for clause in clauses:
        case = ET.SubElement(
            suite, "testcase", classname=f"agentconf.{clause['category']}",
            name=f"{clause['id']} [{clause['level']}] {clause['requirement']}", time=_time(clause),
        )
        properties = ET.SubElement(case, "properties")
        for key in ("level", "category", "status"):
            ET.SubElement(properties, "property", name=key, value=clause[key])
        _outcome(case, clause)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
