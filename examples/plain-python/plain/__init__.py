"""plain-python-tools: tools written from the agentconf contract alone (stdlib only)."""

NAME = "plain-python-tools"
VERSION = "1.0.0"
