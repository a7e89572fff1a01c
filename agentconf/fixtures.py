"""The former name of :mod:`agentconf.testkit`, kept so that existing imports and
``pytest_plugins = ["agentconf.fixtures"]`` keep working. New code imports agentconf.testkit."""

from agentconf.testkit import *  # noqa: F403
from agentconf.testkit import __all__  # noqa: F401
