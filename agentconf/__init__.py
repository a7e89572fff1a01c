"""agentconf: a conformance kit for LLM agent tool systems."""

__version__ = "0.1.0"
