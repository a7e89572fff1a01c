"""junit.xml: one testcase per clause, so a CI's test view lists the contract, not our test names.

A testcase is named by its clause id alone, so a CI's test history survives a reworded
requirement (the requirement is a property). junit agrees with the exit status: a MUST fail or
xpass is a failure and a MUST error an error (each makes the run red); a SHOULD or MAY departure
does not make the run red, so it is skipped with "not met (advisory)" and its evidence in
system-out, as n/a and xfail are skipped with their reason.
"""

import xml.etree.ElementTree as ET
from typing import Any

from .markdown import message_name, na_reason


def _time(clause: dict[str, Any]) -> str:
    return f"{sum(test['duration'] for test in clause['tests']):.3f}"


def _outcome(case: ET.Element, clause: dict[str, Any]) -> None:
    status = clause["status"]
    if status in ("fail", "error") and clause["level"] != "MUST":
        ET.SubElement(case, "skipped", message=f"{clause['level']} not met ({status}, advisory: "
                                                "does not fail the run)")
        out = ET.SubElement(case, "system-out")
        out.text = clause["evidence"] + (f"\n\nReproduce: {clause['reproduce']}"
                                         if clause["reproduce"] else "")
    elif status == "fail":
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


def _messages(suites: ET.Element, messages: list[dict[str, Any]], name: str) -> None:
    """A suite of its own for changed messages (each makes the run red): a CI's test view shows
    them apart from the clauses, named by scenario."""
    if not messages:
        return
    suite = ET.SubElement(suites, "testsuite", name=f"{name} messages", tests=str(len(messages)),
                          failures=str(len(messages)), errors="0", skipped="0")
    for test in messages:
        case = ET.SubElement(suite, "testcase", classname="agentconf.messages",
                             name=message_name(test), time=f"{test['duration']:.3f}")
        evidence = test.get("evidence") or ""
        node = ET.SubElement(case, "failure", type="message-changed",
                             message=(evidence.splitlines() or ["message changed"])[0])
        node.text = evidence + (f"\n\nReproduce: {test['reproduce']}"
                                if test.get("reproduce") else "")


def render_junit(document: dict[str, Any]) -> str:
    clauses = document["clauses"]

    def count(*statuses: str, must: bool | None = None) -> str:
        return str(sum(clause["status"] in statuses and (
            must is None or (clause["level"] == "MUST") == must) for clause in clauses))

    name = f"agentconf[{document['implementation']['name']}]"
    suites = ET.Element("testsuites", name=name)
    suite = ET.SubElement(
        suites, "testsuite", name=name, tests=str(len(clauses)),
        failures=str(int(count("fail", must=True)) + int(count("xpass"))),
        errors=count("error", must=True),
        skipped=str(int(count("n/a", "xfail")) + int(count("fail", "error", must=False))),
        timestamp=str(document["run"].get("started") or ""),
        time=f"{sum(float(_time(c)) for c in clauses):.3f}",
    )
    _messages(suites, document.get("messages") or [], name)
    for clause in clauses:
        case = ET.SubElement(
            suite, "testcase", classname=f"agentconf.{clause['category']}",
            name=clause["id"], time=_time(clause),
        )
        properties = ET.SubElement(case, "properties")
        for key in ("level", "category", "status", "requirement"):
            ET.SubElement(properties, "property", name=key, value=clause[key])
        _outcome(case, clause)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
