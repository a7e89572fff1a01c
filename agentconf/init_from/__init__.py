"""`agentconf init --from SPEC`: a draft profile inferred from an implementation's listing and
from harmless probes.
"""
