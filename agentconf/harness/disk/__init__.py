"""The disk a check runs on: the sandbox workspace, its canaries (inside and outside it), where
sandboxes live, and the oracle that judges what changed.
"""
