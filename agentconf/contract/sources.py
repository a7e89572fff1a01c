"""The projects whose public write-ups the contract comes from: a clause's or code's `source`."""

SOURCES: dict[str, str] = {
    "dskcode": "dskcode / agent-cli src/tool/ (TypeScript): registry, ToolResult, sandbox.ts",
    "Claude Code": "Claude Code's tool system (a re-implementation tutorial): edit safety, "
                   "truncation, shell and grep, concurrency",
    "agentkit": "agentkit-tools-core (Rust): ToolSpec annotations, BTreeMap registry, executor",
    "@clarvis/agent-tools": "@clarvis/agent-tools (TypeScript): frozen config, read-only "
                            "surface, five-step dispatch, atomic writes, apply_patch",
    "botholomew": "botholomew's ToolDefinition: one definition for schema, CLI and tests",
}
