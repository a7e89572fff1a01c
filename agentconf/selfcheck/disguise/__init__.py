"""Disguises of the reference: the kit's own test of generalisation. The reference is served over
MCP through a disguise (other names, shapes, words and paths for the same behaviour); a raw
`agentconf init --from` draft of it must get the reference's status on every clause, except the
clauses whose information the disguise removed.

Kept light: the server (`python -m agentconf.selfcheck.disguise`) starts once per check, so this
package's `__init__` imports nothing, and hypothesis is imported only by `strategy`.
"""
