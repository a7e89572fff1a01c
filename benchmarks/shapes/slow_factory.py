"""An in-process tool system whose factory is slow, as an agent framework's toolkit is to build:
`create(workspace)` spends BUILD_CPU_S of CPU before it returns the reference's tools.

    python:slow_factory:create    (with benchmarks/shapes on PYTHONPATH)

Every verdict is the reference's; only the cost of a build differs (`benchmarks/run.py --only
kinds`).
"""

import time
from typing import Any

from agentconf.contract import Workspace
from agentconf.reference import create as create_reference

BUILD_CPU_S = 0.5


def create(workspace: Workspace) -> Any:
    until = time.process_time() + BUILD_CPU_S
    while time.process_time() < until:
        pass
    return create_reference(workspace)
