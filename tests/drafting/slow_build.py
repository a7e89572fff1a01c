"""An in-process tool system slow to build, as an agent framework's toolkit is: `create(workspace)`
waits BUILD_S before it returns the reference's tools (python:slow_build:create, with this folder
on PYTHONPATH). A wait, not CPU: the kit's own tests share two cores."""

import time
from typing import Any

from agentconf.contract import Workspace
from agentconf.reference import create as create_reference

BUILD_S = 0.15


def create(workspace: Workspace) -> Any:
    time.sleep(BUILD_S)
    return create_reference(workspace)
