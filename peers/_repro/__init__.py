"""What the peers' reproductions share (standard library only, never agentconf): the stdio MCP
client in mcp_stdio.py and the scripts that are one check run on several peers. A peer's
repro/mcp_stdio.py puts peers/ on sys.path and imports from here. No peer: no peer.toml."""
