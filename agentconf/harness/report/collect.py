"""A pytest plugin for `agentconf explain`: after collection, writes {nodeid: [clause ids]} to the
file named by $AGENTCONF_COLLECT_OUT. Collecting (rather than scanning the source) also sees the
clause markers that data-driven suites attach to each case at collection time."""

import json
import os
from pathlib import Path

import pytest

OUT_ENV = "AGENTCONF_COLLECT_OUT"


def pytest_collection_finish(session: pytest.Session) -> None:
    target = os.environ.get(OUT_ENV)
    if not target:
        return
    found = {
        item.nodeid: [str(arg) for mark in item.iter_markers("clause") for arg in mark.args]
        for item in session.items
    }
    Path(target).write_text(json.dumps(found), encoding="utf-8")
